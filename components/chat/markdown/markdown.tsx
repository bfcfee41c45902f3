"use client";
// Markdown for chat answers, made for streaming: while text streams in, `remend` closes what is
// still open (bold, inline code, links) so half-written markup doesn't flash; the text is split
// into top-level blocks and each block re-renders only when its own source changes, so a long
// answer costs one block's work per step.
import { Lexer, type Token } from "marked";
import { memo, useMemo } from "react";
import remend from "remend";
import { Block } from "./blocks";

export function Markdown({ text, streaming = false }: { text: string; streaming?: boolean }) {
  const tokens = useMemo(
    () => Lexer.lex(streaming ? remend(text) : text, { gfm: true }),
    [text, streaming],
  );
  return (
    <div className="text-[15px] leading-7 text-fg [overflow-wrap:anywhere]">
      {tokens.map((token, index) => (
        // Blocks only grow at the end while streaming: the position is a stable key.
        // biome-ignore lint/suspicious/noArrayIndexKey: see above
        <MemoBlock key={index} token={token} complete={!streaming || index < tokens.length - 1} />
      ))}
    </div>
  );
}

const MemoBlock = memo(
  function MemoBlock({ token, complete }: { token: Token; complete: boolean }) {
    return <Block token={token} complete={complete} />;
  },
  (before, after) => before.token.raw === after.token.raw && before.complete === after.complete,
);
