// The rules of OpenAI's strict mode for JSON schemas (structured outputs and strict tools), as one
// list of allowed keywords and one checker. The app's schema helper (./strict-schema.ts) builds to
// these rules, and the fake OpenAI server in tests refuses what breaks them, so the two cannot
// drift apart: a schema the checker passes is one OpenAI accepts.

/** The keywords a strict schema may use; any other keyword is a violation. */
export const STRICT_KEYWORDS: ReadonlySet<string> = new Set([
  "type",
  "properties",
  "required",
  "additionalProperties",
  "items",
  "enum",
  "const",
  "anyOf",
  "$ref",
  "$defs",
  "description",
  "pattern",
  "format",
  "minimum",
  "maximum",
  "minItems",
  "maxItems",
]);

type Node = Record<string, unknown>;

function isNode(value: unknown): value is Node {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

/**
 * What breaks strict mode in `schema`, one line per finding with its JSON pointer; empty when
 * OpenAI would accept it. Every object must say `additionalProperties: false` and list all of its
 * properties in `required`; the root is an object, not an `anyOf`.
 */
export function strictViolations(schema: unknown): string[] {
  const found: string[] = [];
  if (!isNode(schema)) return ["#: the schema is not an object"];
  if (schema.type !== "object") found.push("#: the root must be of type object");
  if ("anyOf" in schema) found.push("#: anyOf is not allowed at the root");
  walk(schema, "#", found);
  return found;
}

function walk(node: Node, at: string, found: string[]): void {
  for (const key of Object.keys(node)) {
    if (!STRICT_KEYWORDS.has(key)) found.push(`${at}: keyword "${key}" is not allowed`);
  }
  const types = Array.isArray(node.type) ? node.type : [node.type];
  const properties = isNode(node.properties) ? node.properties : null;
  if (types.includes("object") || properties) {
    if (node.additionalProperties !== false) {
      found.push(`${at}: additionalProperties must be false`);
    }
    const required = Array.isArray(node.required) ? node.required : [];
    for (const name of Object.keys(properties ?? {})) {
      if (!required.includes(name)) found.push(`${at}: "${name}" is missing from required`);
    }
  }
  for (const [name, child] of Object.entries(properties ?? {})) {
    if (isNode(child)) walk(child, `${at}/properties/${name}`, found);
    else found.push(`${at}/properties/${name}: not a schema`);
  }
  if (isNode(node.items)) walk(node.items, `${at}/items`, found);
  else if (node.items !== undefined) found.push(`${at}/items: must be one schema`);
  if (Array.isArray(node.anyOf)) {
    node.anyOf.forEach((child, index) => {
      if (isNode(child)) walk(child, `${at}/anyOf/${index}`, found);
    });
  }
  if (isNode(node.$defs)) {
    for (const [name, child] of Object.entries(node.$defs)) {
      if (isNode(child)) walk(child, `${at}/$defs/${name}`, found);
    }
  }
}
