// A labelled text field with an optional hint, wired for assistive technology.
import type { ComponentProps, ReactNode } from "react";
import { Input } from "@/components/ui/input";
import { Label } from "@/components/ui/label";

export function FormField({
  id,
  label,
  hint,
  invalid,
  ...input
}: Omit<ComponentProps<typeof Input>, "id" | "aria-invalid"> & {
  id: string;
  label: string;
  hint?: ReactNode;
  invalid?: boolean;
}) {
  const hintId = hint ? `${id}-hint` : undefined;
  return (
    <div className="space-y-1.5">
      <Label htmlFor={id}>{label}</Label>
      <Input id={id} aria-invalid={invalid || undefined} aria-describedby={hintId} {...input} />
      {hint ? (
        <p id={hintId} className="text-[13px] leading-5 text-fg-subtle">
          {hint}
        </p>
      ) : null}
    </div>
  );
}
