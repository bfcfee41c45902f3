/**
 * The smallest JSON value that validates against a JSON schema (draft-07 and 2020-12 as zod and
 * the AI SDK write them): required properties only, the fewest array items, the number nearest zero,
 * the shortest string, null where null is allowed, the first enum value or branch. Used for
 * `[tool:NAME]` arguments and for structured output no domain answers. A `pattern` is not
 * synthesized (a string with one gets its minimum length of "a" and may not match), nor are
 * `uniqueItems` arrays made distinct.
 */
type Schema = Record<string, unknown>;

const MAX_DEPTH = 24;
const FORMATS: Record<string, string> = {
  "date-time": "1970-01-01T00:00:00.000Z",
  date: "1970-01-01",
  time: "00:00:00",
  email: "a@example.com",
  uri: "https://example.com",
  uuid: "00000000-0000-4000-8000-000000000000",
};

function isSchema(value: unknown): value is Schema {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

function list(value: unknown): Schema[] {
  return Array.isArray(value) ? value.filter(isSchema) : [];
}

function num(value: unknown): number | undefined {
  return typeof value === "number" && Number.isFinite(value) ? value : undefined;
}

/** A local `$ref` (`#/$defs/x`, `#/definitions/x`) resolved against the root schema. */
function resolve(schema: Schema, root: Schema): Schema {
  const ref = schema.$ref;
  if (typeof ref !== "string" || !ref.startsWith("#")) return schema;
  let node: unknown = root;
  for (const key of ref.slice(2).split("/").filter(Boolean)) {
    node = isSchema(node) ? node[key.replaceAll("~1", "/").replaceAll("~0", "~")] : undefined;
  }
  return isSchema(node) ? node : {};
}

function typeOf(schema: Schema): string {
  const { type } = schema;
  if (Array.isArray(type)) return type.includes("null") ? "null" : String(type[0] ?? "null");
  if (typeof type === "string") return type;
  if ("properties" in schema || "required" in schema) return "object";
  if ("items" in schema || "prefixItems" in schema) return "array";
  if ("minimum" in schema || "maximum" in schema) return "number";
  return "string";
}

/** The number nearest zero within the bounds (a multiple of `multipleOf`, whole for integers). */
function smallestNumber(schema: Schema, integer: boolean): number {
  const step = num(schema.multipleOf) ?? (integer ? 1 : undefined);
  const above = num(schema.exclusiveMinimum);
  const below = num(schema.exclusiveMaximum);
  const low = num(schema.minimum) ?? above;
  const high = num(schema.maximum) ?? below;
  let value = low !== undefined && low > 0 ? low : high !== undefined && high < 0 ? high : 0;
  if (step) value = value < 0 ? Math.floor(value / step) * step : Math.ceil(value / step) * step;
  if (above !== undefined && value <= above) value = above + (step ?? 1e-6);
  if (below !== undefined && value >= below) value = below - (step ?? 1e-6);
  return value;
}

function fillAt(input: Schema, root: Schema, depth: number): unknown {
  const schema = resolve(input, root);
  if (depth > MAX_DEPTH) return null;
  if ("const" in schema) return schema.const;
  if (Array.isArray(schema.enum)) return schema.enum[0] ?? null;
  const allOf = list(schema.allOf);
  if (allOf.length > 0) {
    const merged: Schema = { ...schema, allOf: undefined, properties: {}, required: [] };
    for (const part of [schema, ...allOf].map((s) => resolve(s, root))) {
      Object.assign(merged.properties as Schema, isSchema(part.properties) ? part.properties : {});
      (merged.required as unknown[]).push(...(Array.isArray(part.required) ? part.required : []));
      if (part.type !== undefined) merged.type = part.type;
    }
    return fillAt(merged, root, depth + 1);
  }
  const branches = [...list(schema.anyOf), ...list(schema.oneOf)];
  if (branches.length > 0) {
    const nullable = branches.find((branch) => resolve(branch, root).type === "null");
    return nullable ? null : fillAt(branches[0] ?? {}, root, depth + 1);
  }
  switch (typeOf(schema)) {
    case "null":
      return null;
    case "boolean":
      return false;
    case "integer":
      return smallestNumber(schema, true);
    case "number":
      return smallestNumber(schema, false);
    case "array": {
      const count = num(schema.minItems) ?? 0;
      const tuple = list(schema.prefixItems);
      const items = isSchema(schema.items) ? schema.items : {};
      return Array.from({ length: Math.max(count, tuple.length) }, (_, i) =>
        fillAt(tuple[i] ?? items, root, depth + 1),
      );
    }
    case "object": {
      const properties = isSchema(schema.properties) ? schema.properties : {};
      const required = Array.isArray(schema.required) ? schema.required : [];
      const value: Record<string, unknown> = {};
      for (const key of required) {
        if (typeof key !== "string") continue;
        const property = properties[key];
        value[key] = fillAt(isSchema(property) ? property : {}, root, depth + 1);
      }
      return value;
    }
    default: {
      const format = typeof schema.format === "string" ? FORMATS[schema.format] : undefined;
      return format ?? "".padEnd(num(schema.minLength) ?? 0, "a");
    }
  }
}

/** The smallest value `schema` accepts (see the module comment for what is not synthesized). */
export function fillSchema(schema: unknown): unknown {
  const root = isSchema(schema) ? schema : {};
  return fillAt(root, root, 0);
}
