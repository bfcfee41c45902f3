// Inline markdown tokens (marked's lexer output) as React elements. Nothing is rendered as
// HTML: raw HTML shows as text, and only http(s) and mailto links become links.
import type { Token } from "marked";
import type { ReactNode } from "react";
import { decodeEntities, safeHref } from "./text";

export function Inline({ tokens }: { tokens: Token[] | undefined }): ReactNode {
  if (!tokens) return null;
  return tokens.map((token, index) => (
    // Inline tokens have no identity beyond their position in a block.
    // biome-ignore lint/suspicious/noArrayIndexKey: see above
    <InlineToken key={index} token={token} />
  ));
}

function InlineToken({ token }: { token: Token }): ReactNode {
  switch (token.type) {
    case "text":
    case "escape":
      return "tokens" in token && token.tokens ? (
        <Inline tokens={token.tokens} />
      ) : (
        decodeEntities(String(token.text ?? ""))
      );
    case "strong":
      return (
        <strong className="font-semibold text-fg">
          <Inline tokens={token.tokens} />
        </strong>
      );
    case "em":
      return (
        <em>
          <Inline tokens={token.tokens} />
        </em>
      );
    case "del":
      return (
        <del className="text-fg-muted">
          <Inline tokens={token.tokens} />
        </del>
      );
    case "codespan":
      return (
        <code className="rounded-md bg-bg-muted px-1.5 py-0.5 font-mono text-[0.86em] text-fg [overflow-wrap:anywhere]">
          {token.text}
        </code>
      );
    case "br":
      return <br />;
    case "link": {
      const href = safeHref(String(token.href ?? ""));
      if (!href) return <Inline tokens={token.tokens} />;
      return (
        <a
          href={href}
          title={token.title ?? undefined}
          target="_blank"
          rel="noopener noreferrer nofollow"
          className="font-medium text-accent-text underline decoration-accent-text/30 underline-offset-2 [overflow-wrap:anywhere] hover:decoration-accent-text"
        >
          <Inline tokens={token.tokens} />
        </a>
      );
    }
    case "image": {
      // Images stay links: a chat answer should not make the browser fetch arbitrary URLs.
      const href = safeHref(String(token.href ?? ""));
      const label = token.text || "image";
      return href ? (
        <a
          href={href}
          target="_blank"
          rel="noopener noreferrer nofollow"
          className="text-accent-text underline underline-offset-2"
        >
          {label}
        </a>
      ) : (
        label
      );
    }
    case "checkbox":
      return (
        <input
          type="checkbox"
          checked={Boolean(token.checked)}
          readOnly
          disabled
          aria-label={token.checked ? "Done" : "Not done"}
          className="mr-1.5 translate-y-px accent-accent"
        />
      );
    case "html":
      return token.text;
    default:
      return "raw" in token ? String(token.raw) : null;
  }
}
