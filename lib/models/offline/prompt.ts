/**
 * Reads a LanguageModelV4 prompt for the offline model: the last user message, earlier turns,
 * pending tool results, whether the "I'm offline" note was already given, and a stable digest
 * of the whole prompt (used for hashing and token counting).
 */
import type {
  LanguageModelV4Message,
  LanguageModelV4Prompt,
  LanguageModelV4ToolResultOutput,
  LanguageModelV4ToolResultPart,
} from "@ai-sdk/provider";

export interface PromptView {
  /** All system messages, joined. */
  system: string;
  /** Text of the last user message (text parts joined by newlines). */
  lastUserText: string;
  /** Texts of earlier user messages, oldest first. */
  previousUserTexts: string[];
  /** Tool results in the final message, when the prompt ends with a tool message. */
  pendingToolResults: LanguageModelV4ToolResultPart[];
  /** Whether an earlier assistant message already said it is the offline model. */
  offlineNoteGiven: boolean;
  /** One line of text per message (role + content), for hashing and token counting. */
  messageDigests: string[];
  /** Number of file parts (images, documents) in the prompt. */
  fileCount: number;
  /** The files the last user message carries. */
  lastUserFiles: Array<{ filename?: string; mediaType: string }>;
}

export const OFFLINE_NOTE_MARKER = /\boffline model\b/i;

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

function messageText(message: LanguageModelV4Message): string {
  if (message.role === "system") return message.content;
  const pieces: string[] = [];
  for (const part of message.content) {
    switch (part.type) {
      case "text":
      case "reasoning":
        pieces.push(part.text);
        break;
      case "file":
        pieces.push(`[file ${part.mediaType}${part.filename ? ` ${part.filename}` : ""}]`);
        break;
      case "tool-call":
        pieces.push(`tool-call ${part.toolName} ${safeStringify(part.input)}`);
        break;
      case "tool-result":
        pieces.push(`tool-result ${part.toolName} ${toolOutputText(part.output)}`);
        break;
      case "tool-approval-response":
        pieces.push(`tool-approval ${part.approved ? "approved" : "denied"}`);
        break;
      default:
        pieces.push(`[${part.type}]`);
    }
  }
  return pieces.join("\n");
}

function userText(message: LanguageModelV4Message): string {
  if (message.role !== "user") return "";
  return message.content.flatMap((part) => (part.type === "text" ? [part.text] : [])).join("\n");
}

export function readPrompt(prompt: LanguageModelV4Prompt): PromptView {
  const systemParts: string[] = [];
  const userTexts: string[] = [];
  let offlineNoteGiven = false;
  let fileCount = 0;
  const messageDigests: string[] = [];

  for (const message of prompt) {
    const text = messageText(message);
    messageDigests.push(`${message.role}: ${text}`);
    if (message.role === "system") systemParts.push(message.content);
    else if (message.role === "user") userTexts.push(userText(message));
    else if (message.role === "assistant" && OFFLINE_NOTE_MARKER.test(text)) {
      offlineNoteGiven = true;
    }
    if (message.role === "user" || message.role === "assistant") {
      fileCount += message.content.filter((part) => part.type === "file").length;
    }
  }

  const lastUser = prompt.findLast((message) => message.role === "user");
  const lastUserFiles =
    lastUser?.role === "user"
      ? lastUser.content.flatMap((part) =>
          part.type === "file" ? [{ filename: part.filename, mediaType: part.mediaType }] : [],
        )
      : [];
  const last = prompt.at(-1);
  const pendingToolResults =
    last?.role === "tool"
      ? last.content.filter(
          (part): part is LanguageModelV4ToolResultPart => part.type === "tool-result",
        )
      : [];

  return {
    system: systemParts.join("\n\n"),
    lastUserText: userTexts.at(-1) ?? "",
    previousUserTexts: userTexts.slice(0, -1),
    pendingToolResults,
    offlineNoteGiven,
    messageDigests,
    fileCount,
    lastUserFiles,
  };
}
