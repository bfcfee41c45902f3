"use client";
// Menu buttons on Radix's dropdown menu (WAI-ARIA menu pattern): arrow keys, Home/End and
// typeahead move through the items, Escape closes and returns focus to the trigger, a click
// outside closes, and the popup flips or shifts to stay on screen. This file only styles it with
// the design tokens and keeps the names the rest of the app uses.

import { CheckIcon } from "lucide-react";
import Link from "next/link";
import { DropdownMenu } from "radix-ui";
import { type ComponentProps, type ReactNode, useId } from "react";
import { cx } from "./class-names";

/**
 * The menu's root. `className` styles a wrapper around trigger and popup, which also anchors
 * anything the caller positions next to the trigger (an error line, say).
 */
export function Menu({ children, className }: { children: ReactNode; className?: string }) {
  return (
    <DropdownMenu.Root>
      <div className={cx("relative", className)}>{children}</div>
    </DropdownMenu.Root>
  );
}

export function MenuTrigger({
  className,
  children,
  ...rest
}: Omit<ComponentProps<"button">, "onClick">) {
  return (
    <DropdownMenu.Trigger className={className} {...rest}>
      {children}
    </DropdownMenu.Trigger>
  );
}

export function MenuContent({
  children,
  align = "start",
  className,
}: {
  children: ReactNode;
  align?: "start" | "end";
  className?: string;
}) {
  return (
    <DropdownMenu.Portal>
      <DropdownMenu.Content
        align={align}
        sideOffset={6}
        collisionPadding={12}
        className={cx(
          "z-50 w-[min(17rem,calc(100vw-1.5rem))] rounded-xl border border-border bg-bg-elevated p-1 text-fg shadow-elevated outline-none",
          "origin-(--radix-dropdown-menu-content-transform-origin) transition-[opacity,scale] duration-100 starting:scale-95 starting:opacity-0 motion-reduce:transition-none",
          className,
        )}
      >
        {children}
      </DropdownMenu.Content>
    </DropdownMenu.Portal>
  );
}

const labelClasses = "px-2.5 pt-1.5 pb-1 text-xs font-medium text-fg-subtle";

const itemClasses =
  "flex w-full cursor-default select-none items-center gap-2.5 rounded-lg px-2.5 py-2 text-left text-sm " +
  "outline-none data-highlighted:bg-bg-muted data-disabled:opacity-50";

type MenuItemProps = Omit<ComponentProps<"div">, "onSelect" | "role" | "ref"> & {
  /** Runs when the item is chosen (click, Enter or Space), after the menu has closed. */
  onSelect?: () => void;
  disabled?: boolean;
};

export function MenuItem({ onSelect, className, children, ...rest }: MenuItemProps) {
  return (
    <DropdownMenu.Item
      className={cx(itemClasses, className)}
      // Runs once the menu has closed and given focus back to its trigger, so a dialog or field
      // the item opens takes focus from there (and a dialog returns it there on closing).
      onSelect={() => {
        if (onSelect) setTimeout(onSelect, 0);
      }}
      {...rest}
    >
      {children}
    </DropdownMenu.Item>
  );
}

/**
 * A labelled single choice: its items are `menuitemradio`s and the chosen one carries a check
 * mark. Choosing the current value again changes nothing.
 */
export function MenuRadioGroup({
  label,
  value,
  onValueChange,
  children,
}: {
  label: string;
  value: string;
  onValueChange: (value: string) => void;
  children: ReactNode;
}) {
  const labelId = useId();
  return (
    <DropdownMenu.RadioGroup
      aria-labelledby={labelId}
      value={value}
      onValueChange={(next) => {
        if (next !== value) onValueChange(next);
      }}
    >
      <DropdownMenu.Label id={labelId} className={labelClasses}>
        {label}
      </DropdownMenu.Label>
      {children}
    </DropdownMenu.RadioGroup>
  );
}

export function MenuItemRadio({
  value,
  className,
  children,
}: {
  value: string;
  className?: string;
  children: ReactNode;
}) {
  return (
    <DropdownMenu.RadioItem value={value} className={cx(itemClasses, "group", className)}>
      <span className="min-w-0 flex-1">{children}</span>
      <CheckIcon
        aria-hidden="true"
        className="invisible size-4 shrink-0 text-accent-text group-data-[state=checked]:visible"
      />
    </DropdownMenu.RadioItem>
  );
}

export function MenuLinkItem({
  className,
  children,
  ...rest
}: Omit<ComponentProps<typeof Link>, "role" | "tabIndex">) {
  return (
    <DropdownMenu.Item asChild className={cx(itemClasses, className)}>
      <Link {...rest}>{children}</Link>
    </DropdownMenu.Item>
  );
}

export function MenuSeparator() {
  return <DropdownMenu.Separator className="-mx-1 my-1 h-px bg-border" />;
}
