"use client";
// Create an account: a plain POST form bound to a server action (it works before the page is
// interactive, the password never enters a URL). better-auth signs the new user in and gives
// them an organization of their own; the action then redirects to `/`.
import { useActionState, useEffect } from "react";
import { Button } from "@/components/ui/button";
import { FormAlert } from "@/components/ui/form-alert";
import { PASSWORD_MIN_LENGTH } from "@/lib/auth/password-policy";
import { type AuthFormAction, initialAuthFormState } from "./auth-errors";
import { TextLink } from "./auth-frame";
import { FormField } from "./form-field";

/** `action`: the sign-up server action, handed down by the page that owns the route. */
export function SignUpForm({ action }: { action: AuthFormAction }) {
  const [state, formAction, pending] = useActionState(action, initialAuthFormState());

  // After a failure, put the cursor where the fix goes.
  useEffect(() => {
    if (state.field) document.getElementById(state.field)?.focus();
  }, [state]);

  // A new key after each answer: the fields show what the action echoed back.
  const answer = `${state.values.name ?? ""}\u0000${state.values.email}`;
  return (
    <form noValidate method="post" action={formAction} className="space-y-4">
      <FormAlert>
        {state.error ? (
          <>
            {state.error}
            {state.existingAccount ? (
              <>
                {" "}
                <TextLink href="/sign-in">Sign in instead</TextLink>
              </>
            ) : null}
          </>
        ) : null}
      </FormAlert>
      <FormField
        key={`name-${answer}`}
        id="name"
        name="name"
        label="Name"
        autoComplete="name"
        required
        defaultValue={state.values.name}
        invalid={state.field === "name"}
      />
      <FormField
        key={`email-${answer}`}
        id="email"
        name="email"
        type="email"
        label="Email"
        autoComplete="email"
        inputMode="email"
        autoCapitalize="none"
        spellCheck={false}
        required
        defaultValue={state.values.email}
        invalid={state.field === "email"}
      />
      <FormField
        id="password"
        name="password"
        type="password"
        label="Password"
        autoComplete="new-password"
        required
        hint={`At least ${PASSWORD_MIN_LENGTH} characters, and not a common password.`}
        invalid={state.field === "password"}
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
