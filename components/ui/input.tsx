import type { InputHTMLAttributes, Ref } from "react";
import { cx } from "./class-names";

type InputProps = InputHTMLAttributes<HTMLInputElement> & { ref?: Ref<HTMLInputElement> };

export function Input({ className, ...rest }: InputProps) {
  return (
    <input
      className={cx(
        "block h-10 w-full rounded-lg border border-border-strong bg-bg px-3 text-sm text-fg shadow-sm shadow-black/5",
        "placeholder:text-fg-subtle transition-[border-color,box-shadow] duration-150",
        "focus-visible:border-accent focus-visible:ring-3 focus-visible:ring-accent/25",
        "aria-invalid:border-danger aria-invalid:focus-visible:ring-danger/20",
        "disabled:cursor-not-allowed disabled:opacity-60",
        className,
      )}
      {...rest}
    />
  );
}
