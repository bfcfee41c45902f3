"use client";
// Email + password sign-in. On success the whole app re-renders from the server at `/`.
import { useRouter } from "next/navigation";
import { type FormEvent, useRef, useState } from "react";
import { Button } from "@/components/ui/button";
import { FormAlert } from "@/components/ui/form-alert";
import { authClient } from "@/lib/auth/client";
import { type AuthFailure, describeAuthError, NETWORK_ERROR } from "./auth-errors";
import { FormField } from "./form-field";

export type DemoLogins = {
  password: string;
  users: ReadonlyArray<{ email: string; name: string; role: string }>;
};

export function SignInForm({ initialError, demo }: { initialError?: string; demo?: DemoLogins }) {
  const router = useRouter();
  const [email, setEmail] = useState("");
  const [password, setPassword] = useState("");
  const [error, setError] = useState<string | null>(initialError ?? null);
  const [invalid, setInvalid] = useState<"email" | "password" | null>(null);
  const [pending, setPending] = useState(false);
  const passwordRef = useRef<HTMLInputElement>(null);

  const onSubmit = async (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    if (pending) return;
    const trimmedEmail = email.trim();
    if (!trimmedEmail || !password) {
      setInvalid(trimmedEmail ? "password" : "email");
      setError(trimmedEmail ? "Enter your password." : "Enter your email address.");
      return;
    }
    setError(null);
    setInvalid(null);
    setPending(true);
    let failure: AuthFailure | null = null;
    try {
      const result = await authClient.signIn.email({ email: trimmedEmail, password });
      failure = result.error;
    } catch {
      setError(NETWORK_ERROR);
      setPending(false);
      return;
    }
    if (failure) {
      setError(describeAuthError(failure));
      setPending(false);
      passwordRef.current?.select();
      return;
    }
    // Stay pending while the signed-in app loads.
    router.replace("/");
    router.refresh();
  };

  return (
    <>
      <form noValidate onSubmit={onSubmit} className="space-y-4">
        <FormAlert>{error}</FormAlert>
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
          value={email}
          onChange={(event) => setEmail(event.target.value)}
          invalid={invalid === "email"}
        />
        <FormField
          ref={passwordRef}
          id="password"
          name="password"
          type="password"
          label="Password"
          autoComplete="current-password"
          required
          value={password}
          onChange={(event) => setPassword(event.target.value)}
          invalid={invalid === "password"}
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
          onUse={(user) => {
            setEmail(user);
            setPassword(demo.password);
            setError(null);
            setInvalid(null);
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
