"use client";
// The menu's implementation, loaded on first use by ./menu (see there): Radix's dropdown menu
// (WAI-ARIA menu pattern: arrow keys, Home/End and typeahead move through the items, Escape
// closes and returns focus to the trigger, a click outside closes, and the popup flips or shifts
// to stay on screen), styled with the design tokens.

import { CheckIcon } from "lucide-react";
import Link from "next/link";
import { DropdownMenu } from "radix-ui";
import { type ComponentProps, type ReactNode, useEffect, useId, useRef } from "react";
import { cx } from "./class-names";
import { Tooltip } from "./tooltip";

export function MenuRootImpl({
  open,
  onOpenChange,
  children,
}: {
  open: boolean;
  onOpenChange: (open: boolean) => void;
  children: ReactNode;
}) {
  return (
    <DropdownMenu.Root open={open} onOpenChange={onOpenChange}>
      {children}
    </DropdownMenu.Root>
  );
}

export function MenuTriggerImpl({
  tooltip,
  ...rest
}: ComponentProps<"button"> & { tooltip?: string }) {
  const trigger = <DropdownMenu.Trigger {...rest} />;
  return tooltip ? <Tooltip label={tooltip}>{trigger}</Tooltip> : trigger;
}

export function MenuContentImpl({
  children,
  align = "start",
  className,
  focusFirstItem,
}: {
  children: ReactNode;
  align?: "start" | "end";
  className?: string;
  /**
   * Opened by a key pressed before this module had loaded: Radix did not see the key, so the
   * first item is focused here, as a keyboard opening does.
   */
  focusFirstItem: () => boolean;
}) {
  const contentRef = useRef<HTMLDivElement>(null);
  // After Radix has focused the content on opening (a child's effect runs first).
  // biome-ignore lint/correctness/useExhaustiveDependencies: once per opening (the content mounts)
  useEffect(() => {
    if (!focusFirstItem()) return;
    requestAnimationFrame(() => {
      contentRef.current
        ?.querySelector<HTMLElement>('[role^="menuitem"]:not([data-disabled])')
        ?.focus();
    });
  }, []);
  return (
    <DropdownMenu.Portal>
      <DropdownMenu.Content
        ref={contentRef}
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

export type MenuItemProps = Omit<ComponentProps<"div">, "onSelect" | "role" | "ref"> & {
  /** Runs when the item is chosen (click, Enter or Space), after the menu has closed. */
  onSelect?: () => void;
  disabled?: boolean;
};

export function MenuItemImpl({ onSelect, className, children, ...rest }: MenuItemProps) {
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
export function MenuRadioGroupImpl({
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

export function MenuItemRadioImpl({
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

export function MenuLinkItemImpl({
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

export function MenuSeparatorImpl() {
  return <DropdownMenu.Separator className="-mx-1 my-1 h-px bg-border" />;
}
