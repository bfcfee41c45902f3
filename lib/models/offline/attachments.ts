/**
 * What the offline model does with attachments: it describes the files a message carries by
 * name, type and size (it cannot look inside an image), and when a message mentions an attached
 * document by name it reads it with read_attachment and quotes what it found. The files are
 * known from the prompt's file parts and from the upload metadata the context lists
 * (`- NAME (TYPE, SIZE[, N pages]) id file_…: note`).
 */
import { z } from "zod";

export type ListedUpload = { name: string; label: string; id: string };

const LINE = /^- (?<name>.+?) \((?<label>[^()]*)\) id (?<id>file_[a-f0-9]+):/;

/** The uploads listed in the system text's upload metadata. */
export function listedUploads(system: string): ListedUpload[] {
  const start = system.indexOf("<upload-metadata>");
  const end = system.indexOf("</upload-metadata>");
  if (start < 0 || end < start) return [];
  return system
    .slice(start, end)
    .split("\n")
    .flatMap((line) => {
      const match = LINE.exec(line.trim());
      return match?.groups
        ? [
            {
              name: match.groups.name ?? "",
              label: match.groups.label ?? "",
              id: match.groups.id ?? "",
            },
          ]
        : [];
    });
}

function stem(name: string): string {
  const dot = name.lastIndexOf(".");
  return dot > 0 ? name.slice(0, dot) : name;
}

const READABLE = /^(PDF|Word document|Markdown|CSV|JSON|text)\b/;

/**
 * The newest listed document the message mentions by its name (or its name without the
 * extension, when that is at least four characters): the one to read. Images are not read.
 */
export function mentionedUpload(text: string, uploads: ListedUpload[]): ListedUpload | undefined {
  const lower = text.toLowerCase();
  return uploads.toReversed().find((upload) => {
    if (!READABLE.test(upload.label)) return false;
    const name = upload.name.toLowerCase();
    const short = stem(name);
    return lower.includes(name) || (short.length >= 4 && lower.includes(short));
  });
}

/** "You attached report.pdf (PDF, 12.3 KB, 2 pages) and photo.png (PNG image, 3.1 KB)." */
export function describeAttached(
  files: ReadonlyArray<{ filename?: string; mediaType: string }>,
  uploads: ListedUpload[],
): string {
  const described = files.map((file) => {
    const listed = uploads.find((upload) => upload.name === file.filename);
    const name = file.filename ?? "a file";
    return listed ? `**${name}** (${listed.label})` : `**${name}** (${file.mediaType})`;
  });
  const list =
    described.length <= 1
      ? (described[0] ?? "")
      : `${described.slice(0, -1).join(", ")} and ${described.at(-1)}`;
  return `You attached ${list}.`;
}

const readResult = z.object({
  name: z.string(),
  page: z.number(),
  pages: z.number(),
  text: z.string(),
});
const readError = z.object({ error: z.string(), name: z.string().optional() });

/** The answer after read_attachment: a quote of what the file says, or why it could not be read. */
export function summarizeReadAttachment(value: unknown): string | undefined {
  const read = readResult.safeParse(value);
  if (read.success) {
    const { name, page, pages, text } = read.data;
    const flat = text.replace(/\s+/g, " ").trim();
    const quote = flat.length > 300 ? `${flat.slice(0, 297)}…` : flat;
    const where = pages > 1 ? ` (page ${page} of ${pages})` : "";
    return `I read **${name}**${where}. It says:\n\n> ${quote}`;
  }
  const failed = readError.safeParse(value);
  if (failed.success) {
    return `I could not read ${failed.data.name ? `**${failed.data.name}**` : "that attachment"}: ${failed.data.error}`;
  }
  return undefined;
}
