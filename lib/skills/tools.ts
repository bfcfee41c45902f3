// How a member's agents meet their skills: a `<skills>` instruction section naming the skills
// they are offered (the member's own and the organization's, read by COMPOSE_REQUEST) with
// when to use each, and the `use_skill` tool that returns a skill's steps. The
// section lists names only, so it stays small; it is cut to its own token budget, whole skills at
// a time, before the extra sections' budget is applied. A member without skills is offered
// neither. The section and the leaving out of use_skill are hooks the composition root
// registers (root/wiring.ts).
import "server-only";
import { tool } from "ai";
import { z } from "zod";
import { registerScopedTool, type ToolScope } from "@/lib/agents/tools";
import { config } from "@/lib/config";
import { budgetTokens } from "@/lib/context/window";
import { strictSchema } from "@/lib/models/strict-schema";
import { escapeText } from "@/lib/state/render";
import { findSkillByName, type OfferedSkill } from "./store";

/** The section for the offered skills, within config.skills.sectionBudget; null without any. */
export function skillsSection(skills: readonly OfferedSkill[]): string | null {
  if (skills.length === 0) return null;
  const head =
    "Skills you can use: procedures the member (or their organization) keeps. When one fits " +
    "the request, call use_skill with its name and follow its steps.";
  const lines: string[] = [];
  let tokens = budgetTokens(`<skills>\n${head}\n</skills>`);
  for (const skill of skills) {
    const line = `- ${escapeText(skill.name)}: ${escapeText(skill.whenToUse)}`;
    const cost = budgetTokens(line);
    if (tokens + cost > config.skills.sectionBudget) break;
    tokens += cost;
    lines.push(line);
  }
  if (lines.length === 0) return null;
  return ["<skills>", head, ...lines, "</skills>"].join("\n");
}

// Built once: the tool is bound per turn, its schema is not (see lib/agents/tools.ts).
const useSkillInput = strictSchema(
  z.object({
    name: z
      .string()
      .trim()
      .min(1)
      .max(config.skills.nameMaxChars)
      .describe('The name as listed, e.g. "Weekly report".'),
  }),
);

/**
 * The agent's tools for a member offered `offeredSkills` skills: without any, use_skill is left
 * out, so their turns do not pay for its definition.
 */
export function toolsForOfferedSkills<T extends { tools: Record<string, unknown> }>(
  resolved: T,
  offeredSkills: number,
): T {
  if (offeredSkills > 0 || !("use_skill" in resolved.tools)) return resolved;
  const { use_skill: _unused, ...tools } = resolved.tools;
  return { ...resolved, tools };
}

/** use_skill, bound to the owner and the turn it acts for. */
export function useSkillTool({ userId, organizationId }: ToolScope) {
  return tool({
    description:
      "Returns the steps of a skill listed in <skills>, the member's own or their " +
      "organization's. Use it when the member's request fits a listed skill, then follow its " +
      "steps; not for a skill that is not listed.",
    strict: true,
    inputSchema: useSkillInput,
    execute: async ({ name }) => {
      const skill = await findSkillByName({ organizationId, userId, name });
      if (!skill) {
        return { found: false, name, message: "There is no skill by that name." };
      }
      return {
        found: true,
        name: skill.name,
        whenToUse: skill.whenToUse,
        steps: skill.steps,
        shared: skill.ownerId === null,
      };
    },
  });
}

export function registerSkillTool(): void {
  registerScopedTool("use_skill", useSkillTool);
}
