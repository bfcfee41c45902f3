"use client";
// The signed-in frame: header (product, organization switcher, user menu), the sidebar and the
// main area. From 768px up the sidebar is a column; below that it is a drawer behind the menu
// button, which is modal while open (the rest of the page is inert) and closes with Escape, the
// backdrop, the close button or a navigation.
import Link from "next/link";
import { usePathname } from "next/navigation";
import { type ReactNode, useCallback, useEffect, useRef, useState } from "react";
import { cx } from "@/components/ui/class-names";
import { CloseIcon, MenuIcon } from "@/components/ui/icons";
import { OrganizationSwitcher } from "./organization-switcher";
import { ProductMark } from "./product-mark";
import type { ShellOrganization, ShellViewer } from "./types";
import { UserMenu } from "./user-menu";

const DESKTOP_QUERY = "(min-width: 768px)";

export function AppShell({
  viewer,
  organizations,
  sidebar,
  children,
}: {
  viewer: ShellViewer;
  organizations: ShellOrganization[];
  sidebar: ReactNode;
  children: ReactNode;
}) {
  const [navOpen, setNavOpen] = useState(false);
  const openButtonRef = useRef<HTMLButtonElement>(null);
  const closeButtonRef = useRef<HTMLButtonElement>(null);

  // A navigation from inside the drawer closes it (state adjusted during render, not in an effect).
  const pathname = usePathname();
  const [shownPathname, setShownPathname] = useState(pathname);
  if (pathname !== shownPathname) {
    setShownPathname(pathname);
    setNavOpen(false);
  }

  // Focus returns to the menu button after the drawer closes, once the header is no longer inert.
  const returnFocus = useRef(false);
  const closeNav = useCallback(() => {
    returnFocus.current = true;
    setNavOpen(false);
  }, []);

  useEffect(() => {
    if (!navOpen) {
      if (returnFocus.current) openButtonRef.current?.focus();
      returnFocus.current = false;
      return;
    }
    closeButtonRef.current?.focus();
    const onKeyDown = (event: KeyboardEvent) => {
      if (event.key === "Escape") closeNav();
    };
    // Growing past the breakpoint turns the drawer back into a column: nothing stays inert.
    const desktop = window.matchMedia(DESKTOP_QUERY);
    const onResize = () => {
      if (desktop.matches) setNavOpen(false);
    };
    document.addEventListener("keydown", onKeyDown);
    desktop.addEventListener("change", onResize);
    return () => {
      document.removeEventListener("keydown", onKeyDown);
      desktop.removeEventListener("change", onResize);
    };
  }, [navOpen, closeNav]);

  return (
    <div className="flex h-dvh flex-col overflow-hidden bg-bg">
      <a
        href="#main"
        className="sr-only rounded-lg border border-border bg-bg-elevated text-sm font-medium text-fg shadow-elevated focus:not-sr-only focus:fixed focus:top-2 focus:left-2 focus:z-[60] focus:px-3 focus:py-2"
      >
        Skip to content
      </a>

      <header
        inert={navOpen}
        className="flex h-14 shrink-0 items-center gap-1 border-b border-border bg-bg px-2 sm:gap-2 sm:px-3"
      >
        <button
          ref={openButtonRef}
          type="button"
          aria-label="Open navigation"
          aria-expanded={navOpen}
          aria-controls="app-sidebar"
          onClick={() => setNavOpen(true)}
          className="flex size-9 shrink-0 items-center justify-center rounded-lg text-fg-muted transition-colors hover:bg-bg-muted hover:text-fg md:hidden"
        >
          <MenuIcon className="size-[18px]" />
        </button>
        <ProductLink />
        <span aria-hidden="true" className="shrink-0 text-lg font-light text-border-strong">
          /
        </span>
        <OrganizationSwitcher
          currentId={viewer.organizationId}
          currentName={viewer.organizationName}
          organizations={organizations}
        />
        <div className="ml-auto shrink-0 pl-1">
          <UserMenu viewer={viewer} />
        </div>
      </header>

      <div className="relative flex min-h-0 flex-1">
        {navOpen ? (
          // The backdrop is a pointer target only; keyboard users close with Escape or the button.
          <div
            aria-hidden="true"
            onClick={closeNav}
            className="fixed inset-0 z-40 bg-black/40 backdrop-blur-[1px] transition-opacity starting:opacity-0 md:hidden"
          />
        ) : null}
        {/* biome-ignore lint/a11y/useAriaPropsSupportedByRole: role is "dialog" whenever these are set */}
        <div
          id="app-sidebar"
          role={navOpen ? "dialog" : undefined}
          aria-modal={navOpen || undefined}
          aria-label={navOpen ? "Navigation" : undefined}
          className={cx(
            "flex flex-col border-border bg-bg-subtle",
            // Phones: an off-canvas drawer, hidden from everyone until opened.
            "max-md:fixed max-md:inset-y-0 max-md:left-0 max-md:z-50 max-md:w-[min(18rem,85vw)] max-md:border-r max-md:shadow-elevated",
            // Visible at once when opening (so focus can move in), hidden only after sliding out.
            "max-md:duration-200 max-md:ease-out motion-reduce:transition-none",
            navOpen
              ? "max-md:translate-x-0 max-md:transition-[translate]"
              : "max-md:invisible max-md:-translate-x-full max-md:transition-[translate,visibility]",
            // Desktop: a fixed-width column.
            "md:w-64 md:shrink-0 md:border-r",
          )}
        >
          <div className="flex h-14 shrink-0 items-center justify-between border-b border-border px-3 md:hidden">
            <ProductLink alwaysShowName />
            <button
              ref={closeButtonRef}
              type="button"
              aria-label="Close navigation"
              onClick={closeNav}
              className="flex size-9 items-center justify-center rounded-lg text-fg-muted transition-colors hover:bg-bg-muted hover:text-fg"
            >
              <CloseIcon className="size-[18px]" />
            </button>
          </div>
          {sidebar}
        </div>

        <main id="main" tabIndex={-1} inert={navOpen} className="min-w-0 flex-1 overflow-y-auto">
          {children}
        </main>
      </div>
    </div>
  );
}

function ProductLink({ alwaysShowName = false }: { alwaysShowName?: boolean }) {
  return (
    <Link
      href="/"
      className="flex shrink-0 items-center gap-2 rounded-lg px-1.5 py-1 text-sm font-semibold tracking-tight text-fg"
    >
      <ProductMark />
      <span className={alwaysShowName ? undefined : "max-sm:sr-only"}>Workstreams</span>
    </Link>
  );
}
