// notFound() inside the signed-in app keeps the shell around the message.
import type { Metadata } from "next";
import { NotFoundMessage } from "@/components/shell/not-found-message";

export const metadata: Metadata = { title: "Page not found" };

export default function NotFound() {
  return <NotFoundMessage />;
}
