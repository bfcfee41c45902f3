"use client";
import {
  ChevronsUpDownIcon as ChevronUpDownIcon,
  Settings2Icon as SettingsIcon,
} from "lucide-react";
// Switches the session's active organization. better-auth stores the choice on the session; the
// whole tree is then re-rendered from the server, starting at the home page of that organization.
import { useRouter } from "next/navigation";
import { useState, useTransition } from "react";
import { cx } from "@/components/ui/class-names";
import {
  Menu,
  MenuContent,
  MenuItemRadio,
  MenuLinkItem,
  MenuRadioGroup,
  MenuSeparator,
  MenuTrigger,
} from "@/components/ui/menu";
import { Spinner } from "@/components/ui/spinner";
import { ActionError } from "./action-error";
import { setActiveOrganizationRequest } from "./auth-requests";
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
      const result = await setActiveOrganizationRequest(organizationId);
      if (result === "refused") {
        setError("Couldn't switch organization. Try again.");
        return;
      }
      if (result === "unreachable") {
        setError("Couldn't reach Workstreams. Check your connection and try again.");
        return;
      }
      router.push("/");
      router.refresh();
    });
  };

  return (
    <ActionError error={error} onDismiss={() => setError(null)} align="start">
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
          <MenuRadioGroup label="Organizations" value={currentId} onValueChange={switchTo}>
            {organizations.map((organization) => (
              <MenuItemRadio key={organization.id} value={organization.id}>
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
          </MenuRadioGroup>
          <MenuSeparator />
          <MenuLinkItem href={`/organizations/${currentId}`}>
            <SettingsIcon className="size-4 text-fg-subtle" />
            Organization settings
          </MenuLinkItem>
        </MenuContent>
      </Menu>
    </ActionError>
  );
}
