// Workstream titles: one line, trimmed, at most config.workstreams.titleMaxChars characters.
import { config } from "@/lib/config";
import { AppError } from "@/lib/kernel/errors";

/** Control characters (newlines and tabs included) and whitespace runs become one space. */
export function normalizeTitle(raw: string): string {
  return raw
    .replace(/\p{Cc}/gu, " ")
    .replace(/\s+/gu, " ")
    .trim();
}

/** The normalized title, or 400 `bad_request:title` when it is empty or too long. */
export function validTitle(raw: string): string {
  const title = normalizeTitle(raw);
  const max = config.workstreams.titleMaxChars;
  if (title.length === 0) {
    throw new AppError("bad_request:title");
  }
  if ([...title].length > max) {
    throw new AppError("bad_request:title", {
      details: { maxChars: max },
    });
  }
  return title;
}
