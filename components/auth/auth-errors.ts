// better-auth answers failures with `{ code, message }`; people should read plain words instead.
import { PASSWORD_MAX_LENGTH, PASSWORD_MIN_LENGTH } from "@/lib/auth/password-policy";

export type AuthFailure = {
  code?: string | undefined;
  message?: string | undefined;
  status?: number;
};

export const NETWORK_ERROR = "Couldn't reach Workstreams. Check your connection and try again.";

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

/** A light check before asking the server; the server decides. */
export function looksLikeEmail(value: string): boolean {
  return /^[^\s@]+@[^\s@]+\.[^\s@]+$/.test(value);
}
