// Unknown addresses anywhere in the app.
import type { Metadata } from "next";
import { AuthFrame } from "@/components/auth/auth-frame";
import { NotFoundMessage } from "@/components/shell/not-found-message";

export const metadata: Metadata = { title: "Page not found" };

export default function NotFound() {
  return (
    <AuthFrame>
      <NotFoundMessage />
    </AuthFrame>
  );
}
