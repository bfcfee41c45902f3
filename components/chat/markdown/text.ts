// Text rules of the markdown renderer: character references and which links are safe to follow.

const ENTITIES: Record<string, string> = {
  amp: "&",
  lt: "<",
  gt: ">",
  quot: '"',
  apos: "'",
  nbsp: "\u00a0",
};

/** Decodes the character references markdown text may contain (`&amp;`, `&#39;`, `&#x2014;`). */
export function decodeEntities(text: string): string {
  if (!text.includes("&")) return text;
  return text.replace(/&(#x[0-9a-f]{1,6}|#[0-9]{1,7}|[a-z]{2,6});/gi, (whole, body: string) => {
    if (body.startsWith("#")) {
      const code =
        body[1] === "x" || body[1] === "X"
          ? Number.parseInt(body.slice(2), 16)
          : Number(body.slice(1));
      return Number.isFinite(code) && code > 0 && code <= 0x10ffff
        ? String.fromCodePoint(code)
        : whole;
    }
    return ENTITIES[body.toLowerCase()] ?? whole;
  });
}

/** An absolute http(s) or mailto URL, else null (relative, script or half-streamed links). */
export function safeHref(href: string): string | null {
  if (!URL.canParse(href)) return null;
  const url = new URL(href);
  return ["http:", "https:", "mailto:"].includes(url.protocol) ? url.href : null;
}
