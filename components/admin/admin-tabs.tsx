"use client";
// The admin console's sections as tabs-looking links (each is its own page).
import Link from "next/link";
import { usePathname } from "next/navigation";
import { useEffect, useRef } from "react";
import { cx } from "@/components/ui/class-names";

const TABS = [
  { href: "/admin", label: "Workstreams" },
  { href: "/admin/usage", label: "Usage" },
  { href: "/admin/members", label: "Members" },
  { href: "/admin/memories", label: "Memories" },
  { href: "/admin/jobs", label: "Background jobs" },
  { href: "/admin/approvals", label: "Approvals" },
  { href: "/admin/tool-policy", label: "Tool policy" },
  { href: "/admin/models", label: "Models" },
] as const;

export function AdminTabs() {
  const pathname = usePathname();
  const nav = useRef<HTMLElement>(null);
  // On a phone the current tab may sit beyond the row's edge: bring it into view.
  // biome-ignore lint/correctness/useExhaustiveDependencies: again whenever the page changes
  useEffect(() => {
    const current = nav.current?.querySelector<HTMLElement>('[aria-current="page"]');
    current?.scrollIntoView({ block: "nearest", inline: "nearest" });
  }, [pathname]);
  return (
    // Phones: the tabs scroll sideways rather than wrap.
    <nav
      ref={nav}
      aria-label="Admin console"
      className="mt-6 flex gap-1 overflow-x-auto border-b border-border [scrollbar-width:none]"
    >
      {TABS.map((tab) => {
        const active = pathname === tab.href;
        return (
          <Link
            key={tab.href}
            href={tab.href}
            aria-current={active ? "page" : undefined}
            className={cx(
              "-mb-px shrink-0 border-b-2 px-3 pb-2.5 pt-1 text-sm font-medium whitespace-nowrap transition-colors",
              active
                ? "border-accent text-fg"
                : "border-transparent text-fg-muted hover:border-border-strong hover:text-fg",
            )}
          >
            {tab.label}
          </Link>
        );
      })}
    </nav>
  );
}
