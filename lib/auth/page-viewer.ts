// The viewer of a server-rendered page: redirects to sign-in when signed out. Cached per request
// so the layout and the page share one lookup.
import "server-only";
import { headers } from "next/headers";
import { redirect } from "next/navigation";
import { cache } from "react";
import { resolveViewer, type Viewer } from "./viewer";

export const getPageViewer = cache(async (): Promise<Viewer> => {
  const result = await resolveViewer(await headers());
  if (result.ok) return result.viewer;
  if (result.reason === "signed_out") redirect("/sign-in");
  redirect("/sign-in?error=no_organization");
});

/** For the sign-in and sign-up pages: a viewer who is already signed in goes home. */
export async function redirectIfSignedIn(): Promise<void> {
  const result = await resolveViewer(await headers());
  if (result.ok) redirect("/");
}
