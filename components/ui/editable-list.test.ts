import { describe, expect, it } from "vitest";
import { dropItem, putFirst, replaceItem } from "./editable-list";

const list = [
  { id: "a", text: "first" },
  { id: "b", text: "second" },
];

describe("an editable list", () => {
  it("shows a saved item in its place, forgets a deleted one, and puts a new one first once", () => {
    expect(replaceItem(list, { id: "b", text: "edited" })).toEqual([
      { id: "a", text: "first" },
      { id: "b", text: "edited" },
    ]);
    expect(dropItem(list, "a")).toEqual([{ id: "b", text: "second" }]);
    expect(putFirst(list, { id: "c", text: "new" }).map((item) => item.id)).toEqual([
      "c",
      "a",
      "b",
    ]);
    expect(putFirst(list, { id: "b", text: "merged" })).toEqual([
      { id: "b", text: "merged" },
      { id: "a", text: "first" },
    ]);
  });
});
