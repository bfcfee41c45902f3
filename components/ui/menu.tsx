"use client";
// A menu button (WAI-ARIA menu pattern): the trigger opens a popup of menu items that arrow keys,
// Home/End move through; Escape closes it and returns focus to the trigger; Tab closes it and moves
// on; clicking or focusing outside closes it.
import Link from "next/link";
import {
  type ComponentProps,
  createContext,
  type FocusEvent,
  type KeyboardEvent,
  type ReactNode,
  type RefObject,
  useCallback,
  useContext,
  useEffect,
  useId,
  useMemo,
  useRef,
  useState,
} from "react";
import { cx } from "./class-names";
import { CheckIcon } from "./icons";

type FocusTarget = "first" | "last";

type MenuContextValue = {
  open: boolean;
  focusOnOpen: FocusTarget;
  triggerId: string;
  contentId: string;
  rootRef: RefObject<HTMLDivElement | null>;
  triggerRef: RefObject<HTMLButtonElement | null>;
  show(focus: FocusTarget): void;
  hide(options?: { focusTrigger?: boolean }): void;
};

const MenuContext = createContext<MenuContextValue | null>(null);

function useMenu(): MenuContextValue {
  const context = useContext(MenuContext);
  if (!context) throw new Error("Menu parts must be rendered inside <Menu>.");
  return context;
}

export function Menu({ children, className }: { children: ReactNode; className?: string }) {
  const [open, setOpen] = useState(false);
  const [focusOnOpen, setFocusOnOpen] = useState<FocusTarget>("first");
  const rootRef = useRef<HTMLDivElement>(null);
  const triggerRef = useRef<HTMLButtonElement>(null);
  const id = useId();

  const show = useCallback((focus: FocusTarget) => {
    setFocusOnOpen(focus);
    setOpen(true);
  }, []);
  const hide = useCallback((options: { focusTrigger?: boolean } = {}) => {
    setOpen(false);
    if (options.focusTrigger) triggerRef.current?.focus();
  }, []);

  useEffect(() => {
    if (!open) return;
    const onPointerDown = (event: PointerEvent) => {
      if (event.target instanceof Node && rootRef.current?.contains(event.target)) return;
      setOpen(false);
    };
    document.addEventListener("pointerdown", onPointerDown);
    return () => document.removeEventListener("pointerdown", onPointerDown);
  }, [open]);

  const value = useMemo<MenuContextValue>(
    () => ({
      open,
      focusOnOpen,
      triggerId: `${id}-trigger`,
      contentId: `${id}-content`,
      rootRef,
      triggerRef,
      show,
      hide,
    }),
    [open, focusOnOpen, id, show, hide],
  );

  return (
    <MenuContext.Provider value={value}>
      <div ref={rootRef} className={cx("relative", className)}>
        {children}
      </div>
    </MenuContext.Provider>
  );
}

export function MenuTrigger({
  className,
  children,
  onKeyDown,
  ...rest
}: Omit<ComponentProps<"button">, "ref" | "onClick">) {
  const menu = useMenu();
  return (
    <button
      type="button"
      ref={menu.triggerRef}
      id={menu.triggerId}
      aria-haspopup="menu"
      aria-expanded={menu.open}
      aria-controls={menu.open ? menu.contentId : undefined}
      className={className}
      onClick={() => (menu.open ? menu.hide() : menu.show("first"))}
      onKeyDown={(event) => {
        onKeyDown?.(event);
        if (event.key === "ArrowDown" || event.key === "ArrowUp") {
          event.preventDefault();
          menu.show(event.key === "ArrowDown" ? "first" : "last");
        }
      }}
      {...rest}
    >
      {children}
    </button>
  );
}

function menuItems(container: HTMLElement): HTMLElement[] {
  return Array.from(
    container.querySelectorAll<HTMLElement>('[role^="menuitem"]:not([aria-disabled="true"])'),
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
  const menu = useMenu();
  const contentRef = useRef<HTMLDivElement>(null);

  useEffect(() => {
    const content = contentRef.current;
    if (!menu.open || !content) return;
    const items = menuItems(content);
    const checked = items.find((item) => item.getAttribute("aria-checked") === "true");
    const target = menu.focusOnOpen === "last" ? items.at(-1) : (checked ?? items[0]);
    target?.focus();
  }, [menu.open, menu.focusOnOpen]);

  if (!menu.open) return null;

  const onKeyDown = (event: KeyboardEvent<HTMLDivElement>) => {
    const content = contentRef.current;
    if (!content) return;
    const items = menuItems(content);
    const index = items.indexOf(document.activeElement as HTMLElement);
    const focusAt = (next: number) => {
      event.preventDefault();
      items[(next + items.length) % items.length]?.focus();
    };
    switch (event.key) {
      case "ArrowDown":
        return focusAt(index + 1);
      case "ArrowUp":
        return focusAt(index < 0 ? items.length - 1 : index - 1);
      case "Home":
        return focusAt(0);
      case "End":
        return focusAt(items.length - 1);
      case "Escape":
        event.preventDefault();
        event.stopPropagation();
        return menu.hide({ focusTrigger: true });
      case "Tab":
        // Focus goes back to the trigger first, so the browser's Tab moves on from there.
        return menu.hide({ focusTrigger: true });
    }
  };

  const onBlur = (event: FocusEvent<HTMLDivElement>) => {
    const next = event.relatedTarget;
    if (next instanceof Node && menu.rootRef.current?.contains(next)) return;
    menu.hide();
  };

  return (
    <div
      ref={contentRef}
      id={menu.contentId}
      role="menu"
      aria-labelledby={menu.triggerId}
      tabIndex={-1}
      onKeyDown={onKeyDown}
      onBlur={onBlur}
      className={cx(
        "absolute top-full z-50 mt-1.5 w-[min(17rem,calc(100vw-1.5rem))] rounded-xl border border-border bg-bg-elevated p-1 shadow-elevated outline-none",
        "origin-top transition-[opacity,scale] duration-100 starting:scale-95 starting:opacity-0 motion-reduce:transition-none",
        align === "end" ? "right-0 origin-top-right" : "left-0 origin-top-left",
        className,
      )}
    >
      {children}
    </div>
  );
}

const itemClasses =
  "flex w-full cursor-default select-none items-center gap-2.5 rounded-lg px-2.5 py-2 text-left text-sm text-fg " +
  "outline-none focus:bg-bg-muted focus-visible:outline-none";

type MenuItemProps = Omit<ComponentProps<"button">, "onSelect" | "role"> & {
  /** Runs when the item is chosen; the menu closes first. */
  onSelect?: () => void;
};

export function MenuItem({ onSelect, className, children, ...rest }: MenuItemProps) {
  const menu = useMenu();
  return (
    <button
      type="button"
      role="menuitem"
      tabIndex={-1}
      className={cx(itemClasses, className)}
      onPointerMove={(event) => event.currentTarget.focus()}
      onClick={() => {
        menu.hide({ focusTrigger: true });
        onSelect?.();
      }}
      {...rest}
    >
      {children}
    </button>
  );
}

export function MenuItemRadio({
  checked,
  onSelect,
  className,
  children,
  ...rest
}: MenuItemProps & { checked: boolean }) {
  const menu = useMenu();
  return (
    <button
      type="button"
      role="menuitemradio"
      aria-checked={checked}
      tabIndex={-1}
      className={cx(itemClasses, className)}
      onPointerMove={(event) => event.currentTarget.focus()}
      onClick={() => {
        menu.hide({ focusTrigger: true });
        if (!checked) onSelect?.();
      }}
      {...rest}
    >
      <span className="min-w-0 flex-1">{children}</span>
      <CheckIcon className={cx("size-4 shrink-0 text-accent-text", !checked && "invisible")} />
    </button>
  );
}

export function MenuLinkItem({
  className,
  children,
  ...rest
}: Omit<ComponentProps<typeof Link>, "role" | "tabIndex">) {
  const menu = useMenu();
  return (
    <Link
      role="menuitem"
      tabIndex={-1}
      className={cx(itemClasses, className)}
      onPointerMove={(event) => event.currentTarget.focus()}
      onClick={() => menu.hide()}
      {...rest}
    >
      {children}
    </Link>
  );
}

export function MenuGroup({ label, children }: { label: string; children: ReactNode }) {
  const id = useId();
  return (
    // biome-ignore lint/a11y/useSemanticElements: a menu groups items with role="group", not <fieldset>
    <div role="group" aria-labelledby={id}>
      <div id={id} className="px-2.5 pt-1.5 pb-1 text-xs font-medium text-fg-subtle">
        {label}
      </div>
      {children}
    </div>
  );
}

export function MenuSeparator() {
  return <hr className="-mx-1 my-1 h-px border-0 bg-border" />;
}
