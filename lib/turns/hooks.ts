// The hook registry: transform, guard and observer hooks attach to each stage of the turn. A
// stage has a pre point (guards first, a deny wins; then transforms in registration order, whose
// result the stage uses) and a post point (observers, who see what the stage acted on and can
// never change or break the turn). The extension points `resolveAgent` and
// `buildExtraInstructionSections` are entries of the same registry.
import type { ModelMessage, UIMessageChunk } from "ai";
import type { ResolvedAgent } from "@/lib/agents/resolve-agent";
import { processSingleton } from "@/lib/kernel/singleton";
import type { OfferedSkill } from "@/lib/skills/store";
import type { WorkstreamRow } from "@/lib/workstreams/queries";
import type { Stage } from "./bus";
import type { WorkstreamMessage } from "./messages";

export type StagePayloads = {
  RECEIVE_INPUT: { message: WorkstreamMessage };
  COMPOSE_REQUEST: { instructions: string; messages: ModelMessage[] };
  /** The request as it goes to the model; a transform may rewrite instructions and messages. */
  SEND_REQUEST: {
    modelId: string;
    provider: string;
    instructions: string;
    messages: ModelMessage[];
  };
  STREAM_RESPONSE: { chunk: UIMessageChunk };
  /** At the post point `output` holds what the tool returned (absent when it threw). */
  TOOL_CALL: { toolName: string; toolCallId: string; input: unknown; output?: unknown };
  RENDER: { message: WorkstreamMessage | null };
};

export type HookContext = {
  turnId: string;
  workstreamId: string;
  organizationId: string;
  userId: string | null;
};

export type GuardVerdict = { allow: true } | { allow: false; reason: string };

type StageHook<S extends Stage> =
  | {
      kind: "transform";
      stage: S;
      name: string;
      run: (
        payload: StagePayloads[S],
        ctx: HookContext,
      ) => StagePayloads[S] | Promise<StagePayloads[S]>;
    }
  | {
      kind: "guard";
      stage: S;
      name: string;
      run: (payload: StagePayloads[S], ctx: HookContext) => GuardVerdict | Promise<GuardVerdict>;
    }
  | {
      kind: "observer";
      stage: S;
      name: string;
      run: (payload: StagePayloads[S], ctx: HookContext) => void | Promise<void>;
    };

export type AnyStageHook = { [S in Stage]: StageHook<S> }[Stage];

export type ResolveAgentHook = {
  kind: "resolveAgent";
  name: string;
  run: (input: {
    workstream: WorkstreamRow;
    /**
     * The turn being resolved, the user message it answers, and how many skills its member's
     * agents are offered (read by COMPOSE_REQUEST).
     */
    turn: { id: string; userMessageId: string; offeredSkills: number };
    resolved: ResolvedAgent;
  }) => ResolvedAgent | Promise<ResolvedAgent>;
};

export type InstructionSectionHook = {
  kind: "buildExtraInstructionSections";
  name: string;
  run: (input: {
    workstream: WorkstreamRow;
    latestUserText: string;
    /** The member the turn is for, as their session names them. */
    member: { userName: string; role: string; organizationName: string };
    /** The skills the member's agents are offered (read by COMPOSE_REQUEST). */
    skills: OfferedSkill[];
  }) => string | null | Promise<string | null>;
};

export type Hook = AnyStageHook | ResolveAgentHook | InstructionSectionHook;

export class GuardRefusal extends Error {
  constructor(
    readonly stage: Stage,
    readonly hook: string,
    readonly reason: string,
  ) {
    super(`Refused at ${stage} by ${hook}: ${reason}`);
    this.name = "GuardRefusal";
  }
}

const hooks = processSingleton<Hook[]>("hooks", () => []);

export function registerHook(hook: Hook): () => void {
  hooks.push(hook);
  return () => {
    const index = hooks.indexOf(hook);
    if (index >= 0) hooks.splice(index, 1);
  };
}

export function hooksOf<K extends Hook["kind"]>(kind: K): Array<Extract<Hook, { kind: K }>> {
  return hooks.filter((hook): hook is Extract<Hook, { kind: K }> => hook.kind === kind);
}

export function hasStageHooks(stage: Stage): boolean {
  return hooks.some((hook) => "stage" in hook && hook.stage === stage);
}

function hooksFor<S extends Stage>(stage: S): StageHook<S>[] {
  return hooks.filter(
    (hook) => "stage" in hook && hook.stage === stage,
  ) as unknown as StageHook<S>[];
}

/** A stage's pre point: its guards (a deny wins), then its transforms, whose result is used. */
export async function beforeStage<S extends Stage>(
  stage: S,
  payload: StagePayloads[S],
  ctx: HookContext,
): Promise<StagePayloads[S]> {
  const forStage = hooksFor(stage);
  if (forStage.length === 0) return payload;
  for (const hook of forStage) {
    if (hook.kind !== "guard") continue;
    const verdict = await hook.run(payload, ctx);
    if (!verdict.allow) throw new GuardRefusal(stage, hook.name, verdict.reason);
  }
  let current = payload;
  for (const hook of forStage) {
    if (hook.kind === "transform") current = await hook.run(current, ctx);
  }
  return current;
}

/** A stage's post point: its observers, whose failures are logged and go no further. */
export async function afterStage<S extends Stage>(
  stage: S,
  payload: StagePayloads[S],
  ctx: HookContext,
): Promise<void> {
  for (const hook of hooksFor(stage)) {
    if (hook.kind !== "observer") continue;
    try {
      await hook.run(payload, ctx);
    } catch (error) {
      console.error(`[hooks] observer ${hook.name} at ${stage} failed:`, error);
    }
  }
}

/** Both points around a payload the stage acts on at once (a chunk, a message). */
export async function runStageHooks<S extends Stage>(
  stage: S,
  payload: StagePayloads[S],
  ctx: HookContext,
): Promise<StagePayloads[S]> {
  const current = await beforeStage(stage, payload, ctx);
  await afterStage(stage, current, ctx);
  return current;
}
