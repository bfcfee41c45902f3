"use client";
// The composer's text, mirrored to localStorage per workstream. Sending empties the box but
// keeps the stored draft until the server has accepted the message; a refused message comes
// back into the box.
import { useCallback, useEffect, useMemo, useRef, useState } from "react";
import { browserStorage, createDraftStore } from "@/lib/chat-client/draft-storage";

export function useDraft(workstreamId: string) {
  const store = useMemo(() => createDraftStore(browserStorage(), workstreamId), [workstreamId]);
  const [value, setValue] = useState("");
  const current = useRef(value);
  current.current = value;

  // Read after hydration: the server cannot know the draft.
  useEffect(() => {
    const saved = store.load();
    if (saved) setValue((text) => text || saved);
  }, [store]);

  const change = useCallback(
    (text: string) => {
      setValue(text);
      store.save(text);
    },
    [store],
  );

  /** Empties the box for a send; the stored draft stays until `accepted`. */
  const takeForSend = useCallback(() => setValue(""), []);

  const accepted = useCallback(() => store.save(current.current), [store]);

  const refused = useCallback(
    (text: string) => {
      const restored = current.current.trim() ? current.current : text;
      setValue(restored);
      store.save(restored);
    },
    [store],
  );

  return { value, change, takeForSend, accepted, refused };
}
