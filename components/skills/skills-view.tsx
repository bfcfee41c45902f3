"use client";
// The Skills page: procedures learned from the member's conversations (a name, when to use it,
// its steps), which their agents are offered and follow through use_skill. The member edits,
// deletes, or shares one with the organization after an explicit confirmation. The
// organization's skills are listed below: read-only, except for owners and admins.
import { type FormEvent, useId, useState } from "react";
import { charCount, messageOf, textareaClasses } from "@/components/memory/memory-list";
import { Button } from "@/components/ui/button";
import { ConfirmDialog, useConfirm } from "@/components/ui/confirm-dialog";
import { FormAlert } from "@/components/ui/form-alert";
import { Input } from "@/components/ui/input";
import { useEditableList } from "@/components/ui/use-editable-list";
import { callApi } from "@/lib/api-client/call-api";
import type { SkillView } from "@/lib/skills/views";

export type SkillLimits = {
  nameMaxChars: number;
  whenToUseMaxChars: number;
  stepsMax: number;
  stepMaxChars: number;
};

type Change = { name: string; whenToUse: string; steps: string[] };

function stepsOf(text: string): string[] {
  return text
    .split("\n")
    .map((line) => line.replace(/^\s*(?:\d{1,2}[.)]|[-*•])\s+/u, "").trim())
    .filter(Boolean);
}

function SkillEditor({
  skill,
  limits,
  onSave,
  onDone,
}: {
  skill: SkillView;
  limits: SkillLimits;
  onSave: (change: Change) => Promise<void>;
  onDone: () => void;
}) {
  const ids = useId();
  const [name, setName] = useState(skill.name);
  const [whenToUse, setWhenToUse] = useState(skill.whenToUse);
  const [steps, setSteps] = useState(skill.steps.join("\n"));
  const [pending, setPending] = useState(false);
  const [error, setError] = useState<string | null>(null);

  const problem = (): string | null => {
    const list = stepsOf(steps);
    if (!name.trim() || !whenToUse.trim()) return "A skill needs a name and when to use it.";
    if (charCount(name.trim()) > limits.nameMaxChars)
      return `A name holds at most ${limits.nameMaxChars} characters.`;
    if (charCount(whenToUse.trim()) > limits.whenToUseMaxChars)
      return `"When to use" holds at most ${limits.whenToUseMaxChars} characters.`;
    if (list.length === 0) return "A skill needs at least one step.";
    if (list.length > limits.stepsMax) return `A skill has at most ${limits.stepsMax} steps.`;
    if (list.some((step) => charCount(step) > limits.stepMaxChars))
      return `A step holds at most ${limits.stepMaxChars} characters.`;
    return null;
  };

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    const refused = problem();
    if (refused) {
      setError(refused);
      return;
    }
    setPending(true);
    setError(null);
    try {
      await onSave({ name: name.trim(), whenToUse: whenToUse.trim(), steps: stepsOf(steps) });
      onDone();
    } catch (failure) {
      setError(messageOf(failure));
    } finally {
      setPending(false);
    }
  };

  return (
    <form
      onSubmit={(event) => void submit(event)}
      onKeyDown={(event) => {
        if (event.key === "Escape") onDone();
      }}
      className="space-y-3"
    >
      <div className="space-y-1">
        <label htmlFor={`${ids}-name`} className="text-[13px] font-medium text-fg">
          Name
        </label>
        <Input
          id={`${ids}-name`}
          value={name}
          autoFocus
          onChange={(event) => setName(event.target.value)}
        />
      </div>
      <div className="space-y-1">
        <label htmlFor={`${ids}-when`} className="text-[13px] font-medium text-fg">
          When to use it
        </label>
        <textarea
          id={`${ids}-when`}
          value={whenToUse}
          rows={2}
          onChange={(event) => setWhenToUse(event.target.value)}
          className={textareaClasses}
        />
      </div>
      <div className="space-y-1">
        <label htmlFor={`${ids}-steps`} className="text-[13px] font-medium text-fg">
          Steps
        </label>
        <p id={`${ids}-steps-hint`} className="text-[12px] text-fg-subtle">
          One step per line, in order.
        </p>
        <textarea
          id={`${ids}-steps`}
          value={steps}
          rows={Math.min(10, Math.max(3, skill.steps.length + 1))}
          aria-describedby={`${ids}-steps-hint`}
          onChange={(event) => setSteps(event.target.value)}
          className={textareaClasses}
        />
      </div>
      <FormAlert>{error}</FormAlert>
      <div className="flex justify-end gap-2">
        <Button variant="ghost" size="sm" onClick={onDone} disabled={pending}>
          Cancel
        </Button>
        <Button type="submit" size="sm" pending={pending}>
          Save
        </Button>
      </div>
    </form>
  );
}

function SkillCard({
  skill,
  limits,
  onSave,
  onDelete,
  onShare,
}: {
  skill: SkillView;
  limits: SkillLimits;
  onSave?: (change: Change) => Promise<void>;
  onDelete?: () => void;
  onShare?: () => void;
}) {
  const [editing, setEditing] = useState(false);
  const titleId = `skill-${skill.id}`;
  return (
    <li
      data-skill-id={skill.id}
      aria-labelledby={titleId}
      className="rounded-xl border border-border bg-bg-elevated p-4"
    >
      {editing && onSave ? (
        <SkillEditor
          skill={skill}
          limits={limits}
          onSave={onSave}
          onDone={() => setEditing(false)}
        />
      ) : (
        <>
          <div className="flex flex-wrap items-start justify-between gap-x-4 gap-y-1">
            <h3 id={titleId} className="min-w-0 text-sm font-semibold break-words text-fg">
              {skill.name}
            </h3>
            {onSave || onDelete || onShare ? (
              <div className="-mr-2 -mt-1 flex gap-1">
                {onSave ? (
                  <Button
                    variant="ghost"
                    size="sm"
                    aria-describedby={titleId}
                    onClick={() => setEditing(true)}
                  >
                    Edit
                  </Button>
                ) : null}
                {onShare ? (
                  <Button variant="ghost" size="sm" aria-describedby={titleId} onClick={onShare}>
                    Share
                  </Button>
                ) : null}
                {onDelete ? (
                  <Button variant="ghost" size="sm" aria-describedby={titleId} onClick={onDelete}>
                    Delete
                  </Button>
                ) : null}
              </div>
            ) : null}
          </div>
          <p className="mt-1 text-[13px] leading-5 break-words text-fg-muted">{skill.whenToUse}</p>
          <ol className="mt-3 list-decimal space-y-1 pl-5 text-sm leading-6 text-fg marker:text-fg-subtle">
            {skill.steps.map((step, index) => (
              // Steps may repeat; their position is what tells them apart.
              // biome-ignore lint/suspicious/noArrayIndexKey: see above
              <li key={index} className="break-words">
                {step}
              </li>
            ))}
          </ol>
        </>
      )}
    </li>
  );
}

export function SkillsView({
  initial,
  organizationName,
  managesOrganization,
  limits,
}: {
  initial: { skills: SkillView[]; organization: SkillView[] };
  organizationName: string;
  managesOrganization: boolean;
  limits: SkillLimits;
}) {
  const own = useEditableList(initial.skills);
  const organization = useEditableList(initial.organization);
  const listOf = (skill: SkillView) => (skill.shared ? organization : own);
  const confirm = useConfirm();

  const save = async (skill: SkillView, change: Change) => {
    const result = await callApi<{ skill: SkillView }>(
      `/api/skills/${encodeURIComponent(skill.id)}`,
      {
        method: "PATCH",
        json: change,
      },
    );
    listOf(skill).replace(result.skill);
  };

  const remove = (skill: SkillView) => {
    confirm.ask({
      title: `Delete “${skill.name}”?`,
      body: skill.shared
        ? "No member's agents will be offered it any more. This cannot be undone."
        : "Your agents will no longer be offered it. This cannot be undone.",
      confirmLabel: "Delete skill",
      tone: "danger",
      onConfirm: async () => {
        await callApi(`/api/skills/${encodeURIComponent(skill.id)}`, { method: "DELETE" });
        listOf(skill).drop(skill.id);
      },
    });
  };

  const share = (skill: SkillView) => {
    confirm.ask({
      title: `Share “${skill.name}” with everyone in ${organizationName}?`,
      body: "Every member's agents will be offered it, and admins can edit or delete it. It stops being yours alone.",
      confirmLabel: "Share skill",
      onConfirm: async () => {
        const result = await callApi<{ skill: SkillView }>(
          `/api/skills/${encodeURIComponent(skill.id)}/share`,
          { method: "POST", json: { confirm: true } },
        );
        own.drop(skill.id);
        organization.putFirst(result.skill);
      },
    });
  };

  return (
    <div className="space-y-8">
      <section aria-labelledby="own-skills-title" className="space-y-3">
        <div>
          <h2 id="own-skills-title" className="text-base font-semibold text-fg">
            Your skills
          </h2>
          <p className="mt-0.5 text-[13px] text-fg-muted">
            Learned when a conversation lays out how to do something. Only your agents are offered
            them; admins never see them.
          </p>
        </div>
        {own.items.length === 0 ? (
          <p className="rounded-xl border border-dashed border-border px-4 py-6 text-sm text-fg-muted">
            No skills yet. Walk an agent through a procedure (numbered steps, or “first…, then…”)
            and it is kept here.
          </p>
        ) : (
          <ul aria-label="Your skills" className="space-y-3">
            {own.items.map((skill) => (
              <SkillCard
                key={skill.id}
                skill={skill}
                limits={limits}
                onSave={(change) => save(skill, change)}
                onDelete={() => remove(skill)}
                onShare={() => share(skill)}
              />
            ))}
          </ul>
        )}
      </section>

      <section aria-labelledby="organization-skills-title" className="space-y-3">
        <div>
          <h2 id="organization-skills-title" className="text-base font-semibold text-fg">
            Organization skills
          </h2>
          <p className="mt-0.5 text-[13px] text-fg-muted">
            Shared by members of {organizationName}; every member's agents are offered them.
            {managesOrganization ? " As an admin you can edit and delete them." : ""}
          </p>
        </div>
        {organization.items.length === 0 ? (
          <p className="rounded-xl border border-dashed border-border px-4 py-6 text-sm text-fg-muted">
            No shared skills yet.
          </p>
        ) : (
          <ul aria-label="Organization skills" className="space-y-3">
            {organization.items.map((skill) => (
              <SkillCard
                key={skill.id}
                skill={skill}
                limits={limits}
                onSave={managesOrganization ? (change) => save(skill, change) : undefined}
                onDelete={managesOrganization ? () => remove(skill) : undefined}
              />
            ))}
          </ul>
        )}
      </section>

      <ConfirmDialog {...confirm.dialog} />
    </div>
  );
}
