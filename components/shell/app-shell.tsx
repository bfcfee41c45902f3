"use client";
// The signed-in frame: header (product, organization switcher, user menu), the sidebar and the
// main area. From 768px up the sidebar is a column; below that it is a drawer (a Radix dialog)
// behind the menu button, modal while open, closed by Escape, the backdrop, the close button or
// a navigation.

import { XIcon as CloseIcon, MenuIcon } from "lucide-react";
import Link from "next/link";
import { usePathname } from "next/navigation";
import { lazy, type ReactNode, Suspense, useRef, useState } from "react";
import { cx } from "@/components/ui/class-names";
import { useMediaQuery } from "@/components/ui/use-media-query";
import { OrganizationSwitcher } from "./organization-switcher";
import { ProductMark } from "./product-mark";
import type { ShellOrganization, ShellViewer } from "./types";
import { UserMenu } from "./user-menu";

const DESKTOP_QUERY = "(min-width: 768px)";

// The phone drawer's code (Radix's dialog) loads when it is first wanted, not with every page.
const loadSheet = () => import("@/components/ui/sheet");
const Sheet = lazy(() => loadSheet().then((module) => ({ default: module.Sheet })));
const preloadSheet = () => void loadSheet();

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
  // The server renders the desktop column (hidden by CSS on phones); phones then mount the
  // sidebar only inside the open drawer, so it is never in the page twice.
  const desktop = useMediaQuery(DESKTOP_QUERY, true);

  // A navigation from inside the drawer closes it (state adjusted during render, not in an
  // effect), and so does growing past the breakpoint.
  const pathname = usePathname();
  const [shownPathname, setShownPathname] = useState(pathname);
  if (pathname !== shownPathname) {
    setShownPathname(pathname);
    setNavOpen(false);
  }
  if (desktop && navOpen) setNavOpen(false);
  const [sheetUsed, setSheetUsed] = useState(false);
  if (navOpen && !sheetUsed) setSheetUsed(true);
  // On a phone, a chat page's own header (agent and title) shares the top bar: the menu and user
  // buttons float over its ends, and the organization switcher moves into the drawer.
  const chatRoute = pathname.startsWith("/w/");

  return (
    <div className="flex h-dvh flex-col overflow-hidden bg-bg">
      <a
        href="#main"
        className="sr-only rounded-lg border border-border bg-bg-elevated text-sm font-medium text-fg shadow-elevated focus:not-sr-only focus:fixed focus:top-2 focus:left-2 focus:z-[60] focus:px-3 focus:py-2"
      >
        Skip to content
      </a>

      <header
        data-chat-route={chatRoute || undefined}
        className={cx(
          "flex h-14 shrink-0 items-center gap-1 border-b border-border bg-bg px-2 sm:gap-2 sm:px-3",
          chatRoute &&
            "max-md:pointer-events-none max-md:absolute max-md:inset-x-0 max-md:top-0 max-md:z-30 max-md:border-transparent max-md:bg-transparent max-md:*:pointer-events-auto",
        )}
      >
        <button
          ref={openButtonRef}
          type="button"
          aria-label="Open navigation"
          aria-haspopup="dialog"
          aria-expanded={navOpen}
          aria-controls={navOpen ? "app-sidebar" : undefined}
          // Pointing at the button starts loading the drawer's code.
          onPointerEnter={preloadSheet}
          onFocus={preloadSheet}
          onClick={() => setNavOpen(true)}
          className="flex size-9 shrink-0 items-center justify-center rounded-lg text-fg-muted transition-colors hover:bg-bg-muted hover:text-fg md:hidden"
        >
          <MenuIcon className="size-[18px]" />
        </button>
        {/* Mounted from the first opening on, so that closing hands focus back to the button. */}
        {!desktop && (navOpen || sheetUsed) ? (
          <Suspense fallback={null}>
            <Sheet
              open={navOpen}
              onOpenChange={setNavOpen}
              id="app-sidebar"
              title="Navigation"
              initialFocus={closeButtonRef}
              returnFocus={openButtonRef}
            >
              <div className="flex h-14 shrink-0 items-center justify-between border-b border-border px-3">
                <ProductLink alwaysShowName />
                <button
                  ref={closeButtonRef}
                  type="button"
                  aria-label="Close navigation"
                  onClick={() => setNavOpen(false)}
                  className="flex size-9 items-center justify-center rounded-lg text-fg-muted transition-colors hover:bg-bg-muted hover:text-fg"
                >
                  <CloseIcon className="size-[18px]" />
                </button>
              </div>
              <div className="border-b border-border px-3 py-2">
                <OrganizationSwitcher
                  currentId={viewer.organizationId}
                  currentName={viewer.organizationName}
                  organizations={organizations}
                />
              </div>
              {sidebar}
            </Sheet>
          </Suspense>
        ) : null}
        <div
          className={cx("flex min-w-0 items-center gap-1 sm:gap-2", chatRoute && "max-md:hidden")}
        >
          <ProductLink />
          <span aria-hidden="true" className="shrink-0 text-lg font-light text-border-strong">
            /
          </span>
          <OrganizationSwitcher
            currentId={viewer.organizationId}
            currentName={viewer.organizationName}
            organizations={organizations}
          />
        </div>
        <div className="ml-auto shrink-0 pl-1">
          <UserMenu viewer={viewer} />
        </div>
      </header>

      <div className="relative flex min-h-0 flex-1">
        {desktop ? (
          <div
            id="app-sidebar"
            className="flex w-64 shrink-0 flex-col border-r border-border bg-bg-subtle max-md:hidden"
          >
            {sidebar}
          </div>
        ) : null}
        <main id="main" tabIndex={-1} className="min-w-0 flex-1 overflow-y-auto">
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
