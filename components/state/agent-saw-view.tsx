// "What the agent saw": the sections of the last turn's context in the order they were
// assembled, each with its token count against its budget, how many items it held and how many
// were left out to fit. Counts only: the content is in the panel's other sections and the chat,
// except the memories, which are nowhere else on the page: each memory section lists the ones it
// held (as they read now; a memory deleted since is gone).
import { cx } from "@/components/ui/class-names";
import type {
  ContextSectionName,
  ContextSectionRecord,
  ContextView,
  UsedMemory,
} from "@/lib/state/schema";
import { CONTEXT_SECTION_LABELS, orderedSections } from "./labels";
import { EmptyLine, formatCount, PanelSection, RelativeTime, ShareBar } from "./panel-parts";

/** Sections that have a budget of their own; the others (persona, tools, summary) take what they need. */
const BUDGETED = new Set<ContextSectionName>([
  "topMemories",
  "retrievedMemories",
  "executionPlan",
  "workstreamState",
  "memoryBlock",
  "extraSections",
  "uploads",
  "history",
]);

const ITEM_NOUNS: Partial<Record<ContextSectionName, [string, string]>> = {
  history: ["message", "messages"],
  topMemories: ["memory", "memories"],
  retrievedMemories: ["memory", "memories"],
  tools: ["tool", "tools"],
  memoryBlock: ["entry", "entries"],
  executionPlan: ["step", "steps"],
  extraSections: ["section", "sections"],
  uploads: ["file", "files"],
};

/** Sections that are always one item: a count would only add noise. */
const SINGLE = new Set<ContextSectionName>(["instructions", "compactionSummary"]);

function itemsLine(section: ContextSectionRecord): string | null {
  if (SINGLE.has(section.name) && section.cut === 0) return null;
  const [one, many] = ITEM_NOUNS[section.name] ?? ["item", "items"];
  const parts: string[] = [];
  if (section.items > 0)
    parts.push(`${formatCount(section.items)} ${section.items === 1 ? one : many}`);
  if (section.cut > 0) {
    const older = section.name === "history" ? "older " : "";
    parts.push(
      `${formatCount(section.cut)} ${older}${section.cut === 1 ? one : many} left out to fit`,
    );
  }
  return parts.length > 0 ? parts.join(", ") : null;
}

export function AgentSawView({
  lastTurn,
  now,
  sectionOrder,
}: {
  lastTurn: ContextView["lastTurn"];
  now: Date | null;
  /** The server's assembly order of a turn's context sections. */
  sectionOrder: readonly ContextSectionName[];
}) {
  if (!lastTurn) {
    return (
      <PanelSection id="context-saw" title="What the agent saw">
        <EmptyLine>
          Nothing yet: after the first reply, this lists what the agent was sent.
        </EmptyLine>
      </PanelSection>
    );
  }
  const { context } = lastTurn;
  const used: Partial<Record<ContextSectionName, UsedMemory[]>> = {
    topMemories: (lastTurn.memories ?? []).filter((memory) => memory.section === "top"),
    retrievedMemories: (lastTurn.memories ?? []).filter((memory) => memory.section === "retrieved"),
  };
  const available = Math.max(0, context.window - context.reservedOutput);
  return (
    <PanelSection
      id="context-saw"
      title="What the agent saw"
      meta={
        <>
          Last turn · <RelativeTime iso={lastTurn.at} now={now} />
        </>
      }
    >
      <div data-context-total={context.total} className="text-[13px] leading-5">
        <p className="flex items-baseline justify-between gap-2">
          <span className="font-medium text-fg tabular-nums">
            {formatCount(context.total)} tokens
          </span>
          <span className="text-xs text-fg-subtle tabular-nums">
            of {formatCount(available)} available
          </span>
        </p>
        <ShareBar value={context.total} max={available} className="mt-1.5" />
        <p className="mt-1.5 text-xs break-words text-fg-subtle">
          {context.model} · window {formatCount(context.window)},{" "}
          {formatCount(context.reservedOutput)} kept for the answer
        </p>
      </div>
      <ol className="mt-3 space-y-2.5">
        {orderedSections(context.sections, sectionOrder).map((section) => {
          const empty = section.tokens === 0 && section.items === 0;
          const budgeted = BUDGETED.has(section.name);
          const line = itemsLine(section);
          return (
            <li
              key={section.name}
              data-context-section={section.name}
              data-tokens={section.tokens}
              className="text-[13px] leading-5"
            >
              <div className="flex items-baseline justify-between gap-2">
                <span className={cx("min-w-0 truncate", empty ? "text-fg-subtle" : "text-fg")}>
                  {CONTEXT_SECTION_LABELS[section.name] ?? section.name}
                </span>
                <span className="shrink-0 text-xs text-fg-muted tabular-nums">
                  {empty ? (
                    <span className="text-fg-subtle">empty</span>
                  ) : (
                    <>
                      {formatCount(section.tokens)}
                      {budgeted ? (
                        <span className="text-fg-subtle"> / {formatCount(section.budget)}</span>
                      ) : null}
                      <span className="sr-only"> tokens</span>
                    </>
                  )}
                </span>
              </div>
              {budgeted && !empty ? (
                <ShareBar value={section.tokens} max={section.budget} className="mt-1" />
              ) : null}
              {line ? (
                <p
                  className={cx(
                    "mt-0.5 text-xs",
                    section.cut > 0 ? "text-amber-700 dark:text-amber-400" : "text-fg-subtle",
                  )}
                >
                  {line}
                </p>
              ) : null}
              {used[section.name]?.length ? (
                <ul className="mt-1 space-y-1" data-context-memories={section.name}>
                  {used[section.name]?.map((memory) => (
                    <li
                      key={memory.id}
                      data-memory-used={memory.id}
                      className="line-clamp-2 text-xs break-words text-fg-muted"
                    >
                      {memory.scope === "organization" ? (
                        <span className="text-fg-subtle">Organization · </span>
                      ) : null}
                      {memory.text}
                    </li>
                  ))}
                </ul>
              ) : null}
            </li>
          );
        })}
      </ol>
    </PanelSection>
  );
}
