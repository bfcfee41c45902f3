"use client";
// The notice a signed-in page shows when its scripts never ran. The server renders it hidden;
// CSS alone reveals it 8 s later (globals.css, .hydration-notice), so it appears even where no
// script runs at all. Hydration removes it: a working page never shows it.
import { useSyncExternalStore } from "react";

const subscribeToNothing = () => () => {};

/** False while the server's HTML is all there is; true once React runs in the browser. */
function useHydrated(): boolean {
  return useSyncExternalStore(
    subscribeToNothing,
    () => true,
    () => false,
  );
}

export function HydrationNotice({ devServer }: { devServer: boolean }) {
  const hydrated = useHydrated();
  if (hydrated) return null;
  return (
    <div
      role="alert"
      className="hydration-notice fixed inset-x-3 top-3 z-50 mx-auto max-w-xl rounded-lg border border-danger-border bg-danger-subtle px-4 py-3 text-[13px] leading-5 text-danger shadow-elevated"
    >
      <p className="font-semibold">This page has not started.</p>
      <p className="mt-1 text-fg">
        Its scripts have not run 8 seconds after it loaded, so buttons and messages will not
        respond.{" "}
        {devServer ? (
          <>
            The likely cause: the page was opened at an address the dev server does not serve its
            scripts to. Open one of the addresses <code className="font-mono">npm run dev</code>{" "}
            prints, or add this one to <code className="font-mono">WORKSTREAMS_DEV_ORIGINS</code>{" "}
            and restart it. A browser or an extension blocking JavaScript has the same effect.
          </>
        ) : (
          <>
            The likely cause: the browser or an extension blocks JavaScript for this site, or the
            network dropped the page's scripts. Reload the page; if this stays, allow scripts for
            this site.
          </>
        )}
      </p>
    </div>
  );
}
