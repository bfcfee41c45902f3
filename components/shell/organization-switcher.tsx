"use client";
// Switches the session's active organization. better-auth stores the choice on the session; the
// whole tree is then re-rendered from the server, starting at the home page of that organization.
import { useRouter } from "next/navigation";
import { useState, useTransition } from "react";
import { cx } from "@/components/ui/class-names";
import { ChevronUpDownIcon, SettingsIcon } from "@/components/ui/icons";
import {
  Menu,
  MenuContent,
  MenuGroup,
  MenuItemRadio,
  MenuLinkItem,
  MenuSeparator,
  MenuTrigger,
} from "@/components/ui/menu";
import { Spinner } from "@/components/ui/spinner";
import { authClient } from "@/lib/auth/client";
import { ROLE_LABELS } from "./names";
import type { ShellOrganization } from "./types";

export function OrganizationMark({ name, className }: { name: string; className?: string }) {
  return (
    <span
      aria-hidden="true"
      className={cx(
        "flex size-6 shrink-0 items-center justify-center rounded-md bg-accent text-[11px] font-semibold text-accent-fg",
        className,
      )}
    >
      {name.trim()[0]?.toUpperCase() ?? "?"}
    </span>
  );
}

export function OrganizationSwitcher({
  currentId,
  currentName,
  organizations,
}: {
  currentId: string;
  currentName: string;
  organizations: ShellOrganization[];
}) {
  const router = useRouter();
  const [pending, startTransition] = useTransition();
  const [error, setError] = useState<string | null>(null);

  const switchTo = (organizationId: string) => {
    setError(null);
    startTransition(async () => {
      try {
        const result = await authClient.organization.setActive({ organizationId });
        if (result.error) {
          setError("Couldn't switch organization. Try again.");
          return;
        }
      } catch {
        setError("Couldn't reach Workstreams. Check your connection and try again.");
        return;
      }
      router.push("/");
      router.refresh();
    });
  };

  return (
    <Menu className="min-w-0">
      <MenuTrigger
        aria-label="Organization"
        aria-busy={pending || undefined}
        className="flex h-9 min-w-0 max-w-full items-center gap-2 rounded-lg px-1.5 text-sm font-medium text-fg transition-colors hover:bg-bg-muted aria-expanded:bg-bg-muted sm:px-2"
      >
        <OrganizationMark name={currentName} className="max-sm:hidden" />
        <span className="truncate">{currentName}</span>
        {pending ? (
          <Spinner className="size-3.5 shrink-0 text-fg-subtle" />
        ) : (
          <ChevronUpDownIcon className="size-3.5 shrink-0 text-fg-subtle" />
        )}
      </MenuTrigger>
      <MenuContent>
        <MenuGroup label="Organizations">
          {organizations.map((organization) => (
            <MenuItemRadio
              key={organization.id}
              checked={organization.id === currentId}
              onSelect={() => switchTo(organization.id)}
            >
              <span className="flex min-w-0 items-center gap-2.5">
                <OrganizationMark name={organization.name} className="size-5 text-[10px]" />
                <span className="min-w-0">
                  <span className="block truncate">{organization.name}</span>
                  <span className="block text-xs text-fg-subtle">
                    {ROLE_LABELS[organization.role]}
                  </span>
                </span>
              </span>
            </MenuItemRadio>
          ))}
        </MenuGroup>
        <MenuSeparator />
        <MenuLinkItem href={`/organizations/${currentId}`}>
          <SettingsIcon className="size-4 text-fg-subtle" />
          Organization settings
        </MenuLinkItem>
      </MenuContent>
      {error ? (
        <p
          role="alert"
          className="absolute top-full left-0 z-40 mt-1.5 w-64 rounded-lg border border-danger-border bg-danger-subtle px-3 py-2 text-[13px] text-danger"
        >
          {error}
        </p>
      ) : null}
    </Menu>
  );
}
