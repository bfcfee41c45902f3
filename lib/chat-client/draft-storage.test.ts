import { describe, expect, it, vi } from "vitest";
import { createDraftStore, type DraftStorage, draftKey } from "./draft-storage";

function memoryStorage(): DraftStorage & { data: Map<string, string> } {
  const data = new Map<string, string>();
  return {
    data,
    getItem: (key) => data.get(key) ?? null,
    setItem: (key, value) => void data.set(key, value),
    removeItem: (key) => void data.delete(key),
  };
}

describe("createDraftStore", () => {
  it("keeps one draft per workstream", () => {
    const storage = memoryStorage();
    createDraftStore(storage, "w1").save("hello");
    createDraftStore(storage, "w2").save("other");
    expect(createDraftStore(storage, "w1").load()).toBe("hello");
    expect(storage.data.get(draftKey("w2"))).toBe("other");
  });

  it("removes the entry for a blank draft and on clear", () => {
    const storage = memoryStorage();
    const store = createDraftStore(storage, "w1");
    store.save("text");
    store.save("   ");
    expect(storage.data.size).toBe(0);
    store.save("again");
    store.clear();
    expect(store.load()).toBe("");
  });

  it("works without storage and survives a storage that throws", () => {
    expect(createDraftStore(null, "w1").load()).toBe("");
    const warn = vi.spyOn(console, "warn").mockImplementation(() => {});
    const broken: DraftStorage = {
      getItem: () => {
        throw new Error("denied");
      },
      setItem: () => {
        throw new Error("quota");
      },
      removeItem: () => {},
    };
    const store = createDraftStore(broken, "w1");
    expect(store.load()).toBe("");
    store.save("x");
    expect(warn).toHaveBeenCalledTimes(2);
    warn.mockRestore();
  });
});
