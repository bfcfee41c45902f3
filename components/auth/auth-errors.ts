// better-auth answers failures with `{ code, message }`; people should read plain words instead.
// Also the checks a form makes before asking better-auth, and the state the forms' server actions
// answer with (app/(auth)/actions.ts).
import { PASSWORD_MAX_LENGTH, PASSWORD_MIN_LENGTH } from "@/lib/auth/password-policy";

export type AuthFailure = {
  code?: string | undefined;
  message?: string | undefined;
  status?: number;
};

export type AuthField = "name" | "email" | "password";

/** What a sign-in or sign-up form shows after its action ran (the password is never echoed). */
export type AuthFormState = {
  error: string | null;
  field: AuthField | null;
  /** The email already has an account: the form offers to sign in instead. */
  existingAccount: boolean;
  values: { email: string; name?: string | undefined };
};

/** A server action the auth forms post to (the pages pass it in). */
export type AuthFormAction = (state: AuthFormState, form: FormData) => Promise<AuthFormState>;

export function initialAuthFormState(error: string | null = null): AuthFormState {
  return { error, field: null, existingAccount: false, values: { email: "" } };
}

export function describeAuthError(error: AuthFailure): string {
  if (error.status === 429) return "Too many attempts. Wait a few seconds and try again.";
  switch (error.code) {
    case "INVALID_EMAIL_OR_PASSWORD":
    case "INVALID_PASSWORD":
    case "USER_NOT_FOUND":
    case "CREDENTIAL_ACCOUNT_NOT_FOUND":
      return "Wrong email or password.";
    case "INVALID_EMAIL":
      return "Enter a valid email address.";
    case "USER_ALREADY_EXISTS":
    case "USER_ALREADY_EXISTS_USE_ANOTHER_EMAIL":
      return "An account with this email already exists.";
    case "PASSWORD_TOO_SHORT":
      return `Use at least ${PASSWORD_MIN_LENGTH} characters for your password.`;
    case "PASSWORD_TOO_LONG":
      return `Use at most ${PASSWORD_MAX_LENGTH} characters for your password.`;
    case "PASSWORD_TOO_WEAK":
      // Our own policy's message is already written for people ("This password is too common.").
      return `Choose a stronger password. ${error.message ?? ""}`.trim();
    default:
      return "Something went wrong. Try again in a moment.";
  }
}

export function isExistingAccount(error: AuthFailure): boolean {
  return (
    error.code === "USER_ALREADY_EXISTS" || error.code === "USER_ALREADY_EXISTS_USE_ANOTHER_EMAIL"
  );
}

/** The field a failure is about, to mark it invalid. */
export function fieldOfFailure(failure: AuthFailure): AuthField | null {
  if (failure.code?.startsWith("PASSWORD_")) return "password";
  if (failure.code === "INVALID_EMAIL" || isExistingAccount(failure)) return "email";
  return null;
}

/** A light check before asking the server; the server decides. */
export function looksLikeEmail(value: string): boolean {
  return /^[^\s@]+@[^\s@]+\.[^\s@]+$/.test(value);
}

type Problem = { field: AuthField; error: string };

export function validateSignIn({ email, password }: { email: string; password: string }) {
  if (!email) return { field: "email", error: "Enter your email address." } satisfies Problem;
  if (!password) return { field: "password", error: "Enter your password." } satisfies Problem;
  return null;
}

export function validateSignUp(values: Record<AuthField, string>): Problem | null {
  if (!values.name) return { field: "name", error: "Enter your name." };
  if (!looksLikeEmail(values.email)) {
    return { field: "email", error: "Enter a valid email address." };
  }
  if (values.password.length < PASSWORD_MIN_LENGTH) {
    return {
      field: "password",
      error: `Use at least ${PASSWORD_MIN_LENGTH} characters for your password.`,
    };
  }
  if (values.password.length > PASSWORD_MAX_LENGTH) {
    return {
      field: "password",
      error: `Use at most ${PASSWORD_MAX_LENGTH} characters for your password.`,
    };
  }
  return null;
}
