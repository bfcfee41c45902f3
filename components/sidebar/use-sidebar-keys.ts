"use client";
// Keyboard navigation in the sidebar: ↑/↓ move between workstream links, Home/End jump to the
// first and last, F2 renames the focused workstream when it can be renamed. Keys inside text
// fields, menus and menu buttons keep their own meaning.
import type { KeyboardEvent } from "react";

export function sidebarKeyHandler(onRename: (workstreamId: string) => void) {
  return (event: KeyboardEvent<HTMLElement>) => {
    const target = event.target as HTMLElement;
    if (target.closest("input, textarea, [role='menu'], [aria-haspopup]")) return;
    const items = Array.from(
      event.currentTarget.querySelectorAll<HTMLElement>("[data-sidebar-item]"),
    );
    const index = items.indexOf(target);
    const focus = (next: number) => {
      event.preventDefault();
      items[Math.max(0, Math.min(items.length - 1, next))]?.focus();
    };
    switch (event.key) {
      case "ArrowDown":
        return focus(index < 0 ? 0 : index + 1);
      case "ArrowUp":
        return focus(index < 0 ? items.length - 1 : index - 1);
      case "Home":
        return focus(0);
      case "End":
        return focus(items.length - 1);
      case "F2": {
        const id = target.dataset.workstreamId;
        if (id && target.dataset.renamable !== undefined) {
          event.preventDefault();
          onRename(id);
        }
      }
    }
  };
}
