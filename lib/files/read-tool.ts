// read_attachment: the text of a file attached in this workstream, a page of characters at a
// time, so a long document does not flood the context. Registered by root/wiring.ts; every
// agent has it (lib/config.ts).
import "server-only";
import { tool } from "ai";
import { z } from "zod";
import { registerScopedTool, type ToolScope } from "@/lib/agents/tools";
import { config } from "@/lib/config";
import { isAppError } from "@/lib/kernel/errors";
import { strictSchema } from "@/lib/models/strict-schema";
import { extractFileText } from "./extract";
import { getWorkstreamFile } from "./records";
import { getFileStore } from "./store-instance";

export async function readStoredBytes(key: string): Promise<Uint8Array | null> {
  const stream = await getFileStore().read(key);
  if (!stream) return null;
  const chunks: Buffer[] = [];
  for await (const chunk of stream as AsyncIterable<Buffer | string>) {
    chunks.push(typeof chunk === "string" ? Buffer.from(chunk) : chunk);
  }
  return new Uint8Array(Buffer.concat(chunks));
}

export type ReadAttachmentResult =
  | {
      fileId: string;
      name: string;
      mediaType: string;
      page: number;
      pages: number;
      text: string;
    }
  | { fileId: string; name?: string; error: string };

export async function readAttachment({
  workstreamId,
  fileId,
  page = 1,
}: {
  workstreamId: string;
  fileId: string;
  page?: number;
}): Promise<ReadAttachmentResult> {
  let row: Awaited<ReturnType<typeof getWorkstreamFile>>;
  try {
    row = await getWorkstreamFile({ workstreamId, fileId });
  } catch (error) {
    if (isAppError(error))
      return { fileId, error: "There is no such attachment in this workstream." };
    throw error;
  }
  const bytes = await readStoredBytes(row.storageKey);
  if (!bytes) return { fileId, name: row.name, error: "The file is no longer stored." };
  const extracted = await extractFileText(bytes, row.mediaType);
  if (extracted.kind === "none") return { fileId, name: row.name, error: extracted.reason };
  const size = config.files.readPageChars;
  const pages = Math.max(1, Math.ceil(extracted.text.length / size));
  if (page > pages) {
    return {
      fileId,
      name: row.name,
      error: `The text has ${pages} page(s); ask for 1 to ${pages}.`,
    };
  }
  return {
    fileId,
    name: row.name,
    mediaType: row.mediaType,
    page,
    pages,
    text: extracted.text.slice((page - 1) * size, page * size),
  };
}

// Built once: the tool is bound per turn, its schema is not (see lib/agents/tools.ts).
const readAttachmentInput = strictSchema(
  z.object({
    fileId: z.string().min(1).max(100).describe('The id in <upload-metadata>, e.g. "file_8f2k1q".'),
    page: z
      .number()
      .int()
      .min(1)
      .max(10_000)
      .optional()
      .describe("Which page, e.g. 2; null for the first."),
  }),
);

/** read_attachment, bound to the owner and the turn it acts for. */
export function readAttachmentTool({ workstreamId }: ToolScope) {
  return tool({
    description:
      "Reads the text of a file attached in this workstream (PDF, Word, CSV, JSON, Markdown, " +
      `text), one page of up to ${config.files.readPageChars} characters at a time. Use it ` +
      "when the member asks about a file listed in <upload-metadata> as not attached to the " +
      "message, or for its next page; not for files attached to the message. Returns the " +
      "page, how many pages there are, and the text.",
    strict: true,
    inputSchema: readAttachmentInput,
    execute: ({ fileId, page }) => readAttachment({ workstreamId, fileId, page }),
  });
}

export function registerFileTools(): void {
  registerScopedTool("read_attachment", readAttachmentTool);
}
