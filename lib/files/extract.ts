// The text of an attachment, for read_attachment: PDF through unpdf (PDF.js), DOCX through
// mammoth, CSV, JSON, Markdown and plain text as they are. Images have no text to read.
import "server-only";
import { readFile } from "node:fs/promises";
import mammoth from "mammoth";
import { extractText, getDocumentProxy } from "unpdf";
import { DOCX_TYPE } from "./labels";

/** PDFs larger than this get their pages estimated rather than parsed at upload. */
const PAGE_COUNT_MAX_BYTES = 8 * 1024 * 1024;
/** The estimate for those: a page of a large PDF is mostly images, about this many bytes. */
const BYTES_PER_ESTIMATED_PAGE = 100 * 1024;

/** The page count of the PDF at `path` (the context counts PDFs by their pages). */
export async function pdfPageCount(path: string, size: number): Promise<number> {
  if (size > PAGE_COUNT_MAX_BYTES) return Math.max(1, Math.round(size / BYTES_PER_ESTIMATED_PAGE));
  try {
    const pdf = await getDocumentProxy(new Uint8Array(await readFile(path)));
    return pdf.numPages;
  } catch {
    // A PDF that PDF.js cannot open still counts as one page; read_attachment will say so.
    return 1;
  }
}

export type ExtractedText =
  | { kind: "text"; text: string; pages?: number }
  | { kind: "none"; reason: string };

export async function extractFileText(
  bytes: Uint8Array,
  mediaType: string,
): Promise<ExtractedText> {
  if (mediaType === "application/pdf") {
    let result: { totalPages: number; text: string };
    try {
      result = await extractText(await getDocumentProxy(bytes), { mergePages: true });
    } catch {
      return { kind: "none", reason: "The PDF could not be opened." };
    }
    const text = result.text.trim();
    if (!text) {
      return {
        kind: "none",
        reason: `The PDF has ${result.totalPages} page(s) but no text layer: it is probably scanned, so there is no text to read.`,
      };
    }
    return { kind: "text", text, pages: result.totalPages };
  }
  if (mediaType === DOCX_TYPE) {
    try {
      const { value } = await mammoth.extractRawText({ buffer: Buffer.from(bytes) });
      return value.trim()
        ? { kind: "text", text: value.trim() }
        : { kind: "none", reason: "The document has no text." };
    } catch {
      return { kind: "none", reason: "The Word document could not be opened." };
    }
  }
  if (mediaType.startsWith("text/") || mediaType === "application/json") {
    return { kind: "text", text: new TextDecoder().decode(bytes) };
  }
  return { kind: "none", reason: "This file is an image: it has no text to read." };
}
