import type { Metadata } from "next";
import { AuthCard, TextLink } from "@/components/auth/auth-frame";
import { type DemoLogins, SignInForm } from "@/components/auth/sign-in-form";
import { DEMO_PASSWORD, DEMO_USERS } from "@/lib/auth/demo-seed";
import { redirectIfSignedIn } from "@/lib/auth/page-viewer";
import { signInAction } from "../actions";

export const metadata: Metadata = { title: "Sign in" };

const NOTICES: Record<string, string> = {
  no_organization:
    "Your account doesn't belong to an organization yet. Ask an admin of your organization to invite you.",
};

export default async function SignInPage({
  searchParams,
}: {
  searchParams: Promise<Record<string, string | string[] | undefined>>;
}) {
  await redirectIfSignedIn();
  const { error } = await searchParams;
  const notice = typeof error === "string" ? NOTICES[error] : undefined;
  // The seeded demo logins are a development convenience; production never shows them.
  const demo: DemoLogins | undefined =
    process.env.NODE_ENV !== "production"
      ? { password: DEMO_PASSWORD, users: DEMO_USERS }
      : undefined;

  return (
    <AuthCard
      title="Sign in to Workstreams"
      description="Welcome back. Pick up your workstreams where you left them."
      footer={
        <>
          New to Workstreams? <TextLink href="/sign-up">Create an account</TextLink>
        </>
      }
    >
      <SignInForm action={signInAction} initialError={notice} demo={demo} />
    </AuthCard>
  );
}
