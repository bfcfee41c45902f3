/**
 * String values for the offline model's JSON-schema sampler: picks content from the property
 * name (title, query, email, …) and the user's words, then honours format, length and pattern.
 */
import { hashHex, type Rng } from "./random";
import { sampleFromPattern } from "./regex-sample";
import { describeRequest } from "./request";
import { extractKeywords, firstWords, makeTitle } from "./words";

export interface SampleContext {
  /** The user's words (triggers removed); the source for "derived" values. */
  text: string;
  keywords: string[];
  rng: Rng;
}

export type SchemaObject = Readonly<Record<string, unknown>>;

const BASE_DATE_MS = Date.UTC(2025, 0, 15, 9, 30, 0);
const DAY_MS = 86_400_000;

function slugify(words: readonly string[]): string {
  const slug = words
    .join("-")
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, "-")
    .replace(/^-+|-+$/g, "");
  return slug.length > 0 ? slug.slice(0, 48).replace(/-+$/, "") : "item";
}

function deterministicUuid(seed: string): string {
  const hex = (hashHex(seed) + hashHex(`${seed}#1`) + hashHex(`${seed}#2`) + hashHex(`${seed}#3`))
    .split("")
    .map((ch, i) => (i === 12 ? "4" : i === 16 ? "89ab".charAt(Number.parseInt(ch, 16) % 4) : ch))
    .join("");
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20, 32)}`;
}

function placeFrom(text: string): string {
  const match = /\b(?:in|for|at|near|from|to)\s+(\p{Lu}[\p{L}-]+(?:\s\p{Lu}[\p{L}-]+)?)/u.exec(
    text,
  );
  return match?.[1] ?? "Berlin";
}

function sentenceCase(text: string): string {
  return text.charAt(0).toUpperCase() + text.slice(1);
}

function formatValue(
  format: string,
  ctx: SampleContext,
  hint: string,
  index: number,
): string | undefined {
  const seed = `${ctx.text}|${hint}|${index}`;
  const date = new Date(BASE_DATE_MS + index * DAY_MS);
  switch (format) {
    case "email":
    case "idn-email":
      return `${index === 0 ? "alex" : `alex${index + 1}`}@example.com`;
    case "uri":
    case "url":
    case "iri":
    case "uri-reference":
    case "iri-reference":
      return `https://example.com/${slugify(ctx.keywords.slice(0, 3))}${index > 0 ? `-${index + 1}` : ""}`;
    case "date-time":
      return date.toISOString();
    case "date":
      return date.toISOString().slice(0, 10);
    case "time":
      return "09:30:00";
    case "duration":
      return "PT1H";
    case "uuid":
      return deterministicUuid(seed);
    case "hostname":
    case "idn-hostname":
      return "example.com";
    case "ipv4":
      return `192.0.2.${(index % 250) + 1}`;
    case "ipv6":
      return `2001:db8::${index + 1}`;
    default:
      return undefined;
  }
}

const TIME_ZONES = ["Europe/Paris", "America/New_York", "Asia/Tokyo", "Australia/Sydney"];

function contentFor(hint: string, ctx: SampleContext, index: number): string {
  const name = hint.replace(/([a-z0-9])([A-Z])/g, "$1_$2").toLowerCase();
  const { keywords, text } = ctx;
  const rotated = [...keywords.slice(index), ...keywords.slice(0, index)];
  const keyword =
    keywords.length > 0 ? (keywords[index % keywords.length] ?? "idea") : `item ${index + 1}`;
  if (/(^|_)(title|heading|headline|subject|name|label|topic)s?$/.test(name)) {
    return makeTitle(index === 0 ? text : rotated.join(" "));
  }
  if (
    /(query|^q$|search|prompt|question|input|^text$|message|content|body|instruction|request|term)/.test(
      name,
    )
  ) {
    return text.length > 0 ? firstWords(text, 40) : "general question";
  }
  if (
    /(summary|description|details|reason|explanation|answer|comment|note|overview|excerpt)/.test(
      name,
    )
  ) {
    const topic = sentenceCase(describeRequest(text).gist);
    const extras = keywords.slice(1, 4);
    return extras.length > 0 ? `${topic}, covering ${extras.join(", ")}.` : `${topic}.`;
  }
  if (/(city|location|place|country|region|address|destination)/.test(name)) return placeFrom(text);
  if (/(^|_)(lang|language|locale)$/.test(name)) return "en";
  if (/(^|_)(id|slug|key|handle|username|ref)$/.test(name)) {
    return `${slugify(rotated.slice(0, 2))}-${index + 1}`;
  }
  if (/(url|link|href|website)/.test(name))
    return formatValue("uri", ctx, hint, index) ?? "https://example.com";
  if (/e-?mail/.test(name)) return formatValue("email", ctx, hint, index) ?? "alex@example.com";
  // A time zone is an IANA name, never a date (the `time` below would make it one).
  if (/(^|_)(time_?zone|tz)$/.test(name)) return TIME_ZONES[index % TIME_ZONES.length] ?? "UTC";
  if (/(date|deadline|due|when|time)/.test(name))
    return formatValue("date", ctx, hint, index) ?? "2025-01-15";
  if (/(colou?r)/.test(name)) return ["blue", "green", "orange", "purple"][index % 4] ?? "blue";
  if (/(tag|keyword|category|categories|label|skill|topic)/.test(name)) return keyword;
  if (index > 0) return keyword;
  return text.length > 0 ? firstWords(text, 8) : keyword;
}

function compilePattern(pattern: string): RegExp | undefined {
  try {
    return new RegExp(pattern, "u");
  } catch (error) {
    // Not a JS-compatible regex: the value cannot be checked against it, so it is left as is.
    if (error instanceof SyntaxError) return undefined;
    throw error;
  }
}

function fitLength(value: string, ctx: SampleContext, min: number, max: number): string {
  let chars = Array.from(value);
  if (chars.length > max) {
    const cut = chars.slice(0, max).join("");
    const space = cut.lastIndexOf(" ");
    chars = Array.from(space >= min && space > 0 ? cut.slice(0, space) : cut);
  }
  const filler = [...ctx.keywords, "details", "notes", "context", "example"];
  let i = 0;
  while (chars.length < min) {
    chars = Array.from(
      `${chars.join("")}${chars.length > 0 ? " " : ""}${filler[i % filler.length]}`,
    );
    i++;
  }
  return chars.slice(0, max).join("");
}

export function sampleString(
  schema: SchemaObject,
  ctx: SampleContext,
  hint: string,
  index: number,
): string {
  const format = typeof schema.format === "string" ? schema.format : undefined;
  const min = typeof schema.minLength === "number" ? schema.minLength : 0;
  const max = typeof schema.maxLength === "number" ? schema.maxLength : Number.POSITIVE_INFINITY;
  const formatted = format ? formatValue(format, ctx, hint, index) : undefined;
  let value = formatted ?? fitLength(contentFor(hint, ctx, index), ctx, min, max);

  const pattern = typeof schema.pattern === "string" ? compilePattern(schema.pattern) : undefined;
  if (pattern && !pattern.test(value)) {
    const words = extractKeywords(ctx.text, 3);
    const candidates = [
      slugify(words),
      words[0]?.toLowerCase() ?? "",
      "example",
      "a",
      "A",
      "1",
      "A1",
      "abc123",
      deterministicUuid(`${ctx.text}|${hint}`),
      "2025-01-15",
      "alex@example.com",
      "https://example.com",
    ];
    value =
      candidates.find((candidate) => pattern.test(candidate)) ??
      sampleFromPattern(pattern) ??
      value;
  }
  return value;
}
