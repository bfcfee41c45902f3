"use client";
import { useSyncExternalStore } from "react";

/**
 * Whether a media query matches, kept current. The server (and hydration) assume `serverValue`,
 * so markup that depends on it must also be correct under CSS alone for the other case.
 */
export function useMediaQuery(query: string, serverValue: boolean): boolean {
  return useSyncExternalStore(
    (onChange) => {
      const list = window.matchMedia(query);
      list.addEventListener("change", onChange);
      return () => list.removeEventListener("change", onChange);
    },
    () => window.matchMedia(query).matches,
    () => serverValue,
  );
}
