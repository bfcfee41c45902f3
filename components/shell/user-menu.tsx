"use client";
// The signed-in user's menu: who you are, your role here, and signing out.

import { LogOutIcon as SignOutIcon } from "lucide-react";
import { useSignOut } from "@/components/shell/use-sign-out";
import { Menu, MenuContent, MenuItem, MenuSeparator, MenuTrigger } from "@/components/ui/menu";
import { Spinner } from "@/components/ui/spinner";
import { ActionError } from "./action-error";
import { Avatar } from "./avatar";
import { RoleBadge } from "./role-badge";
import type { ShellViewer } from "./types";

export function UserMenu({ viewer }: { viewer: ShellViewer }) {
  const { signOut, pending, error, dismissError } = useSignOut();
  return (
    <ActionError error={error} onDismiss={dismissError} align="end">
      <Menu>
        <MenuTrigger
          aria-label="User menu"
          className="flex h-9 items-center gap-2 rounded-full p-1 text-sm text-fg-muted transition-colors hover:bg-bg-muted hover:text-fg aria-expanded:bg-bg-muted md:rounded-lg md:pr-2.5"
        >
          {pending ? (
            <span className="flex size-7 items-center justify-center">
              <Spinner />
            </span>
          ) : (
            <Avatar name={viewer.userName} />
          )}
          <span className="hidden max-w-40 truncate font-medium md:block">{viewer.userName}</span>
        </MenuTrigger>
        <MenuContent align="end">
          <div className="flex items-center gap-3 px-2.5 pt-2 pb-2.5">
            <Avatar name={viewer.userName} className="size-9 text-xs" />
            <div className="min-w-0">
              <p className="truncate text-sm font-medium text-fg">{viewer.userName}</p>
              <p className="truncate text-[13px] text-fg-subtle">{viewer.email}</p>
            </div>
          </div>
          <div className="flex items-center justify-between gap-2 px-2.5 pb-2 text-[13px] text-fg-muted">
            <span className="truncate">{viewer.organizationName}</span>
            <RoleBadge role={viewer.role} />
          </div>
          <MenuSeparator />
          <MenuItem onSelect={signOut} disabled={pending}>
            <SignOutIcon className="size-4 text-fg-subtle" />
            Sign out
          </MenuItem>
        </MenuContent>
      </Menu>
    </ActionError>
  );
}
