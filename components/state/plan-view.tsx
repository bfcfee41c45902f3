// The execution plan: its title, how far it has come and each step with its status. The agent
// writes it (update_plan); the panel only shows it.
import {
  CircleAlertIcon,
  CircleCheckIcon,
  CircleDotIcon,
  CircleIcon,
  CircleSlashIcon,
} from "lucide-react";
import { cx } from "@/components/ui/class-names";
import type { ExecutionPlan } from "@/lib/state/schema";
import { PLAN_STEP_LABELS, type PlanStepStatus } from "./labels";
import { EmptyLine, PanelSection } from "./panel-parts";

const STEP_ICONS = {
  pending: { Icon: CircleIcon, className: "text-fg-subtle" },
  in_progress: { Icon: CircleDotIcon, className: "text-accent-text" },
  done: { Icon: CircleCheckIcon, className: "text-emerald-600 dark:text-emerald-400" },
  skipped: { Icon: CircleSlashIcon, className: "text-fg-subtle" },
  blocked: { Icon: CircleAlertIcon, className: "text-danger" },
} as const satisfies Record<PlanStepStatus, unknown>;

const PLAN_STATUS_LABELS = { active: null, completed: "Completed", abandoned: "Abandoned" };

export function PlanView({ plan }: { plan: ExecutionPlan | null }) {
  const done = plan?.steps.filter((step) => step.status === "done").length ?? 0;
  return (
    <PanelSection
      id="context-plan"
      title="Execution plan"
      meta={plan && plan.steps.length > 0 ? `${done} of ${plan.steps.length} done` : null}
    >
      {plan ? (
        <div data-plan={plan.status}>
          <p className="flex items-start justify-between gap-2 text-[13px] leading-5 font-medium text-fg">
            <span className="min-w-0 break-words">{plan.title}</span>
            {PLAN_STATUS_LABELS[plan.status] ? (
              <span className="shrink-0 rounded-full border border-border px-2 text-[11px] leading-5 font-medium text-fg-muted">
                {PLAN_STATUS_LABELS[plan.status]}
              </span>
            ) : null}
          </p>
          <ol className="mt-2 space-y-1.5">
            {plan.steps.map((step) => {
              const { Icon, className } = STEP_ICONS[step.status];
              const finished = step.status === "done" || step.status === "skipped";
              return (
                <li
                  key={step.id}
                  data-plan-step={step.id}
                  data-status={step.status}
                  className="flex items-start gap-2 text-[13px] leading-5"
                >
                  <Icon aria-hidden="true" className={cx("mt-0.5 size-4 shrink-0", className)} />
                  <span
                    className={cx(
                      "min-w-0 break-words",
                      finished ? "text-fg-subtle" : "text-fg",
                      step.status === "in_progress" && "font-medium",
                    )}
                  >
                    {step.title}
                    <span className="sr-only"> ({PLAN_STEP_LABELS[step.status]})</span>
                  </span>
                </li>
              );
            })}
          </ol>
        </div>
      ) : (
        <EmptyLine>No active plan.</EmptyLine>
      )}
    </PanelSection>
  );
}
