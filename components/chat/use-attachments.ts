"use client";
// The files waiting in the composer: each uploads as soon as it is picked, dropped or pasted,
// with its progress; a chip can be removed before sending (its upload is aborted, or the
// uploaded file removed). What is sent is the list of uploaded files; like the draft's text, they
// are held until the server takes the message, and a refused message gets its chips back.
import { useCallback, useEffect, useRef, useState } from "react";
import {
  filePath,
  type UploadedFile,
  type UploadHandle,
  uploadFailureText,
  uploadFile,
} from "@/lib/chat-client/upload";

export type PendingAttachment = {
  key: string;
  name: string;
  size: number;
  /** What the browser says it is: enough to pick an icon until the server has decided. */
  type: string;
  progress: number;
  state: "uploading" | "ready" | "failed";
  uploaded?: UploadedFile;
  error?: string;
  /** A local preview of an image, revoked when the chip goes. */
  preview?: string;
};

export function useAttachments(workstreamId: string) {
  const [items, setItems] = useState<PendingAttachment[]>([]);
  const handles = useRef(new Map<string, UploadHandle>());
  const latest = useRef(items);
  latest.current = items;

  const update = useCallback((key: string, change: Partial<PendingAttachment>) => {
    setItems((current) =>
      current.map((item) => (item.key === key ? { ...item, ...change } : item)),
    );
  }, []);

  const add = useCallback(
    (files: Iterable<File>) => {
      const added: PendingAttachment[] = [];
      for (const file of files) {
        const key = `att_${Math.random().toString(36).slice(2)}`;
        added.push({
          key,
          name: file.name || "pasted file",
          size: file.size,
          type: file.type,
          progress: 0,
          state: "uploading",
          preview: file.type.startsWith("image/") ? URL.createObjectURL(file) : undefined,
        });
        const handle = uploadFile(workstreamId, file, (progress) => update(key, { progress }));
        handles.current.set(key, handle);
        handle.done
          .then((uploaded) => update(key, { state: "ready", uploaded, progress: 1 }))
          .catch((error: unknown) => {
            if ((error as { code?: string }).code === "client:aborted") return;
            update(key, { state: "failed", error: uploadFailureText(error) });
          })
          .finally(() => handles.current.delete(key));
      }
      if (added.length) setItems((current) => [...current, ...added]);
    },
    [workstreamId, update],
  );

  const remove = useCallback(
    (key: string) => {
      handles.current.get(key)?.abort();
      const item = latest.current.find((candidate) => candidate.key === key);
      if (item?.preview) URL.revokeObjectURL(item.preview);
      if (item?.uploaded) {
        // Not sent, so not kept: the server would sweep it after a day anyway.
        void fetch(filePath(workstreamId, item.uploaded.id), { method: "DELETE" }).catch(() => {});
      }
      setItems((current) => current.filter((candidate) => candidate.key !== key));
    },
    [workstreamId],
  );

  // The chips of the message on its way to the server (one send at a time).
  const held = useRef<PendingAttachment[]>([]);

  /** Hands the uploaded files over for sending and empties the tray; the chips are held. */
  const take = useCallback((): UploadedFile[] => {
    const sent = items.filter((item) => item.uploaded);
    for (const item of items) if (!item.uploaded && item.preview) URL.revokeObjectURL(item.preview);
    held.current = sent;
    setItems([]);
    return sent.flatMap((item) => (item.uploaded ? [item.uploaded] : []));
  }, [items]);

  /** The server took the message: its chips are gone for good. */
  const accepted = useCallback(() => {
    for (const item of held.current) if (item.preview) URL.revokeObjectURL(item.preview);
    held.current = [];
  }, []);

  /** The server refused the message: its chips come back, ahead of any added since. */
  const refused = useCallback(() => {
    const back = held.current;
    held.current = [];
    if (back.length) setItems((current) => [...back, ...current]);
  }, []);

  useEffect(() => {
    const current = handles.current;
    return () => {
      for (const handle of current.values()) handle.abort();
    };
  }, []);

  return {
    items,
    add,
    remove,
    take,
    accepted,
    refused,
    uploading: items.some((item) => item.state === "uploading"),
    ready: items.filter((item) => item.state === "ready").length,
  };
}

export type Attachments = ReturnType<typeof useAttachments>;
