// What the file routes do: upload into a workstream, hand out a short-lived signed URL for
// viewing or downloading, remove an upload no message carries, and serve the local store's bytes
// to a request whose signature checks out. The routes hand in the workstream they found the
// viewer owns (lib/workstreams/queries.ts), so files read no workstream rows of their own.
import "server-only";
import { Readable } from "node:stream";
import type { Viewer } from "@/lib/auth/viewer";
import { config } from "@/lib/config";
import { AppError } from "@/lib/kernel/errors";
import type { WorkstreamMessage } from "@/lib/turns/messages";
import type { WorkstreamRow } from "@/lib/workstreams/queries";
import { attachableParts, fileIdsOf } from "./attach";
import {
  deleteUnattached,
  type FileSummary,
  getFileById,
  getWorkstreamFile,
  markAttached,
} from "./records";
import { checkSignature } from "./signing";
import { contentDisposition } from "./storage";
import { getFileStore } from "./store-instance";
import { receiveUpload } from "./upload";

/** The workstream a route found its viewer owns. */
type OwnedWorkstream = Pick<WorkstreamRow, "id" | "organizationId" | "status">;

export async function uploadFile({
  viewer,
  workstream,
  request,
}: {
  viewer: Viewer;
  workstream: OwnedWorkstream;
  request: Request;
}): Promise<FileSummary> {
  if (workstream.status === "archived") throw new AppError("conflict:archived");
  return receiveUpload({
    request,
    organizationId: workstream.organizationId,
    workstreamId: workstream.id,
    ownerId: viewer.userId,
  });
}

/** A signed URL the browser follows to see or download the file (valid a few minutes). */
export async function fileViewUrl({
  workstream,
  fileId,
  download,
}: {
  workstream: OwnedWorkstream;
  fileId: string;
  download: boolean;
}): Promise<string> {
  const row = await getWorkstreamFile({ workstreamId: workstream.id, fileId });
  return getFileStore().signedUrl(row.storageKey, {
    ttlMs: config.files.viewUrlTtlMs,
    mediaType: row.mediaType,
    filename: row.name,
    download,
  });
}

export async function removeUpload({
  workstream,
  fileId,
}: {
  workstream: OwnedWorkstream;
  fileId: string;
}): Promise<{ id: string }> {
  const row = await deleteUnattached(workstream.id, fileId);
  await getFileStore()
    .remove(row.storageKey)
    .catch((error: unknown) => console.error("[files] removing an upload's object failed:", error));
  return { id: row.id };
}

export type ServedFile = { body: ReadableStream<Uint8Array>; headers: Record<string, string> };

/** The bytes behind a local signed URL: 403 for a bad or expired signature, 404 for no file. */
export async function serveSignedFile(
  fileId: string,
  query: { exp: number; dl: boolean; sig: string },
): Promise<ServedFile> {
  const check = checkSignature(fileId, query);
  if (check === "invalid") throw new AppError("forbidden:url_signature");
  if (check === "expired") throw new AppError("forbidden:url_expired");
  const row = await getFileById(fileId);
  const stream =
    row && getFileStore().kind === "local" ? await getFileStore().read(row.storageKey) : null;
  if (!row || !stream) throw new AppError("not_found:file");
  const maxAge = Math.max(0, query.exp - Math.floor(Date.now() / 1000));
  return {
    body: Readable.toWeb(stream as Readable) as ReadableStream<Uint8Array>,
    headers: {
      "content-type": row.mediaType,
      "content-length": String(row.size),
      "content-disposition": contentDisposition(row.name, query.dl),
      // The bytes are never run as a page of this site, whatever they contain.
      "x-content-type-options": "nosniff",
      "content-security-policy": "default-src 'none'; style-src 'unsafe-inline'; sandbox",
      "cache-control": `private, max-age=${maxAge}`,
    },
  };
}

/**
 * The message to send with its file parts checked and rewritten from the uploads: 400 for too
 * many, 400/404 for a file part that names no upload here.
 */
export async function messageWithFiles({
  workstream,
  message,
}: {
  workstream: OwnedWorkstream;
  message: WorkstreamMessage;
}): Promise<WorkstreamMessage> {
  if (!message.parts.some((part) => part.type === "file")) return message;
  if (message.parts.filter((part) => part.type === "file").length > config.files.maxPerMessage) {
    throw new AppError("bad_request:file_part", { details: { max: config.files.maxPerMessage } });
  }
  const parts = await attachableParts(workstream.id, message.parts);
  return { ...message, parts: parts as WorkstreamMessage["parts"] };
}

/** After the message is kept: its files count as attached (the sweep leaves them alone). */
export async function filesSent(
  workstreamId: string,
  message: { parts: ReadonlyArray<{ type: string; url?: string }> },
): Promise<void> {
  await markAttached(workstreamId, fileIdsOf(message.parts));
}
