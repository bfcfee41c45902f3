// Block-level markdown tokens as React elements: paragraphs, headings, lists, quotes, tables,
// rules and code blocks. Styled with the app's tokens, sized for reading in a chat column.
import type { Token, Tokens } from "marked";
import type { ReactNode } from "react";
import { CodeBlock } from "./code-block";
import { Inline } from "./inline";
import { decodeEntities } from "./text";

const HEADING = [
  "",
  "mt-6 mb-3 text-xl font-semibold tracking-tight",
  "mt-6 mb-2.5 text-lg font-semibold tracking-tight",
  "mt-5 mb-2 text-base font-semibold",
  "mt-4 mb-2 text-[15px] font-semibold",
  "mt-4 mb-1.5 text-sm font-semibold",
  "mt-4 mb-1.5 text-sm font-semibold text-fg-muted",
];

export function Block({ token, complete }: { token: Token; complete: boolean }): ReactNode {
  switch (token.type) {
    case "space":
    case "def":
      return null;
    case "paragraph":
      return (
        <p className="my-3 first:mt-0 last:mb-0">
          <Inline tokens={token.tokens} />
        </p>
      );
    case "heading": {
      const depth = Math.min(6, Math.max(1, Number(token.depth) || 1));
      const Tag = `h${depth}` as "h1";
      return (
        <Tag className={`${HEADING[depth]} text-fg first:mt-0`}>
          <Inline tokens={token.tokens} />
        </Tag>
      );
    }
    case "code":
      return <CodeBlock code={String(token.text)} language={token.lang} complete={complete} />;
    case "blockquote":
      return (
        <blockquote className="my-3 border-l-2 border-border-strong pl-4 text-fg-muted first:mt-0 last:mb-0">
          <Blocks tokens={token.tokens ?? []} complete={complete} />
        </blockquote>
      );
    case "list":
      return <List token={token as Tokens.List} complete={complete} />;
    case "table":
      return <Table token={token as Tokens.Table} />;
    case "hr":
      return <hr className="my-6 border-border" />;
    case "html":
      return <p className="my-3 whitespace-pre-wrap">{String(token.text)}</p>;
    case "text":
      return token.tokens ? (
        <Inline tokens={token.tokens} />
      ) : (
        decodeEntities(String(token.text ?? ""))
      );
    default:
      return <p className="my-3 whitespace-pre-wrap">{String(token.raw ?? "")}</p>;
  }
}

export function Blocks({ tokens, complete }: { tokens: Token[]; complete: boolean }) {
  return tokens.map((token, index) => (
    // Blocks only ever grow at the end while streaming, so the position is a stable key.
    // biome-ignore lint/suspicious/noArrayIndexKey: see above
    <Block key={index} token={token} complete={complete} />
  ));
}

function List({ token, complete }: { token: Tokens.List; complete: boolean }) {
  const ordered = token.ordered;
  const className = ordered
    ? "my-3 list-decimal space-y-1.5 pl-6 marker:text-fg-subtle first:mt-0 last:mb-0"
    : "my-3 list-disc space-y-1.5 pl-5 marker:text-fg-subtle first:mt-0 last:mb-0";
  const items = token.items.map((item, index) => (
    // biome-ignore lint/suspicious/noArrayIndexKey: list items have no identity but their order
    <li key={index} className={item.task ? "list-none -ml-5 pl-0" : "pl-1"}>
      {item.loose ? (
        <Blocks tokens={item.tokens} complete={complete} />
      ) : (
        <TightItem tokens={item.tokens} complete={complete} />
      )}
    </li>
  ));
  return ordered ? (
    <ol start={typeof token.start === "number" ? token.start : undefined} className={className}>
      {items}
    </ol>
  ) : (
    <ul className={className}>{items}</ul>
  );
}

/** A tight list item: its text runs inline, nested blocks (lists, code) follow. */
function TightItem({ tokens, complete }: { tokens: Token[]; complete: boolean }) {
  return tokens.map((token, index) =>
    token.type === "text" || token.type === "checkbox" ? (
      // biome-ignore lint/suspicious/noArrayIndexKey: parts of one list item, in order
      <Inline key={index} tokens={[token]} />
    ) : (
      // biome-ignore lint/suspicious/noArrayIndexKey: parts of one list item, in order
      <Block key={index} token={token} complete={complete} />
    ),
  );
}

function Table({ token }: { token: Tokens.Table }) {
  const align = (value: "center" | "left" | "right" | null) =>
    value === "center" ? "text-center" : value === "right" ? "text-right" : "text-left";
  return (
    <div className="my-4 overflow-x-auto rounded-xl border border-border first:mt-0 last:mb-0">
      <table className="w-full border-collapse text-sm">
        <thead className="bg-bg-subtle">
          <tr>
            {token.header.map((cell, index) => (
              <th
                // biome-ignore lint/suspicious/noArrayIndexKey: columns are positional
                key={index}
                className={`border-b border-border px-3 py-2 font-medium text-fg ${align(cell.align)}`}
              >
                <Inline tokens={cell.tokens} />
              </th>
            ))}
          </tr>
        </thead>
        <tbody>
          {token.rows.map((row, rowIndex) => (
            // biome-ignore lint/suspicious/noArrayIndexKey: rows are positional
            <tr key={rowIndex} className="border-b border-border last:border-0">
              {row.map((cell, index) => (
                <td
                  // biome-ignore lint/suspicious/noArrayIndexKey: columns are positional
                  key={index}
                  className={`px-3 py-2 align-top text-fg-muted ${align(cell.align)}`}
                >
                  <Inline tokens={cell.tokens} />
                </td>
              ))}
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}
