// What the memory jobs learn from conversations: a conversation slice (a completed turn's member
// message and the agent's answer), the facts a model finds in slices, and how those facts are
// written as the member's memories. A fact that is a memory the member already has (the same
// normalized text or, with embeddings, a cosine similarity of at least
// config.memory.duplicateSimilarity) reinforces that memory (importance up, the new source added)
// instead of adding a row. Used by the post-chat-memory job (onboarding turns, at once) and the
// regular digest (./digest.ts), which writes inside its cursor's transaction.
import "server-only";
import { type SQL, sql } from "drizzle-orm";
import { z } from "zod";
import { executePrepared, type Tx } from "@/db/client";
import { config } from "@/lib/config";
import { errorClass } from "@/lib/kernel/error-class";
import { extractStructured } from "@/lib/models/extract";
import { writeSlices } from "@/lib/models/slices";
import { strictSchema } from "@/lib/models/strict-schema";
import { toStorableText } from "@/lib/text/storable";
import { embedTexts, isZeroVector } from "./embedding";
import { createMemory, findSimilarMemory, normalizeMemoryText, reinforceMemory } from "./store";

/** A completed turn as the memory jobs read it: whose it is, and its two messages' text. */
export type ConversationSlice = {
  turnId: string;
  organizationId: string;
  /** The workstream's owner when the turn ran: the member whose memories it feeds. */
  userId: string;
  /** Whether that member still belongs to the organization (a removed one learns nothing). */
  isMember: boolean;
  userMessageId: string;
  member: string;
  agent: string;
  endedAt: string;
};

/** A fact found in slice number `slice` (0-based) of the batch it was extracted from. */
export type ExtractedFact = { slice: number; text: string; importance: number };

/** The text parts of a message's `parts` column, joined (tool calls and files are left out). */
export function partsText(parts: SQL): SQL {
  return sql`coalesce((select string_agg(p->>'text', E'\n') from jsonb_array_elements(${parts}) p
    where p->>'type' = 'text'), '')`;
}

/** The columns of a slice, from `turns t` with its member message `um` and answer `am`. */
export const SLICE_COLUMNS = sql`t."id" as "turn_id", t."organization_id", t."user_id",
  t."user_message_id", t."ended_at",
  exists (select 1 from "member" mb where mb."organization_id" = t."organization_id"
    and mb."user_id" = t."user_id") as "is_member",
  ${partsText(sql`um."parts"`)} as "member_text", ${partsText(sql`am."parts"`)} as "agent_text"`;

/** Joins of SLICE_COLUMNS: the turn's two messages (the answer may be missing). */
export const SLICE_JOINS = sql`join "messages" um on um."workstream_id" = t."workstream_id"
    and um."id" = t."user_message_id"
  left join "messages" am on am."workstream_id" = t."workstream_id"
    and am."id" = t."assistant_message_id"`;

export type SliceRow = {
  turn_id: string;
  organization_id: string;
  user_id: string;
  user_message_id: string;
  ended_at: Date | string;
  is_member: boolean;
  member_text: string;
  agent_text: string | null;
};

export function toSlice(row: SliceRow): ConversationSlice {
  return {
    turnId: row.turn_id,
    organizationId: row.organization_id,
    userId: row.user_id,
    isMember: Boolean(row.is_member),
    userMessageId: row.user_message_id,
    member: row.member_text,
    agent: row.agent_text ?? "",
    endedAt: new Date(row.ended_at).toISOString(),
  };
}

/** One completed turn of a member as a slice; null when it is gone or has no member. */
export async function readTurnSlice(turnId: string): Promise<ConversationSlice | null> {
  const [row] = await executePrepared<SliceRow>(sql`
    select ${SLICE_COLUMNS} from "turns" t ${SLICE_JOINS}
    where t."id" = ${turnId} and t."state" = 'completed' and t."user_id" is not null`);
  return row ? toSlice(row) : null;
}

const FACTS_INSTRUCTIONS =
  "You keep a long-term memory about a person (the member) who works with AI agents. Below are " +
  "numbered messages: the member's, and the agent's answers. List the facts and standing " +
  "preferences the MEMBER states about themselves, their work or how they want things done, " +
  "that will still matter in other conversations. Take them only from the member's messages, " +
  "as the member said them, one point each, in a full sentence. Leave out questions, requests " +
  "for this conversation, and anything the agent said. For each, give the number of the " +
  "message it comes from and an importance from 1 (trivia) to 10 (always relevant). At most " +
  `${config.memory.factsPerSlice} per message; none if there are none.`;

export const FactsOutput = strictSchema(
  z.object({
    facts: z.array(
      z.object({
        message: z.number(),
        text: z.string(),
        importance: z.number().optional(),
      }),
    ),
  }),
);

/** Kept as given when it fits a memory (1 to the text limit), else dropped. */
function factText(text: string): string | null {
  const trimmed = toStorableText(text).replace(/\s+/gu, " ").trim();
  if (!trimmed || [...trimmed].length > config.memory.textMaxChars) return null;
  return trimmed;
}

/**
 * The facts the model finds in the slices' member messages: at most factsPerSlice per slice,
 * each within the memory text limit, with an importance of 1 to 10.
 */
export async function extractFacts(
  slices: readonly Pick<ConversationSlice, "member" | "agent">[],
): Promise<ExtractedFact[]> {
  if (slices.length === 0) return [];
  const output = await extractStructured({
    task: "memory-facts",
    instructions: FACTS_INSTRUCTIONS,
    transcript: writeSlices(slices, config.memory.textMaxChars),
    schema: FactsOutput,
    maxOutputTokens: Math.min(8_000, 400 * slices.length),
  });
  const perSlice = new Map<number, number>();
  const facts: ExtractedFact[] = [];
  for (const fact of output.facts) {
    const slice = Math.trunc(fact.message) - 1;
    if (!(slice >= 0 && slice < slices.length)) continue;
    const text = factText(fact.text);
    if (!text) continue;
    const count = perSlice.get(slice) ?? 0;
    if (count >= config.memory.factsPerSlice) continue;
    perSlice.set(slice, count + 1);
    const importance = Math.round(fact.importance ?? config.memory.extractedImportance);
    facts.push({ slice, text, importance: Math.min(10, Math.max(1, importance)) });
  }
  return facts;
}

/** A fact to write as a memory of `ownerId`, learned from `source`. */
export type LearnedFact = {
  organizationId: string;
  ownerId: string;
  text: string;
  importance: number;
  source: { turnId: string; messageId: string };
};

/** How one fact is written: a new memory, or a reinforcement of one that exists or is planned. */
type Write =
  | { kind: "create"; fact: LearnedFact; embedding: number[] | null }
  | { kind: "reinforce"; fact: LearnedFact; memoryId: string; embedding: number[] | null }
  /** The same fact as write number `of` of this batch: it reinforces whatever that one wrote. */
  | { kind: "same-as"; fact: LearnedFact; of: number };

export type WritePlan = Write[];

function cosine(a: readonly number[], b: readonly number[]): number {
  let dot = 0;
  let normA = 0;
  let normB = 0;
  for (let i = 0; i < a.length; i++) {
    const x = a[i] ?? 0;
    const y = b[i] ?? 0;
    dot += x * y;
    normA += x * x;
    normB += y * y;
  }
  return normA && normB ? dot / Math.sqrt(normA * normB) : 0;
}

/**
 * Decides how each fact is written, before any write: the nearest memory of the member by
 * vector (one read per fact) and the facts of this batch that repeat each other. Without an
 * embedding model (or when it fails) only normalized text counts, which the write itself
 * checks. Reads only, so a digest can run it outside its transaction.
 */
export async function planWrites(facts: readonly LearnedFact[]): Promise<WritePlan> {
  let vectors: (number[] | null)[] = facts.map(() => null);
  try {
    const embedded = await embedTexts(facts.map((fact) => fact.text));
    if (embedded) vectors = embedded.map((vector) => (isZeroVector(vector) ? null : vector));
  } catch (error) {
    // Near duplicates then go unnoticed; equal texts are still one memory.
    console.warn(`[memory] facts are written without vectors (${errorClass(error)})`);
  }
  const threshold = config.memory.duplicateSimilarity;
  const plan: WritePlan = [];
  for (const [index, fact] of facts.entries()) {
    const vector = vectors[index] ?? null;
    const normalized = normalizeMemoryText(fact.text);
    const earlier = plan.findIndex((write, at) => {
      if (write.fact.ownerId !== fact.ownerId) return false;
      if (normalizeMemoryText(write.fact.text) === normalized) return true;
      const other = vectors[at];
      return vector !== null && other != null && cosine(vector, other) >= threshold;
    });
    if (earlier >= 0) {
      plan.push({ kind: "same-as", fact, of: earlier });
      continue;
    }
    const similar = vector
      ? await findSimilarMemory({
          owner: { organizationId: fact.organizationId, userId: fact.ownerId },
          embedding: vector,
          minSimilarity: threshold,
        })
      : null;
    plan.push(
      similar && normalizeMemoryText(similar.memory.text) !== normalized
        ? { kind: "reinforce", fact, memoryId: similar.memory.id, embedding: vector }
        : { kind: "create", fact, embedding: vector },
    );
  }
  return plan;
}

/**
 * Writes a plan, in order, in the caller's transaction or statement by statement. Every write is
 * idempotent by its source, so a job that runs again changes nothing. Returns how many facts
 * became new memories and how many reinforced one.
 */
export async function writePlan(
  plan: WritePlan,
  { tx }: { tx?: Tx } = {},
): Promise<{ created: number; reinforced: number }> {
  const ids: (string | null)[] = [];
  let created = 0;
  let reinforced = 0;
  const create = async (fact: LearnedFact, embedding: number[] | null) => {
    const { memory, merged } = await createMemory(
      {
        organizationId: fact.organizationId,
        ownerId: fact.ownerId,
        text: fact.text,
        importance: fact.importance,
        source: fact.source,
        embedding,
      },
      { tx },
    );
    if (merged) reinforced++;
    else created++;
    return memory.id;
  };
  for (const write of plan) {
    if (write.kind === "create") {
      ids.push(await create(write.fact, write.embedding));
      continue;
    }
    const target = write.kind === "reinforce" ? write.memoryId : ids[write.of];
    const memory = target
      ? await reinforceMemory(
          { id: target, organizationId: write.fact.organizationId, source: write.fact.source },
          { tx },
        )
      : null;
    if (memory) {
      reinforced++;
      ids.push(memory.id);
    } else {
      // The memory it repeats was deleted meanwhile: the fact stands on its own.
      ids.push(await create(write.fact, write.kind === "reinforce" ? write.embedding : null));
    }
  }
  return { created, reinforced };
}

/** The facts of extracted slices as memories to write: only for members still in the organization. */
export function learnedFacts(
  slices: readonly ConversationSlice[],
  facts: readonly ExtractedFact[],
): LearnedFact[] {
  return facts.flatMap((fact) => {
    const slice = slices[fact.slice];
    if (!slice?.isMember) return [];
    return [
      {
        organizationId: slice.organizationId,
        ownerId: slice.userId,
        text: fact.text,
        importance: fact.importance,
        source: { turnId: slice.turnId, messageId: slice.userMessageId },
      },
    ];
  });
}
