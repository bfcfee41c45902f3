// What a file is, decided from its bytes, never from the name or type the browser sent. Binary
// types we take (images, PDF, DOCX) are recognized by `file-type`, and the name's extension must
// agree; with no verdict a file is text only if it is valid UTF-8 without a NUL byte, and then its
// extension decides (JSON must also parse). Everything else is refused with what was detected.
import "server-only";
import { readFile } from "node:fs/promises";
import { fileTypeFromFile } from "file-type";
import { DOCX_TYPE as DOCX } from "./labels";

/** The binary types we take, with the extensions a name of that type may end in. */
const BINARY: Record<string, readonly string[]> = {
  "image/png": ["png"],
  "image/jpeg": ["jpg", "jpeg"],
  "image/gif": ["gif"],
  "image/webp": ["webp"],
  "application/pdf": ["pdf"],
  [DOCX]: ["docx"],
};

const TEXT: Record<string, string> = {
  md: "text/markdown",
  csv: "text/csv",
  json: "application/json",
  txt: "text/plain",
};

export type Sniffed = { ok: true; mediaType: string } | { ok: false; detected: string };

export function extensionOf(name: string): string {
  const dot = name.lastIndexOf(".");
  return dot > 0 ? name.slice(dot + 1).toLowerCase() : "";
}

/**
 * Decides the type of the complete upload at `path`. `text` says whether the bytes were valid
 * UTF-8 without NUL (checked while they streamed in).
 */
export async function sniffFile(path: string, name: string, text: boolean): Promise<Sniffed> {
  const extension = extensionOf(name);
  const verdict = await fileTypeFromFile(path);
  if (verdict) {
    const extensions = BINARY[verdict.mime];
    if (!extensions) return { ok: false, detected: verdict.mime };
    if (!extensions.includes(extension)) {
      return { ok: false, detected: `${verdict.mime} named .${extension || "(none)"}` };
    }
    return { ok: true, mediaType: verdict.mime };
  }
  if (!text) return { ok: false, detected: "unknown binary" };
  const mediaType = TEXT[extension];
  if (!mediaType) return { ok: false, detected: `text named .${extension || "(none)"}` };
  if (extension === "json") {
    try {
      JSON.parse(await readFile(path, "utf8"));
    } catch {
      return { ok: false, detected: "text that is not valid JSON" };
    }
  }
  return { ok: true, mediaType };
}
