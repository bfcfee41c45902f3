// Before every turn: the attachments the request's history carries, resolved to their uploads
// and signed afresh (the local store's HMAC route, or an S3 presigned GET), since a stored message
// holds only `file:<id>`. What a model is sent is decided by the context builder; this module
// answers which files exist, what they cost in the window, and how to hand one to a model.
import "server-only";
import { config } from "@/lib/config";
import { acceptsFile } from "@/lib/models/catalogue";
import { fileIdsOf } from "./attach";
import { isImage } from "./labels";
import { readStoredBytes } from "./read-tool";
import { type AttachedFile, type FileRow, workstreamFiles } from "./records";
import { getFileStore } from "./store-instance";

export type TurnAttachment = {
  id: string;
  name: string;
  mediaType: string;
  size: number;
  pages: number | null;
  /** A fresh signed URL, valid for the turn. */
  url: string;
  /** Whether the turn's model takes this type of file at all. */
  accepted: boolean;
  /** What it costs in the window when sent (the documented estimate). */
  tokens: number;
};

export type TurnAttachments = {
  byId: Map<string, TurnAttachment>;
  /** What a model is given for a file: its bytes from local disk, its presigned URL from S3. */
  content(attachment: TurnAttachment): Promise<Uint8Array | URL | null>;
};

/** The window cost of sending a file: an image 1,000 tokens, a PDF 1,500 per page. */
export function attachmentTokens(file: Pick<FileRow, "mediaType" | "pages">): number {
  if (isImage(file.mediaType)) return config.files.imageTokens;
  if (file.mediaType === "application/pdf") return config.files.pdfPageTokens * (file.pages ?? 1);
  return 0;
}

export const NO_ATTACHMENTS: TurnAttachments = {
  byId: new Map(),
  content: async () => null,
};

export async function resolveAttachments({
  workstreamId,
  messages,
  modelId,
  known = [],
}: {
  workstreamId: string;
  messages: ReadonlyArray<{ parts: ReadonlyArray<{ type: string; url?: string }> }>;
  modelId: string;
  /** The workstream's files the turn read already: no statement for them. */
  known?: readonly AttachedFile[];
}): Promise<TurnAttachments> {
  const ids = [...new Set(messages.flatMap((message) => fileIdsOf(message.parts)))];
  if (!ids.length) return NO_ATTACHMENTS;
  const wanted = new Set(ids);
  const rows: AttachedFile[] = known.filter((row) => wanted.has(row.id));
  if (rows.length < wanted.size) {
    const found = new Set(rows.map((row) => row.id));
    const missing = ids.filter((id) => !found.has(id));
    rows.push(...(await workstreamFiles(workstreamId, missing)));
  }
  const store = getFileStore();
  const keys = new Map(rows.map((row) => [row.id, row.storageKey]));
  const signed = await Promise.all(
    rows.map(
      async (row): Promise<TurnAttachment> => ({
        id: row.id,
        name: row.name,
        mediaType: row.mediaType,
        size: row.size,
        pages: row.pages,
        url: await store.signedUrl(row.storageKey, {
          ttlMs: config.files.turnUrlTtlMs,
          mediaType: row.mediaType,
          filename: row.name,
        }),
        accepted: acceptsFile(modelId, row.mediaType),
        tokens: attachmentTokens(row),
      }),
    ),
  );
  // In the order the conversation first names them.
  const signedById = new Map(signed.map((attachment) => [attachment.id, attachment]));
  const byId = new Map(
    ids.flatMap((id) => {
      const found = signedById.get(id);
      return found ? [[id, found] as const] : [];
    }),
  );
  return {
    byId,
    async content(attachment) {
      if (store.kind === "s3") return new URL(attachment.url);
      const key = keys.get(attachment.id);
      return key ? readStoredBytes(key) : null;
    },
  };
}
