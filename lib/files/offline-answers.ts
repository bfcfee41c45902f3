/**
 * The files' offline answers, registered with the offline model by root/offline-answers.ts: an
 * answer opens by describing the files a message carries by name, type and size (the offline
 * model cannot look inside an image), and read_attachment's result is quoted (a member asks for
 * a read with `[tool:read_attachment:{"fileId":"…"}]`). The files are
 * known from the prompt's file parts and from the upload metadata the context lists
 * (`- NAME (TYPE, SIZE[, N pages]) id file_…: note`).
 */
import { z } from "zod";

type ListedUpload = { name: string; label: string; id: string };

const LINE = /^- (?<name>.+?) \((?<label>[^()]*)\) id (?<id>file_[a-f0-9]+):/;

/** The uploads listed in the system text's upload metadata. */
function listedUploads(system: string): ListedUpload[] {
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

/** "You attached report.pdf (PDF, 12.3 KB, 2 pages) and photo.png (PNG image, 3.1 KB)." */
function describeAttached(
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
export function reportReadAttachment(value: unknown): string | undefined {
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

/** The aside an answer opens with when the member's message carries files. */
export function attachedAside(input: {
  system: string;
  files: ReadonlyArray<{ filename?: string; mediaType: string }>;
}): string | undefined {
  return input.files.length
    ? describeAttached(input.files, listedUploads(input.system))
    : undefined;
}
