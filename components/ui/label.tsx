import type { LabelHTMLAttributes } from "react";
import { cx } from "./class-names";

export function Label({ className, ...rest }: LabelHTMLAttributes<HTMLLabelElement>) {
  return (
    // biome-ignore lint/a11y/noLabelWithoutControl: callers pass htmlFor
    <label className={cx("block text-[13px] font-medium text-fg", className)} {...rest} />
  );
}
