// Buttons and button-looking links. `pending` disables the button and shows a spinner, so a form
// cannot be submitted twice and the user sees that something is happening.
import type { ButtonHTMLAttributes, ReactNode, Ref } from "react";
import { cx } from "./class-names";
import { Spinner } from "./spinner";

export type ButtonVariant = "primary" | "secondary" | "ghost";
export type ButtonSize = "sm" | "md" | "lg";

const base =
  "inline-flex shrink-0 select-none items-center justify-center gap-2 whitespace-nowrap rounded-lg font-medium " +
  "transition-colors duration-150 disabled:cursor-not-allowed disabled:opacity-60";

const variants: Record<ButtonVariant, string> = {
  primary:
    "bg-accent text-accent-fg shadow-sm shadow-black/10 hover:bg-accent-hover disabled:hover:bg-accent",
  secondary:
    "border border-border-strong bg-bg-elevated text-fg shadow-sm shadow-black/5 hover:bg-bg-muted",
  ghost: "text-fg-muted hover:bg-bg-muted hover:text-fg",
};

const sizes: Record<ButtonSize, string> = {
  sm: "h-8 px-2.5 text-[13px]",
  md: "h-9 px-3.5 text-sm",
  lg: "h-10 px-4 text-sm",
};

export function buttonClasses({
  variant = "primary",
  size = "md",
  className,
}: {
  variant?: ButtonVariant;
  size?: ButtonSize;
  className?: string;
} = {}): string {
  return cx(base, variants[variant], sizes[size], className);
}

type ButtonProps = ButtonHTMLAttributes<HTMLButtonElement> & {
  variant?: ButtonVariant;
  size?: ButtonSize;
  /** Disables the button and shows a spinner with `pendingLabel` (or the children). */
  pending?: boolean;
  pendingLabel?: ReactNode;
  ref?: Ref<HTMLButtonElement>;
};

export function Button({
  variant,
  size,
  pending = false,
  pendingLabel,
  disabled,
  className,
  children,
  type = "button",
  ...rest
}: ButtonProps) {
  return (
    <button
      type={type}
      disabled={disabled || pending}
      aria-busy={pending || undefined}
      className={buttonClasses({ variant, size, className })}
      {...rest}
    >
      {pending ? <Spinner /> : null}
      {pending && pendingLabel ? pendingLabel : children}
    </button>
  );
}

type IconButtonProps = Omit<ButtonHTMLAttributes<HTMLButtonElement>, "aria-label"> & {
  /** The accessible name: an icon alone says nothing to a screen reader. */
  label: string;
  size?: "sm" | "md";
  tone?: "subtle" | "muted";
  ref?: Ref<HTMLButtonElement>;
};

/** A square, icon-only ghost button (close, back) named by `label`. */
export function IconButton({
  label,
  size = "sm",
  tone = "subtle",
  className,
  type = "button",
  ...rest
}: IconButtonProps) {
  return (
    <button
      type={type}
      aria-label={label}
      className={cx(
        "flex shrink-0 items-center justify-center rounded-lg transition-colors hover:bg-bg-muted hover:text-fg",
        size === "sm" ? "size-8" : "size-9",
        tone === "subtle" ? "text-fg-subtle" : "text-fg-muted",
        className,
      )}
      {...rest}
    />
  );
}
