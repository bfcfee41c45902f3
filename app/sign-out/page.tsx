// Signing out is a POST (through better-auth's client), so this page asks before doing it.
import type { Metadata } from "next";
import { headers } from "next/headers";
import { redirect } from "next/navigation";
import { AuthCard, AuthFrame, TextLink } from "@/components/auth/auth-frame";
import { SignOutButton } from "@/components/auth/sign-out-button";
import { resolveViewer } from "@/lib/auth/viewer";

export const metadata: Metadata = { title: "Sign out" };

export default async function SignOutPage() {
  const result = await resolveViewer(await headers());
  if (!result.ok && result.reason === "signed_out") redirect("/sign-in");
  const email = result.ok ? result.viewer.email : null;
  return (
    <AuthFrame>
      <AuthCard
        title="Sign out"
        description={
          email ? (
            <>
              You're signed in as <span className="font-medium text-fg">{email}</span>.
            </>
          ) : (
            "Sign out of Workstreams on this device."
          )
        }
        footer={<TextLink href="/">Back to Workstreams</TextLink>}
      >
        <SignOutButton />
      </AuthCard>
    </AuthFrame>
  );
}
