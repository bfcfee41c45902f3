// The one way the app writes a JSON schema for a model: structured outputs (Output.object) and the
// input of its own tools. @ai-sdk/openai sends structured outputs in strict mode, and the app's
// tools declare strict mode, so OpenAI refuses any schema that breaks its rules
// (./strict-rules.ts): every object closed and listing all of its properties as required, an
// optional field written as nullable, and only a short list of keywords. A zod schema is converted
// once, rewritten to those rules, and still parses what the model sends: a null where the zod
// schema has an optional field counts as absent, and the limits strict mode cannot say (lengths,
// counts beyond minItems/maxItems) are checked by the zod parse, an error the model can read.
import { type JSONSchema7, jsonSchema, type Schema } from "ai";
import { z } from "zod";
import { STRICT_KEYWORDS, strictViolations } from "./strict-rules";

type Node = Record<string, unknown>;

function isNode(value: unknown): value is Node {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

/** `node`, also accepting null: `[T, "null"]` where it has one type, else an anyOf with null. */
function nullable(node: Node): Node {
  if (typeof node.type === "string" && !("const" in node)) {
    const widened: Node = { ...node, type: [node.type, "null"] };
    if (Array.isArray(node.enum)) widened.enum = [...node.enum, null];
    return widened;
  }
  return { anyOf: [node, { type: "null" }] };
}

function strictNode(node: Node): Node {
  const out: Node = {};
  for (const [key, value] of Object.entries(node)) {
    if (STRICT_KEYWORDS.has(key)) out[key] = value;
  }
  if (isNode(node.properties)) {
    const required = new Set(Array.isArray(node.required) ? node.required : []);
    const properties: Node = {};
    for (const [name, child] of Object.entries(node.properties)) {
      if (!isNode(child)) continue;
      const converted = strictNode(child);
      properties[name] = required.has(name) ? converted : nullable(converted);
    }
    out.properties = properties;
    out.required = Object.keys(properties);
  }
  const types = Array.isArray(node.type) ? node.type : [node.type];
  if (types.includes("object") || isNode(node.properties)) {
    out.properties ??= {};
    out.required ??= [];
    out.additionalProperties = false;
  }
  if (isNode(node.items)) out.items = strictNode(node.items);
  if (Array.isArray(node.anyOf)) {
    out.anyOf = node.anyOf.filter(isNode).map((child) => strictNode(child));
  }
  if (isNode(node.$defs)) {
    out.$defs = Object.fromEntries(
      Object.entries(node.$defs).flatMap(([name, child]) =>
        isNode(child) ? [[name, strictNode(child)]] : [],
      ),
    );
  }
  return out;
}

/**
 * `value` with a null dropped wherever `node` (the zod schema's own conversion) has an optional
 * property or none by that name: strict mode makes the model send null for a field it leaves out.
 */
function withoutNulls(value: unknown, node: Node, defs: Node): unknown {
  const ref = typeof node.$ref === "string" ? /^#\/\$defs\/(.+)$/.exec(node.$ref)?.[1] : undefined;
  if (ref !== undefined) {
    const target = defs[ref];
    return isNode(target) ? withoutNulls(value, target, defs) : value;
  }
  if (Array.isArray(value)) {
    return isNode(node.items)
      ? value.map((item) => withoutNulls(item, node.items as Node, defs))
      : value;
  }
  if (!isNode(value)) return value;
  if (Array.isArray(node.anyOf)) {
    const branch = node.anyOf.find((child) => isNode(child) && child.type !== "null");
    return isNode(branch) ? withoutNulls(value, branch, defs) : value;
  }
  if (!isNode(node.properties)) return value;
  const properties = node.properties;
  const required = new Set(Array.isArray(node.required) ? node.required : []);
  const out: Node = {};
  for (const [name, child] of Object.entries(value)) {
    if (child === null && !required.has(name)) continue;
    const shape = properties[name];
    out[name] = isNode(shape) ? withoutNulls(child, shape, defs) : child;
  }
  return out;
}

/**
 * A schema for a structured output or a tool's input that strict mode accepts, parsed by `schema`.
 * `json` is the shape to show the model instead of `schema`'s own conversion (a hand-written,
 * shorter one); it is rewritten to the strict rules the same way. Which nulls mean "absent" is
 * read from the zod schema either way.
 */
export function strictSchema<T>(
  schema: z.ZodType<T>,
  { json }: { json?: JSONSchema7 } = {},
): Schema<T> {
  const own = z.toJSONSchema(schema, { io: "input", unrepresentable: "any" }) as Node;
  const strict = strictNode((json as Node | undefined) ?? own);
  const violations = strictViolations(strict);
  // A schema the rules cannot express (a record, a root union) is a mistake in the code: it
  // would be refused by OpenAI on every call, so it is refused here, when the module loads.
  if (violations.length > 0) {
    throw new Error(`This schema cannot be sent in strict mode: ${violations.join("; ")}`);
  }
  const defs = isNode(own.$defs) ? own.$defs : {};
  return jsonSchema<T>(strict as JSONSchema7, {
    validate: (value) => {
      const parsed = schema.safeParse(withoutNulls(value, own, defs));
      return parsed.success
        ? { success: true, value: parsed.data }
        : { success: false, error: parsed.error };
    },
  });
}
