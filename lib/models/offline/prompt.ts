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

export type PromptView = {
  /** All system messages, joined. */
  system: string;
  /** Text of the last user message (text parts joined by newlines). */
  lastUserText: string;
  lastUserFiles: Array<{ filename?: string; mediaType: string }>;
  /** Tool results in the final message, when the prompt ends with a tool message. */
  pendingToolResults: LanguageModelV4ToolResultPart[];
  offlineNoteGiven: boolean;
  /** One line of text per message (role + content). */
  messageDigests: string[];
  /** Number of file parts (images, documents) in the prompt. */
  fileCount: number;
};

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
  switch (output.type) {
    case "text":
    case "error-text":
      return output.value;
    case "json":
    case "error-json":
      return safeStringify(output.value);
    case "execution-denied":
      return output.reason ?? "execution denied";
    case "content":
      return output.value
        .map((part) => (part.type === "text" ? part.text : `[${part.type}]`))
        .join("\n");
  }
}

function partText(part: Exclude<LanguageModelV4Message["content"], string>[number]): string {
  switch (part.type) {
    case "text":
    case "reasoning":
      return part.text;
    case "file":
      return `[file ${part.mediaType}${part.filename ? ` ${part.filename}` : ""}]`;
    case "tool-call":
      return `tool-call ${part.toolName} ${safeStringify(part.input)}`;
    case "tool-result":
      return `tool-result ${part.toolName} ${toolOutputText(part.output)}`;
    case "tool-approval-response":
      return `tool-approval ${part.approved ? "approved" : "denied"}`;
    default:
      return `[${part.type}]`;
  }
}

export function readPrompt(prompt: LanguageModelV4Prompt): PromptView {
  const view: PromptView = {
    system: "",
    lastUserText: "",
    lastUserFiles: [],
    pendingToolResults: [],
    offlineNoteGiven: false,
    messageDigests: [],
    fileCount: 0,
  };
  const systems: string[] = [];
  for (const message of prompt) {
    if (message.role === "system") {
      systems.push(message.content);
      view.messageDigests.push(`system: ${message.content}`);
      continue;
    }
    const parts = message.content as Array<Parameters<typeof partText>[0]>;
    const text = parts.map(partText).join("\n");
    view.messageDigests.push(`${message.role}: ${text}`);
    const files = parts.flatMap((part) => (part.type === "file" ? [part] : []));
    if (message.role !== "tool") view.fileCount += files.length;
    if (message.role === "assistant" && OFFLINE_NOTE_MARKER.test(text))
      view.offlineNoteGiven = true;
    if (message.role === "user") {
      view.lastUserText = parts
        .flatMap((part) => (part.type === "text" ? [part.text] : []))
        .join("\n");
      view.lastUserFiles = files.map(({ filename, mediaType }) => ({ filename, mediaType }));
    }
  }
  view.system = systems.join("\n\n");
  const last = prompt.at(-1);
  if (last?.role === "tool") {
    view.pendingToolResults = last.content.filter(
      (part): part is LanguageModelV4ToolResultPart => part.type === "tool-result",
    );
  }
  return view;
}
