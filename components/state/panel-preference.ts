// Whether the context panel is open beside the chat, remembered per browser in a cookie so the
// server renders the chat page with the panel as it was left (no jump after loading). Read by the
// chat page on the server, written by the panel's toggle.

export const CONTEXT_PANEL_COOKIE = "workstreams-context-panel";

/** Open unless the member closed it: the panel is how they see what the agent keeps. */
export function panelOpenFromCookie(value: string | undefined): boolean {
  return value !== "closed";
}

export function rememberPanelOpen(open: boolean): void {
  const year = 60 * 60 * 24 * 365;
  // biome-ignore lint/suspicious/noDocumentCookie: one plain preference; the Cookie Store API is missing in Safari < 18.4.
  document.cookie = `${CONTEXT_PANEL_COOKIE}=${open ? "open" : "closed"}; path=/; max-age=${year}; samesite=lax`;
}
