// Admin console: the models this server is configured with, and a check that calls each of them
// (stream, tool call, strict structured output, embedding). The result is shown, never kept.
import type { Metadata } from "next";
import { ModelCheck } from "@/components/admin/model-check";

export const metadata: Metadata = { title: "Models" };

export default function AdminModelsPage() {
  return <ModelCheck />;
}
