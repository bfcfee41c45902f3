// Signed-out pages: sign in, sign up. Each page sends a viewer who is already signed in home.
import type { ReactNode } from "react";
import { AuthFrame } from "@/components/auth/auth-frame";

export default function AuthLayout({ children }: { children: ReactNode }) {
  return <AuthFrame>{children}</AuthFrame>;
}
