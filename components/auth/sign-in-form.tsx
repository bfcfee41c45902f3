"use client";
// Email + password sign-in: a plain POST form bound to a server action, so it works (and keeps
// the password out of the URL) before the page is interactive. With JavaScript the same action
// runs without a reload and its error shows inline; on success the action redirects to `/`.
import { useActionState, useEffect, useRef } from "react";
import { Button } from "@/components/ui/button";
import { FormAlert } from "@/components/ui/form-alert";
import { type AuthFormAction, initialAuthFormState } from "./auth-errors";
import { FormField } from "./form-field";

export type DemoLogins = {
  password: string;
  users: ReadonlyArray<{ email: string; name: string; role: string }>;
};

/** `action`: the sign-in server action, handed down by the page that owns the route. */
export function SignInForm({
  action,
  initialError,
  demo,
}: {
  action: AuthFormAction;
  initialError?: string;
  demo?: DemoLogins;
}) {
  const [state, formAction, pending] = useActionState(
    action,
    initialAuthFormState(initialError ?? null),
  );
  const emailRef = useRef<HTMLInputElement>(null);
  const passwordRef = useRef<HTMLInputElement>(null);

  // After a failure, put the cursor where the fix goes.
  useEffect(() => {
    if (state.field === "email") emailRef.current?.focus();
    if (state.field === "password") passwordRef.current?.select();
  }, [state]);

  return (
    <>
      <form noValidate method="post" action={formAction} className="space-y-4">
        <FormAlert>{state.error}</FormAlert>
        <FormField
          ref={emailRef}
          id="email"
          name="email"
          type="email"
          label="Email"
          autoComplete="email"
          inputMode="email"
          autoCapitalize="none"
          spellCheck={false}
          required
          // A new key after each answer: the field shows what the action echoed back.
          key={`email-${state.values.email}`}
          defaultValue={state.values.email}
          invalid={state.field === "email"}
        />
        <FormField
          ref={passwordRef}
          id="password"
          name="password"
          type="password"
          label="Password"
          autoComplete="current-password"
          required
          invalid={state.field === "password"}
        />
        <Button
          type="submit"
          size="lg"
          className="w-full"
          pending={pending}
          pendingLabel="Signing in…"
        >
          Sign in
        </Button>
      </form>
      {demo ? (
        <DemoLoginHint
          demo={demo}
          onUse={(email) => {
            if (emailRef.current) emailRef.current.value = email;
            if (passwordRef.current) passwordRef.current.value = demo.password;
          }}
        />
      ) : null}
    </>
  );
}

function DemoLoginHint({ demo, onUse }: { demo: DemoLogins; onUse: (email: string) => void }) {
  return (
    <aside
      aria-labelledby="demo-logins-title"
      className="mt-6 rounded-xl border border-dashed border-border-strong bg-bg-subtle p-4"
    >
      <h2 id="demo-logins-title" className="text-[13px] font-medium text-fg">
        Demo logins
        <span className="ml-2 font-normal text-fg-subtle">development only</span>
      </h2>
      <ul className="mt-2.5 space-y-1.5">
        {demo.users.map((user) => (
          <li key={user.email} className="flex items-center justify-between gap-3 text-[13px]">
            <span className="min-w-0">
              <span className="block truncate font-mono text-xs text-fg">{user.email}</span>
              <span className="text-fg-subtle">
                {user.name} · {user.role}
              </span>
            </span>
            <Button
              variant="secondary"
              size="sm"
              onClick={() => onUse(user.email)}
              aria-label={`Use the ${user.role} demo login`}
            >
              Use
            </Button>
          </li>
        ))}
      </ul>
      <p className="mt-2.5 text-[13px] text-fg-subtle">
        Password: <span className="font-mono text-xs text-fg">{demo.password}</span>
      </p>
    </aside>
  );
}
