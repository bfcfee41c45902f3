"use client";
// Menu buttons (WAI-ARIA menu pattern) on Radix's dropdown menu, whose code (about 30 KB gzip
// with its positioning engine) loads on first use instead of with every page: until then the
// trigger is a plain button that starts loading when pointed at or focused, and opens the menu
// once loaded when pressed (click, Enter, Space or ↓) before that. After loading, Radix handles
// everything; see ./menu-impl for the behaviour and styles.
import {
  type ComponentProps,
  createContext,
  type KeyboardEvent,
  type ReactNode,
  type RefObject,
  useCallback,
  useContext,
  useLayoutEffect,
  useMemo,
  useRef,
  useState,
} from "react";
import { cx } from "./class-names";
import type { MenuItemProps } from "./menu-impl";

type Impl = typeof import("./menu-impl");

let loaded: Impl | null = null;
let loading: Promise<Impl> | null = null;

function loadImpl(): Promise<Impl> {
  loading ??= import("./menu-impl").then((module) => {
    loaded = module;
    return module;
  });
  return loading;
}

type MenuState = {
  impl: Impl | null;
  /** Loads the implementation, and opens the menu once loaded when asked to. */
  load: (options?: { open?: "pointer" | "keyboard" }) => void;
  open: boolean;
  setOpen: (open: boolean) => void;
  /** The menu was opened by a key the implementation did not see; read once. */
  takeKeyboardOpen: () => boolean;
  wrapperRef: RefObject<HTMLDivElement | null>;
};

const MenuContext = createContext<MenuState | null>(null);

function useMenu(): MenuState {
  const value = useContext(MenuContext);
  if (!value) throw new Error("Menu parts must be rendered inside <Menu>.");
  return value;
}

/**
 * The menu's root. `className` styles a wrapper around trigger and popup, which also anchors
 * anything the caller positions next to the trigger (an error line, say).
 */
export function Menu({ children, className }: { children: ReactNode; className?: string }) {
  const [impl, setImpl] = useState<Impl | null>(loaded);
  const [open, setOpen] = useState(false);
  const keyboardOpen = useRef(false);
  const refocus = useRef(false);
  const wrapperRef = useRef<HTMLDivElement>(null);

  const load = useCallback((options: { open?: "pointer" | "keyboard" } = {}) => {
    void loadImpl().then((module) => {
      const active = document.activeElement;
      const hadFocus = Boolean(active && wrapperRef.current?.contains(active));
      if (options.open === "keyboard") keyboardOpen.current = true;
      setImpl(() => module);
      if (options.open) setOpen(true);
      // The placeholder trigger is replaced by a new element: focus moves to its successor as
      // soon as React has committed it (an opening menu takes focus itself).
      else if (hadFocus) refocus.current = true;
    });
  }, []);

  // A layout effect runs before the browser handles the next key press, so a key pressed right
  // as the implementation arrives reaches the new trigger instead of the page.
  useLayoutEffect(() => {
    if (!impl || !refocus.current) return;
    refocus.current = false;
    wrapperRef.current?.querySelector<HTMLElement>('[aria-haspopup="menu"]')?.focus();
  }, [impl]);

  const value = useMemo<MenuState>(
    () => ({
      impl,
      load,
      open,
      setOpen,
      takeKeyboardOpen: () => {
        const value = keyboardOpen.current;
        keyboardOpen.current = false;
        return value;
      },
      wrapperRef,
    }),
    [impl, load, open],
  );

  const wrapper = (
    <div ref={wrapperRef} className={cx("relative", className)}>
      {children}
    </div>
  );
  return (
    <MenuContext.Provider value={value}>
      {impl ? (
        <impl.MenuRootImpl open={open} onOpenChange={setOpen}>
          {wrapper}
        </impl.MenuRootImpl>
      ) : (
        wrapper
      )}
    </MenuContext.Provider>
  );
}

const OPEN_KEYS = new Set(["Enter", " ", "ArrowDown"]);

export function MenuTrigger({
  tooltip,
  onKeyDown,
  ...rest
}: Omit<ComponentProps<"button">, "onClick"> & {
  /** A short hint shown on hover and focus (for an icon-only trigger). */
  tooltip?: string;
}) {
  const menu = useMenu();
  if (menu.impl) {
    return <menu.impl.MenuTriggerImpl tooltip={tooltip} onKeyDown={onKeyDown} {...rest} />;
  }
  return (
    <button
      type="button"
      aria-haspopup="menu"
      aria-expanded={false}
      data-state="closed"
      onPointerEnter={() => menu.load()}
      onFocus={() => menu.load()}
      onPointerDown={(event) => {
        if (event.button === 0 && !event.ctrlKey) menu.load({ open: "pointer" });
      }}
      onKeyDown={(event: KeyboardEvent<HTMLButtonElement>) => {
        onKeyDown?.(event);
        if (!OPEN_KEYS.has(event.key)) return;
        event.preventDefault();
        menu.load({ open: "keyboard" });
      }}
      {...rest}
    />
  );
}

export function MenuContent(props: {
  children: ReactNode;
  align?: "start" | "end";
  className?: string;
}) {
  const menu = useMenu();
  if (!menu.impl) return null;
  return <menu.impl.MenuContentImpl focusFirstItem={menu.takeKeyboardOpen} {...props} />;
}

// The parts below only ever render inside an open MenuContent, so the implementation is there.

export function MenuItem(props: MenuItemProps) {
  const { impl } = useMenu();
  return impl ? <impl.MenuItemImpl {...props} /> : null;
}

export function MenuRadioGroup(props: ComponentProps<Impl["MenuRadioGroupImpl"]>) {
  const { impl } = useMenu();
  return impl ? <impl.MenuRadioGroupImpl {...props} /> : null;
}

export function MenuItemRadio(props: ComponentProps<Impl["MenuItemRadioImpl"]>) {
  const { impl } = useMenu();
  return impl ? <impl.MenuItemRadioImpl {...props} /> : null;
}

export function MenuLinkItem(props: ComponentProps<Impl["MenuLinkItemImpl"]>) {
  const { impl } = useMenu();
  return impl ? <impl.MenuLinkItemImpl {...props} /> : null;
}

export function MenuSeparator() {
  const { impl } = useMenu();
  return impl ? <impl.MenuSeparatorImpl /> : null;
}
