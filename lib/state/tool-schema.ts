// What the model is shown of update_workstream_state's input. The zod delta schema, converted as
// it is, is about 1,400 tokens (eight lists, each with its add, update and remove items spelled
// out), and every turn of every agent pays for it. This hand-written JSON schema shares one item
// and one change definition (about 250 tokens); the input is still parsed with the zod schema, so
// the tool accepts exactly a WorkstreamStateDelta and a mistake is an error the model sees. It is
// sent in strict mode, rewritten by strictSchema: every field listed, the ones a list does not
// take (or a change leaves alone) sent as null.
import type { JSONSchema7 } from "ai";
import { strictSchema } from "@/lib/models/strict-schema";
import {
  STATE_ITEM_MAX,
  STATE_LISTS,
  TASK_STATUSES,
  type WorkstreamStateDelta,
  workstreamStateDeltaSchema,
} from "./schema";

// One item shape for every list: the description says which fields each list takes, and the zod
// parse refuses a field a list does not have.
const ITEM: JSONSchema7 = {
  type: "object",
  properties: {
    id: { type: "string", description: 'e.g. "d2"' },
    text: {
      type: "string",
      maxLength: STATE_ITEM_MAX,
      description: 'e.g. "Budget capped at 20k EUR"',
    },
    rationale: {
      type: "string",
      maxLength: STATE_ITEM_MAX,
      description: 'Decisions: why, e.g. "ops know it"',
    },
    confidence: {
      type: "number",
      minimum: 0,
      maximum: 1,
      description: "Decisions, e.g. 0.8",
    },
    status: { enum: [...TASK_STATUSES], description: 'Tasks, e.g. "done"' },
    binding: {
      type: "boolean",
      description: "Constraints: false if only proposed, e.g. true",
    },
    agentId: { type: "string", description: 'Contributions, e.g. "analyst"' },
  },
};

// Nullable here rather than at each of the eight lists that use it: strict mode lists every
// field, and a list the delta leaves alone is sent as null.
const CHANGES: JSONSchema7 = {
  type: ["object", "null"],
  properties: {
    add: {
      type: "array",
      items: { $ref: "#/$defs/item" },
      description: 'e.g. [{"text": "Book the venue"}]',
    },
    update: {
      type: "array",
      items: { $ref: "#/$defs/item" },
      description: 'e.g. [{"id": "t2", "status": "done"}]',
    },
    remove: { type: "array", items: { type: "string" }, description: 'e.g. ["r1"]' },
  },
};

const DELTA_JSON_SCHEMA: JSONSchema7 = {
  type: "object",
  properties: Object.fromEntries(STATE_LISTS.map((list) => [list, { $ref: "#/$defs/changes" }])),
  required: [...STATE_LISTS],
  additionalProperties: false,
  $defs: { item: ITEM, changes: CHANGES },
};

/** update_workstream_state's input: shown compactly, parsed as a WorkstreamStateDelta. */
export const stateDeltaToolInput = strictSchema<WorkstreamStateDelta>(workstreamStateDeltaSchema, {
  json: DELTA_JSON_SCHEMA,
});
