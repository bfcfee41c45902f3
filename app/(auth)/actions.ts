"use server";
// Sign-in and sign-up as server actions, so the forms work as plain `<form method="post">`
// before the page is interactive (or without JavaScript): the password travels in a POST body,
// never in a URL. They go through better-auth's own request handler rather than `auth.api`,
// because the handler is where its origin check and its sign-in rate limit live; the session
// cookies it answers with are copied onto the action's response.
import { parseSetCookieHeader, toCookieOptions } from "better-auth/cookies";
import { cookies, headers } from "next/headers";
import { redirect } from "next/navigation";
import {
  type AuthFailure,
  type AuthFormState,
  describeAuthError,
  fieldOfFailure,
  isExistingAccount,
  validateSignIn,
  validateSignUp,
} from "@/components/auth/auth-errors";
import { getAuth } from "@/lib/auth/auth";
import { headersForAuth } from "@/lib/http/proxy";

// What better-auth needs from the browser's request: the session, where it came from (origin
// check), and who sent it (rate limit, session metadata).
const FORWARDED = [
  "cookie",
  "origin",
  "referer",
  "host",
  "user-agent",
  "accept-language",
  "x-forwarded-for",
  "x-forwarded-host",
  "x-forwarded-proto",
];

async function callAuth(
  path: "/sign-in/email" | "/sign-up/email",
  body: Record<string, string>,
): Promise<AuthFailure | null> {
  const incoming = await headers();
  const picked = new Headers({ "content-type": "application/json" });
  for (const name of FORWARDED) {
    const value = incoming.get(name);
    if (value) picked.set(name, value);
  }
  // The client's address as the app decides it (lib/http/proxy), like the auth route does.
  const forwarded = headersForAuth(picked);
  const host = incoming.get("host") ?? "localhost";
  const base = process.env.BETTER_AUTH_URL ?? `http://${host}`;
  const auth = await getAuth(incoming);
  const response = await auth.handler(
    new Request(new URL(`/api/auth${path}`, base), {
      method: "POST",
      headers: forwarded,
      body: JSON.stringify(body),
    }),
  );
  const setCookie = response.headers.get("set-cookie");
  if (setCookie) {
    const jar = await cookies();
    for (const [name, cookie] of parseSetCookieHeader(setCookie)) {
      jar.set(name, cookie.value, toCookieOptions(cookie));
    }
  }
  if (response.ok) return null;
  const answer: unknown = await response.json().catch(() => null);
  const read = (key: "code" | "message") =>
    answer && typeof answer === "object" && key in answer
      ? String((answer as Record<string, unknown>)[key])
      : undefined;
  return { code: read("code"), message: read("message"), status: response.status };
}

function failed(failure: AuthFailure, email: string, name?: string): AuthFormState {
  return {
    error: describeAuthError(failure),
    field: fieldOfFailure(failure),
    existingAccount: isExistingAccount(failure),
    values: { email, name },
  };
}

export async function signInAction(_state: AuthFormState, form: FormData): Promise<AuthFormState> {
  const email = String(form.get("email") ?? "").trim();
  const password = String(form.get("password") ?? "");
  const problem = validateSignIn({ email, password });
  if (problem) return { ...problem, existingAccount: false, values: { email } };
  const failure = await callAuth("/sign-in/email", { email, password });
  if (failure) return { ...failed(failure, email), field: "password" };
  redirect("/");
}

export async function signUpAction(_state: AuthFormState, form: FormData): Promise<AuthFormState> {
  const values = {
    name: String(form.get("name") ?? "").trim(),
    email: String(form.get("email") ?? "").trim(),
    password: String(form.get("password") ?? ""),
  };
  const problem = validateSignUp(values);
  if (problem) {
    return {
      ...problem,
      existingAccount: false,
      values: { email: values.email, name: values.name },
    };
  }
  const failure = await callAuth("/sign-up/email", values);
  if (failure) return failed(failure, values.email, values.name);
  redirect("/");
}
