import type { Metadata } from "next";
import { AuthCard, TextLink } from "@/components/auth/auth-frame";
import { SignUpForm } from "@/components/auth/sign-up-form";
import { redirectIfSignedIn } from "@/lib/auth/page-viewer";
import { signUpAction } from "../actions";

export const metadata: Metadata = { title: "Create account" };

export default async function SignUpPage() {
  await redirectIfSignedIn();
  return (
    <AuthCard
      title="Create your account"
      description="You'll get an organization of your own to start in."
      footer={
        <>
          Already have an account? <TextLink href="/sign-in">Sign in</TextLink>
        </>
      }
    >
      <SignUpForm action={signUpAction} />
    </AuthCard>
  );
}
