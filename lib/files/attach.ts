// Files in a sent message. A file part names an upload of the same workstream by id
// (`url: "file:<fileId>"`); any other URL is refused, and the type and name are taken from the
// upload's row rather than from the client. Messages are stored this way, so a persisted message
// never holds a signed URL: those are made fresh for every turn (./resolve.ts).
import "server-only";
import { AppError } from "@/lib/kernel/errors";
import { workstreamFiles } from "./records";

export const FILE_URL_PREFIX = "file:";
const FILE_URL = /^file:(file_[a-f0-9]{32})$/;

export type FilePart = { type: "file"; mediaType: string; filename?: string; url: string };

export function fileIdOf(url: string): string | null {
  return FILE_URL.exec(url)?.[1] ?? null;
}

/** The file ids a message's parts name (unknown URLs are not ids). */
export function fileIdsOf(parts: ReadonlyArray<{ type: string; url?: string }>): string[] {
  return parts.flatMap((part) => {
    const id = part.type === "file" && part.url ? fileIdOf(part.url) : null;
    return id ? [id] : [];
  });
}

/**
 * The message's file parts checked against the workstream's uploads and rewritten from them;
 * 400 for a URL that is not `file:<id>`, 404 for an id this workstream does not hold.
 */
export async function attachableParts<P extends { type: string }>(
  workstreamId: string,
  parts: ReadonlyArray<P | FilePart>,
): Promise<Array<P | FilePart>> {
  const wanted: string[] = [];
  for (const part of parts) {
    if (part.type !== "file") continue;
    const id = fileIdOf((part as FilePart).url);
    if (!id) throw new AppError("bad_request:file_part");
    wanted.push(id);
  }
  if (!wanted.length) return [...parts];
  const rows = new Map((await workstreamFiles(workstreamId, wanted)).map((row) => [row.id, row]));
  return parts.map((part) => {
    if (part.type !== "file") return part;
    const id = fileIdOf((part as FilePart).url) ?? "";
    const row = rows.get(id);
    if (!row) throw new AppError("not_found:file");
    return {
      type: "file",
      mediaType: row.mediaType,
      filename: row.name,
      url: `${FILE_URL_PREFIX}${id}`,
    };
  });
}
