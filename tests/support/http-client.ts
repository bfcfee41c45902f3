// A cookie-keeping HTTP client for integration tests: signs up through better-auth's real routes
// and then calls the API as that user.
import { randomUUID } from "node:crypto";

export type RequestOptions = RequestInit & { json?: unknown; origin?: string | null };

export class HttpClient {
  private cookies = new Map<string, string>();
  constructor(readonly baseUrl: string) {}

  /**
   * Sends like a browser on the app's own page: `Origin` is the base URL unless `origin` names
   * another one, or is null for a client that sends none (curl, a server).
   */
  async fetch(path: string, init: RequestOptions = {}): Promise<Response> {
    const { json, origin = this.baseUrl, ...rest } = init;
    const headers = new Headers(rest.headers);
    if (origin !== null) headers.set("origin", origin);
    if (this.cookies.size) {
      headers.set(
        "cookie",
        [...this.cookies].map(([name, value]) => `${name}=${value}`).join("; "),
      );
    }
    let body = rest.body;
    if (json !== undefined) {
      if (!headers.has("content-type")) headers.set("content-type", "application/json");
      body = JSON.stringify(json);
    }
    const response = await fetch(new URL(path, this.baseUrl), { ...rest, headers, body });
    for (const cookie of response.headers.getSetCookie()) {
      const [pair] = cookie.split(";");
      const index = pair?.indexOf("=") ?? -1;
      if (!pair || index < 0) continue;
      const name = pair.slice(0, index).trim();
      const value = pair.slice(index + 1).trim();
      if (value === "" || /max-age=0/i.test(cookie)) this.cookies.delete(name);
      else this.cookies.set(name, value);
    }
    return response;
  }

  /** The Cookie header this client sends (for requests made without fetch). */
  cookieHeader(): string {
    return [...this.cookies].map(([name, value]) => `${name}=${value}`).join("; ");
  }

  async json<T = unknown>(path: string, init: RequestOptions = {}) {
    const response = await this.fetch(path, init);
    const text = await response.text();
    const body = (text ? JSON.parse(text) : null) as T;
    return { status: response.status, body, headers: response.headers };
  }

  /** The same session, talking to another server process. */
  at(baseUrl: string): HttpClient {
    const other = new HttpClient(baseUrl);
    for (const [name, value] of this.cookies) other.cookies.set(name, value);
    return other;
  }

  clearCookies(): void {
    this.cookies.clear();
  }
}

export type SignedUpUser = {
  client: HttpClient;
  userId: string;
  email: string;
  name: string;
  organizationId: string;
};

export async function signUp(baseUrl: string, name = "Test User"): Promise<SignedUpUser> {
  const client = new HttpClient(baseUrl);
  const email = `${name.toLowerCase().replace(/\W+/g, ".")}.${randomUUID().slice(0, 8)}@example.test`;
  const signUpResponse = await client.json<{ user: { id: string } }>("/api/auth/sign-up/email", {
    method: "POST",
    json: { name, email, password: "correct horse battery" },
  });
  if (signUpResponse.status !== 200) {
    throw new Error(
      `sign-up failed: ${signUpResponse.status} ${JSON.stringify(signUpResponse.body)}`,
    );
  }
  const me = await client.json<{ organization: { id: string } }>("/api/me");
  if (me.status !== 200) throw new Error(`/api/me failed: ${me.status}`);
  return {
    client,
    userId: signUpResponse.body.user.id,
    email,
    name,
    organizationId: me.body.organization.id,
  };
}

export async function setActiveOrganization(user: SignedUpUser, organizationId: string) {
  const response = await user.client.json("/api/auth/organization/set-active", {
    method: "POST",
    json: { organizationId },
  });
  if (response.status !== 200) {
    throw new Error(`set-active failed: ${response.status} ${JSON.stringify(response.body)}`);
  }
}
