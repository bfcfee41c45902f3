// The two session changes the signed-in shell makes (sign out, switch organization) as plain
// requests to better-auth's endpoints. The shell is on every page, the chat included, so it does
// not load better-auth's browser client for two POSTs.

export type AuthRequestResult = "ok" | "refused" | "unreachable";

async function postAuth(path: string, body: Record<string, string>): Promise<AuthRequestResult> {
  try {
    const response = await fetch(`/api/auth/${path}`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify(body),
      credentials: "same-origin",
    });
    return response.ok ? "ok" : "refused";
  } catch {
    // fetch rejects only when no response came back at all.
    return "unreachable";
  }
}

export const signOutRequest = () => postAuth("sign-out", {});

export const setActiveOrganizationRequest = (organizationId: string) =>
  postAuth("organization/set-active", { organizationId });
