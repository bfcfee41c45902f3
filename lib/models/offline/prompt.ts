/**
 * Reads a LanguageModelV4 prompt for the offline model: the system text, the last user message and
 * its files, pending tool results, whether the "I'm the offline model" note was already given,
 * and one digest line per message (for hashing and token counting).
 */
import type {
  LanguageModelV4Message,
  LanguageModelV4Prompt,
  LanguageModelV4ToolResultOutput,
  LanguageModelV4ToolResultPart,
} from "@ai-sdk/provider";

const OFFLINE_NOTE_MARKER = /\boffline model\b/i;

/** Stable JSON-ish text for any value (never throws on cycles or bigint). */
export function safeStringify(value: unknown): string {
  try {
    return JSON.stringify(value) ?? String(value);
  } catch (error) {
    return `[unserializable: ${error instanceof Error ? error.message : String(error)}]`;
  }
}

/** Plain-text rendering of a tool result output. */
export function toolOutputText(output: LanguageModelV4ToolResultOutput): string {
  if (output.type === "text" || output.type === "error-text") return output.value;
  if (output.type === "json" || output.type === "error-json") return safeStringify(output.value);
  if (output.type === "execution-denied") return output.reason ?? "execution denied";
  return output.value
    .map((part) => (part.type === "text" ? part.text : `[${part.type}]`))
    .join("\n");
}

type Part = Exclude<LanguageModelV4Message["content"], string>[number];

function partText(part: Part): string {
  if (part.type === "text" || part.type === "reasoning") return part.text;
  if (part.type === "file")
    return `[file ${part.mediaType}${part.filename ? ` ${part.filename}` : ""}]`;
  if (part.type === "tool-call") return `tool-call ${part.toolName} ${safeStringify(part.input)}`;
  if (part.type === "tool-result")
    return `tool-result ${part.toolName} ${toolOutputText(part.output)}`;
  if (part.type === "tool-approval-response")
    return `tool-approval ${part.approved ? "approved" : "denied"}`;
  return `[${part.type}]`;
}

export function readPrompt(prompt: LanguageModelV4Prompt) {
  const view = {
    /** All system messages, joined. */
    system: "",
    /** The last user message's text parts, joined by newlines, and its files. */
    lastUserText: "",
    lastUserFiles: [] as Array<{ filename?: string; mediaType: string }>,
    /** Tool results in the final message, when the prompt ends with a tool message. */
    pendingToolResults: [] as LanguageModelV4ToolResultPart[],
    offlineNoteGiven: false,
    /** One line of text per message (role + content). */
    messageDigests: [] as string[],
    /** Number of file parts (images, documents) in the prompt. */
    fileCount: 0,
  };
  for (const message of prompt) {
    if (message.role === "system") {
      view.system += `${view.system ? "\n\n" : ""}${message.content}`;
      view.messageDigests.push(`system: ${message.content}`);
      continue;
    }
    const parts: Part[] = message.content;
    const text = parts.map(partText).join("\n");
    view.messageDigests.push(`${message.role}: ${text}`);
    const files = parts.flatMap((part) => (part.type === "file" ? [part] : []));
    view.fileCount += files.length;
    if (message.role === "assistant" && OFFLINE_NOTE_MARKER.test(text))
      view.offlineNoteGiven = true;
    if (message.role === "user") {
      view.lastUserText = parts
        .flatMap((part) => (part.type === "text" ? [part.text] : []))
        .join("\n");
      view.lastUserFiles = files.map(({ filename, mediaType }) => ({ filename, mediaType }));
    }
  }
  const last = prompt.at(-1);
  if (last?.role === "tool") {
    view.pendingToolResults = last.content.filter(
      (part): part is LanguageModelV4ToolResultPart => part.type === "tool-result",
    );
  }
  return view;
}
