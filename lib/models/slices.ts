// The transcript background extraction sends a model: numbered conversation slices (a turn's
// member message and the agent's answer), so the model can say which message a fact or a skill
// came from. One format, written by lib/memory and lib/skills and read back by the offline
// model. Each message starts a line `Message N (member|agent): …`; its further lines are
// indented by two spaces, so lists keep their shape.

export type SliceText = { member: string; agent: string };

const HEAD = /^Message (\d{1,4}) \((member|agent)\):\s?(.*)$/u;

/** The slices as one transcript, each message cut to `maxChars`, numbered from 1. */
export function writeSlices(slices: readonly SliceText[], maxChars = 4_000): string {
  const block = (index: number, role: "member" | "agent", text: string) => {
    const lines = [...text.trim()].slice(0, maxChars).join("").split(/\r?\n/u);
    const [first = "", ...rest] = lines;
    return [`Message ${index} (${role}): ${first}`, ...rest.map((line) => `  ${line}`)].join("\n");
  };
  return slices
    .flatMap((slice, i) => [
      block(i + 1, "member", slice.member),
      ...(slice.agent.trim() ? [block(i + 1, "agent", slice.agent)] : []),
    ])
    .join("\n");
}

/** The transcript's messages back, in order: number, role and text (lines rejoined). */
export function readSlices(
  transcript: string,
): Array<{ message: number; role: "member" | "agent"; text: string }> {
  const out: Array<{ message: number; role: "member" | "agent"; text: string }> = [];
  for (const line of transcript.split("\n")) {
    const head = HEAD.exec(line);
    if (head) {
      out.push({
        message: Number(head[1]),
        role: head[2] as "member" | "agent",
        text: head[3] ?? "",
      });
    } else if (line.startsWith("  ") && out.length > 0) {
      const last = out[out.length - 1];
      if (last) last.text += `\n${line.slice(2)}`;
    }
  }
  return out;
}
