/**
 * Generates a JSON value that validates against a JSON schema (draft-07 as produced by zod /
 * the AI SDK), deriving strings and numbers from the user's words where sensible. Used for
 * structured output and for tool-call arguments. Handles objects, arrays (minItems, tuples,
 * uniqueItems), strings (enum, length, format, pattern), numbers (bounds, multipleOf), booleans,
 * null, type unions, anyOf/oneOf/allOf, const and local `$ref`s.
 */
import { createRng, hashString } from "./random";
import { type SampleContext, type SchemaObject, sampleString } from "./sample-string";
import { extractKeywords } from "./words";

export type { SampleContext } from "./sample-string";

export type JsonValue =
  | null
  | boolean
  | number
  | string
  | JsonValue[]
  | { [key: string]: JsonValue };

/** Past this depth only required properties / minItems are generated. */
const SHALLOW_DEPTH = 5;
/** Hard stop for recursive schemas. */
const MAX_DEPTH = 24;

function isSchemaObject(value: unknown): value is SchemaObject {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

function isJsonValue(value: unknown): value is JsonValue {
  if (value === null || ["string", "number", "boolean"].includes(typeof value)) return true;
  if (Array.isArray(value)) return value.every(isJsonValue);
  return isSchemaObject(value) && Object.values(value).every(isJsonValue);
}

function numberOr(value: unknown, fallback: number): number {
  return typeof value === "number" && Number.isFinite(value) ? value : fallback;
}

function schemaList(value: unknown): SchemaObject[] {
  return Array.isArray(value) ? value.filter(isSchemaObject) : [];
}

function isNullSchema(schema: SchemaObject): boolean {
  return schema.type === "null" || (schema.const === null && schema.type === undefined);
}

function inferType(schema: SchemaObject): string {
  const { type } = schema;
  if (typeof type === "string") return type;
  if (Array.isArray(type)) {
    const nonNull = type.find((t): t is string => typeof t === "string" && t !== "null");
    return nonNull ?? "null";
  }
  if ("properties" in schema || "required" in schema || "additionalProperties" in schema)
    return "object";
  if ("items" in schema || "prefixItems" in schema) return "array";
  if ("minimum" in schema || "maximum" in schema || "multipleOf" in schema) return "number";
  return "string";
}

class SchemaSampler {
  constructor(
    private readonly root: unknown,
    private readonly ctx: SampleContext,
  ) {}

  private resolveRef(ref: string): unknown {
    if (!ref.startsWith("#")) return {};
    let node: unknown = this.root;
    for (const raw of ref.slice(1).split("/").filter(Boolean)) {
      const key = decodeURIComponent(raw).replaceAll("~1", "/").replaceAll("~0", "~");
      node = isSchemaObject(node) ? node[key] : undefined;
    }
    return node ?? {};
  }

  private mergeAllOf(schema: SchemaObject, depth: number): SchemaObject {
    const { allOf: _allOf, ...base } = schema;
    const merged: Record<string, unknown> = { ...base };
    const properties: Record<string, unknown> = isSchemaObject(base.properties)
      ? { ...base.properties }
      : {};
    const required = new Set(Array.isArray(base.required) ? base.required : []);
    for (let part of schemaList(schema.allOf)) {
      if (typeof part.$ref === "string" && depth < MAX_DEPTH) {
        const resolved = this.resolveRef(part.$ref);
        part = isSchemaObject(resolved) ? resolved : {};
      }
      for (const [key, value] of Object.entries(part)) {
        if (key === "properties" && isSchemaObject(value)) Object.assign(properties, value);
        else if (key === "required" && Array.isArray(value)) for (const r of value) required.add(r);
        else if (!(key in merged)) merged[key] = value;
      }
    }
    if (Object.keys(properties).length > 0) merged.properties = properties;
    if (required.size > 0) merged.required = [...required];
    return merged;
  }

  sample(schema: unknown, hint: string, index: number, depth: number): JsonValue {
    if (depth > MAX_DEPTH) return null;
    if (schema === false) return null;
    if (!isSchemaObject(schema)) return sampleString({}, this.ctx, hint, index);
    if (typeof schema.$ref === "string") {
      return this.sample(this.resolveRef(schema.$ref), hint, index, depth + 1);
    }
    if ("const" in schema && isJsonValue(schema.const)) return schema.const;
    if (Array.isArray(schema.enum) && schema.enum.length > 0)
      return this.pickEnum(schema.enum, index);
    if (Array.isArray(schema.allOf))
      return this.sample(this.mergeAllOf(schema, depth), hint, index, depth + 1);
    const options = schemaList(schema.anyOf ?? schema.oneOf);
    if (options.length > 0) {
      const shallow = depth > SHALLOW_DEPTH;
      const choice =
        (shallow ? options.find(isNullSchema) : undefined) ?? options.find((o) => !isNullSchema(o));
      return this.sample(choice ?? options[0], hint, index, depth + 1);
    }
    switch (inferType(schema)) {
      case "null":
        return null;
      case "boolean":
        return this.ctx.rng.next() < 0.7;
      case "integer":
        return this.sampleNumber(schema, true);
      case "number":
        return this.sampleNumber(schema, false);
      case "array":
        return this.sampleArray(schema, hint, depth);
      case "object":
        return this.sampleObject(schema, depth);
      default:
        return sampleString(schema, this.ctx, hint, index);
    }
  }

  private pickEnum(values: unknown[], index: number): JsonValue {
    const candidates = values.filter(isJsonValue);
    const lowerText = this.ctx.text.toLowerCase();
    let mentioned: JsonValue | undefined;
    let mentionedAt = Number.POSITIVE_INFINITY;
    for (const value of candidates) {
      const at =
        typeof value === "string" && value.length > 1 ? lowerText.indexOf(value.toLowerCase()) : -1;
      if (at >= 0 && at < mentionedAt) [mentioned, mentionedAt] = [value, at];
    }
    if (mentioned !== undefined && index === 0) return mentioned;
    const start = this.ctx.rng.int(0, Math.max(0, candidates.length - 1));
    return candidates[(start + index) % Math.max(1, candidates.length)] ?? null;
  }

  private sampleNumber(schema: SchemaObject, integer: boolean): number {
    const step = integer ? 1 : 0.5;
    const exMin = schema.exclusiveMinimum;
    const exMax = schema.exclusiveMaximum;
    let lo = numberOr(schema.minimum, Number.NEGATIVE_INFINITY);
    let hi = numberOr(schema.maximum, Number.POSITIVE_INFINITY);
    if (typeof exMin === "number") lo = Math.max(lo, exMin + step);
    else if (exMin === true) lo += step;
    if (typeof exMax === "number") hi = Math.min(hi, exMax - step);
    else if (exMax === true) hi -= step;
    if (!Number.isFinite(lo) && !Number.isFinite(hi)) [lo, hi] = [1, 100];
    else if (!Number.isFinite(lo)) lo = hi - 100;
    else if (!Number.isFinite(hi)) hi = lo + 100;
    if (integer) [lo, hi] = [Math.ceil(lo), Math.floor(hi)];
    if (hi < lo) return lo;

    const multipleOf = numberOr(schema.multipleOf, integer ? 1 : 0);
    const fits = (n: number) =>
      n >= lo &&
      n <= hi &&
      (!integer || Number.isInteger(n)) &&
      (multipleOf <= 0 || Number.isInteger(n / multipleOf));
    for (const match of this.ctx.text.matchAll(/-?\d+(?:\.\d+)?/g)) {
      const n = Number(match[0]);
      if (fits(n)) return n;
    }
    if (multipleOf > 0) {
      const k = this.ctx.rng.int(Math.ceil(lo / multipleOf), Math.floor(hi / multipleOf));
      return Number((k * multipleOf).toFixed(10));
    }
    const span = Math.min(hi - lo, 100);
    return integer
      ? this.ctx.rng.int(lo, lo + span)
      : Math.round((lo + this.ctx.rng.next() * span) * 100) / 100;
  }

  private sampleArray(schema: SchemaObject, hint: string, depth: number): JsonValue[] {
    const tuple = schemaList(
      schema.prefixItems ?? (Array.isArray(schema.items) ? schema.items : undefined),
    );
    const rest = Array.isArray(schema.items) ? schema.additionalItems : schema.items;
    const min = numberOr(schema.minItems, 0);
    const max = numberOr(schema.maxItems, Number.POSITIVE_INFINITY);
    const preferred = depth > SHALLOW_DEPTH ? 0 : Math.max(tuple.length, 3);
    const count = Math.max(min, tuple.length, Math.min(max, preferred));
    const itemHint = hint.replace(/(ies)$/, "y").replace(/s$/, "");
    const out: JsonValue[] = [];
    const seen = new Set<string>();
    for (let i = 0; out.length < count && i < count * 4 + 4; i++) {
      const itemSchema = i < tuple.length ? tuple[i] : rest === false ? undefined : (rest ?? {});
      if (itemSchema === undefined) break;
      const value = this.sample(itemSchema, itemHint || hint, i, depth + 1);
      const key = JSON.stringify(value);
      if (schema.uniqueItems === true && seen.has(key)) {
        if (out.length >= min) break;
        continue;
      }
      seen.add(key);
      out.push(value);
    }
    return out;
  }

  private sampleObject(schema: SchemaObject, depth: number): { [key: string]: JsonValue } {
    const properties = isSchemaObject(schema.properties) ? schema.properties : {};
    const required = new Set(
      Array.isArray(schema.required)
        ? schema.required.filter((r): r is string => typeof r === "string")
        : [],
    );
    const out: { [key: string]: JsonValue } = {};
    for (const [key, propSchema] of Object.entries(properties)) {
      const include = required.has(key) || (depth <= SHALLOW_DEPTH && this.ctx.rng.next() < 0.8);
      if (include) out[key] = this.sample(propSchema, key, 0, depth + 1);
    }
    const extra = isSchemaObject(schema.additionalProperties) ? schema.additionalProperties : {};
    for (const key of required) {
      if (!(key in out)) out[key] = this.sample(extra, key, 0, depth + 1);
    }
    const minProps = numberOr(schema.minProperties, 0);
    if (schema.additionalProperties !== false) {
      for (const keyword of [...this.ctx.keywords, "key", "value", "extra"]) {
        if (Object.keys(out).length >= minProps) break;
        if (!(keyword in out)) out[keyword] = this.sample(extra, keyword, 0, depth + 1);
      }
    }
    return out;
  }
}

/** Builds a sampling context from free text; the seed defaults to a hash of the text. */
export function createSampleContext(text: string, seed: number = hashString(text)): SampleContext {
  return { text, keywords: extractKeywords(text, 8), rng: createRng(seed) };
}

/** A JSON value that validates against `schema`, derived from `ctx.text` where sensible. */
export function sampleJsonSchema(schema: unknown, ctx: SampleContext): JsonValue {
  return new SchemaSampler(schema, ctx).sample(schema, "", 0, 0);
}
