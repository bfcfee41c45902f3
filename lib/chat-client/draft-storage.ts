// The composer's draft per workstream, kept in localStorage so that it survives a failed send
// and a reload. Storage can be missing or full (private windows, quotas): the draft then lives
// only in the page, and the reason is logged.

export type DraftStorage = Pick<Storage, "getItem" | "setItem" | "removeItem">;

export function draftKey(workstreamId: string): string {
  return `workstreams:draft:${workstreamId}`;
}

export function browserStorage(): DraftStorage | null {
  try {
    return typeof window === "undefined" ? null : window.localStorage;
  } catch (error) {
    console.warn("[chat] drafts are not kept: localStorage is unavailable.", error);
    return null;
  }
}

export type DraftStore = {
  load(): string;
  save(text: string): void;
  clear(): void;
};

export function createDraftStore(storage: DraftStorage | null, workstreamId: string): DraftStore {
  const key = draftKey(workstreamId);
  const attempt = (what: string, action: () => void) => {
    try {
      action();
    } catch (error) {
      console.warn(`[chat] could not ${what} the draft:`, error);
    }
  };
  return {
    load() {
      let text = "";
      attempt("read", () => {
        text = storage?.getItem(key) ?? "";
      });
      return text;
    },
    save(text) {
      attempt("save", () => {
        if (text.trim()) storage?.setItem(key, text);
        else storage?.removeItem(key);
      });
    },
    clear() {
      attempt("clear", () => storage?.removeItem(key));
    },
  };
}
