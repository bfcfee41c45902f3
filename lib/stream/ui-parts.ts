// The chat's one message type, shared by the server that writes the stream and the browser that
// reads it: the message metadata and every data part as zod schemas (useChat validates what
// arrives against them), the turn's status vocabulary derived from its schema, and the tools
// typed from the server's definitions. Plain zod and types only: the browser loads this module.
import type { DynamicToolUIPart, InferUITool, InferUITools, Tool, ToolUIPart, UIMessage } from "ai";
import { z } from "zod";
import type { consultSpecialistTool } from "@/lib/agents/specialists";
import type { TOOLS } from "@/lib/agents/tools";
import type { readAttachmentTool } from "@/lib/files/read-tool";
import type {
  addMemoryNoteTool,
  recallTool,
  rememberTool,
  searchHistoryTool,
} from "@/lib/memory/tools";
import type { useSkillTool } from "@/lib/skills/tools";
import type { updatePlanTool, updateWorkstreamStateTool } from "@/lib/state/tools";
import type { completeOnboardingTool } from "@/lib/workstreams/onboarding-tool";
import type { sendMessageTool } from "@/lib/workstreams/send-message";

export const messageMetadataSchema = z.object({
  agentId: z.string().optional(),
  turnId: z.string().optional(),
  model: z.string().optional(),
  reasoningProfile: z.string().optional(),
  /** Null when the provider reported no counts (unknown, shown as "—"). */
  inputTokens: z.number().nullable().optional(),
  outputTokens: z.number().nullable().optional(),
  reasoningTokens: z.number().optional(),
  /** Null when the usage or the model's price is unknown. */
  costUsd: z.number().nullable().optional(),
  startedAt: z.string().optional(),
  finishedAt: z.string().optional(),
  stopped: z.boolean().optional(),
  failed: z.boolean().optional(),
  /** A message another workstream sent here (send_message): where it came from, and when. */
  relayedFrom: z
    .object({ workstreamId: z.string(), title: z.string(), agentId: z.string() })
    .optional(),
  sentAt: z.string().optional(),
});

export type MessageMetadata = z.infer<typeof messageMetadataSchema>;

/** One status of a turn as its event log carries it (`data-status`, transient). */
export const turnStatusSchema = z.discriminatedUnion("state", [
  z.object({ state: z.literal("acknowledged") }),
  z.object({ state: z.literal("processing"), stage: z.string() }),
  z.object({ state: z.literal("preamble"), text: z.string() }),
  z.object({ state: z.literal("tool"), toolName: z.string() }),
  z.object({ state: z.literal("suspended"), reason: z.string() }),
  z.object({ state: z.literal("ready") }),
  /** Something went wrong that the turn goes on without (not terminal). */
  z.object({
    state: z.literal("warning"),
    code: z.literal("retrieval:failed"),
    message: z.string(),
  }),
  z.object({
    state: z.literal("error"),
    code: z.string(),
    /** The sentence of `code`, never an exception's text. */
    message: z.string(),
    retryable: z.boolean(),
    /** For a provider failure: its HTTP status and error type, nothing of its body. */
    providerStatus: z.number().optional(),
    providerErrorType: z.string().optional(),
    /** For a guard refusal: the hook's name (ours), not its reason. */
    hook: z.string().optional(),
  }),
  z.object({ state: z.literal("cancelled"), reason: z.string() }),
]);

export type TurnStatus = z.infer<typeof turnStatusSchema>;

export const statusDataSchema = z.intersection(turnStatusSchema, z.object({ turnId: z.string() }));

/** The nested part a specialist's consultation streams into the lead's message. */
export const specialistDataSchema = z.object({
  agentId: z.string(),
  name: z.string(),
  question: z.string(),
  text: z.string(),
  status: z.enum(["working", "done", "stopped", "failed"]),
  /** Model calls the specialist made (they count toward the turn's step bound). */
  steps: z.number(),
});

export const dataPartSchemas = {
  status: statusDataSchema,
  specialist: specialistDataSchema,
};

export type ChatDataParts = {
  [K in keyof typeof dataPartSchemas]: z.infer<(typeof dataPartSchemas)[K]>;
};

type UIToolOf<Factory extends (...args: never[]) => Tool> = InferUITool<ReturnType<Factory>>;

/**
 * Every tool an agent may be given, typed from the server's own definitions: the plain tools, and
 * the scoped ones each domain builds per turn. A tool part's input and output are what the tool
 * declares; the browser imports only these types.
 */
export type ChatTools = InferUITools<typeof TOOLS> & {
  consult_specialist: UIToolOf<typeof consultSpecialistTool>;
  read_attachment: UIToolOf<typeof readAttachmentTool>;
  add_memory_note: UIToolOf<typeof addMemoryNoteTool>;
  remember: UIToolOf<typeof rememberTool>;
  recall: UIToolOf<typeof recallTool>;
  search_history: UIToolOf<typeof searchHistoryTool>;
  use_skill: UIToolOf<typeof useSkillTool>;
  update_workstream_state: UIToolOf<typeof updateWorkstreamStateTool>;
  update_plan: UIToolOf<typeof updatePlanTool>;
  complete_onboarding: UIToolOf<typeof completeOnboardingTool>;
  send_message: UIToolOf<typeof sendMessageTool>;
};

export type ChatMessage = UIMessage<MessageMetadata, ChatDataParts, ChatTools>;

/** A tool call in a message: one of the agents' tools, or one no longer declared (dynamic). */
export type ChatToolPart = ToolUIPart<ChatTools> | DynamicToolUIPart;

/**
 * What a call the organization's policy forbids returns instead of running, whichever tool it
 * was: the member's UI shows it as refused, the model reads it as a denial.
 */
export const forbiddenOutputSchema = z.object({ denied: z.literal(true), reason: z.string() });

export type ForbiddenOutput = z.infer<typeof forbiddenOutputSchema>;
