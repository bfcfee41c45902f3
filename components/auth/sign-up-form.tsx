"use client";
// Create an account. better-auth signs the new user in and gives them an organization of their own.
import { useRouter } from "next/navigation";
import { type FormEvent, type ReactNode, useState } from "react";
import { Button } from "@/components/ui/button";
import { FormAlert } from "@/components/ui/form-alert";
import { authClient } from "@/lib/auth/client";
import { PASSWORD_MAX_LENGTH, PASSWORD_MIN_LENGTH } from "@/lib/auth/password-policy";
import {
  type AuthFailure,
  describeAuthError,
  isExistingAccount,
  looksLikeEmail,
  NETWORK_ERROR,
} from "./auth-errors";
import { TextLink } from "./auth-frame";
import { FormField } from "./form-field";

type Field = "name" | "email" | "password";

function validate(values: Record<Field, string>): { field: Field; message: string } | null {
  if (!values.name.trim()) return { field: "name", message: "Enter your name." };
  if (!looksLikeEmail(values.email.trim())) {
    return { field: "email", message: "Enter a valid email address." };
  }
  if (values.password.length < PASSWORD_MIN_LENGTH) {
    return {
      field: "password",
      message: `Use at least ${PASSWORD_MIN_LENGTH} characters for your password.`,
    };
  }
  if (values.password.length > PASSWORD_MAX_LENGTH) {
    return {
      field: "password",
      message: `Use at most ${PASSWORD_MAX_LENGTH} characters for your password.`,
    };
  }
  return null;
}

function fieldOf(failure: AuthFailure): Field | null {
  if (failure.code?.startsWith("PASSWORD_")) return "password";
  if (failure.code === "INVALID_EMAIL" || isExistingAccount(failure)) return "email";
  return null;
}

export function SignUpForm() {
  const router = useRouter();
  const [error, setError] = useState<ReactNode>(null);
  const [invalid, setInvalid] = useState<Field | null>(null);
  const [pending, setPending] = useState(false);

  const onSubmit = async (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    if (pending) return;
    const data = new FormData(event.currentTarget);
    const values = {
      name: String(data.get("name") ?? ""),
      email: String(data.get("email") ?? ""),
      password: String(data.get("password") ?? ""),
    };
    const problem = validate(values);
    if (problem) {
      setInvalid(problem.field);
      setError(problem.message);
      document.getElementById(problem.field)?.focus();
      return;
    }
    setError(null);
    setInvalid(null);
    setPending(true);
    let failure: AuthFailure | null = null;
    try {
      const result = await authClient.signUp.email({
        name: values.name.trim(),
        email: values.email.trim(),
        password: values.password,
      });
      failure = result.error;
    } catch {
      setError(NETWORK_ERROR);
      setPending(false);
      return;
    }
    if (failure) {
      setInvalid(fieldOf(failure));
      setError(
        isExistingAccount(failure) ? (
          <>
            {describeAuthError(failure)} <TextLink href="/sign-in">Sign in instead</TextLink>
          </>
        ) : (
          describeAuthError(failure)
        ),
      );
      setPending(false);
      return;
    }
    router.replace("/");
    router.refresh();
  };

  return (
    <form noValidate onSubmit={onSubmit} className="space-y-4">
      <FormAlert>{error}</FormAlert>
      <FormField
        id="name"
        name="name"
        label="Name"
        autoComplete="name"
        required
        invalid={invalid === "name"}
      />
      <FormField
        id="email"
        name="email"
        type="email"
        label="Email"
        autoComplete="email"
        inputMode="email"
        autoCapitalize="none"
        spellCheck={false}
        required
        invalid={invalid === "email"}
      />
      <FormField
        id="password"
        name="password"
        type="password"
        label="Password"
        autoComplete="new-password"
        required
        hint={`At least ${PASSWORD_MIN_LENGTH} characters, and not a common password.`}
        invalid={invalid === "password"}
      />
      <Button
        type="submit"
        size="lg"
        className="w-full"
        pending={pending}
        pendingLabel="Creating account…"
      >
        Create account
      </Button>
    </form>
  );
}
