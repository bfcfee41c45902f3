import { describe, expect, it } from "vitest";
import { contentWords, salientWords } from "./salient-words";

describe("salient words", () => {
  it("ranks words by how often they occur, then keeps their order", () => {
    expect(salientWords("ferry timetable ferry harbor ferry timetable dock", 2)).toEqual([
      "ferry",
      "timetable",
    ]);
  });

  it("leaves out stop words and keeps the casing of names and technical terms", () => {
    expect(contentWords("How do I deploy my Next.js app to S3 with Postgres?")).toEqual([
      "deploy",
      "Next.js",
      "app",
      "S3",
      "Postgres",
    ]);
  });
});
