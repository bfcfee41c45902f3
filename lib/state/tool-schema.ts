// What the model is shown of update_workstream_state's input. The zod delta schema, converted as
// it is, is about 1,400 tokens (eight lists, each with its add, update and remove items spelled
// out), and every turn of every agent pays for it. This hand-written JSON schema shares one item
// and one change definition (about 250 tokens); the input is still parsed with the zod schema, so
// the tool accepts exactly a WorkstreamStateDelta and a mistake is an error the model sees.
import { type JSONSchema7, jsonSchema } from "ai";
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
    id: { type: "string" },
    text: { type: "string", maxLength: STATE_ITEM_MAX },
    rationale: { type: "string", maxLength: STATE_ITEM_MAX },
    confidence: { type: "number", minimum: 0, maximum: 1 },
    status: { enum: [...TASK_STATUSES] },
    binding: { type: "boolean" },
    agentId: { type: "string" },
  },
};

const CHANGES: JSONSchema7 = {
  type: "object",
  properties: {
    add: { type: "array", items: { $ref: "#/$defs/item" } },
    update: { type: "array", items: { $ref: "#/$defs/item" } },
    remove: { type: "array", items: { type: "string" } },
  },
};

const DELTA_JSON_SCHEMA: JSONSchema7 = {
  type: "object",
  properties: Object.fromEntries(STATE_LISTS.map((list) => [list, { $ref: "#/$defs/changes" }])),
  additionalProperties: false,
  $defs: { item: ITEM, changes: CHANGES },
};

/** update_workstream_state's input: shown compactly, parsed as a WorkstreamStateDelta. */
export const stateDeltaToolInput = jsonSchema<WorkstreamStateDelta>(DELTA_JSON_SCHEMA, {
  validate: (value) => {
    const parsed = workstreamStateDeltaSchema.safeParse(value);
    return parsed.success
      ? { success: true, value: parsed.data }
      : { success: false, error: parsed.error };
  },
});
