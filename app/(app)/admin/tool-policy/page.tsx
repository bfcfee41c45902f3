// Admin console: the organization's tool policy. Each tool an agent can have, whether it asks by
// default, and the organization's rule, checked before any workstream's own settings.
import type { Metadata } from "next";
import { ToolPolicyForm } from "@/components/admin/tool-policy-form";
import { toolPolicyView } from "@/lib/admin/tool-policy";
import { getPageViewer } from "@/lib/auth/page-viewer";

export const metadata: Metadata = { title: "Tool policy" };

export default async function AdminToolPolicyPage() {
  const viewer = await getPageViewer();
  const { tools } = await toolPolicyView(viewer.organizationId);
  return <ToolPolicyForm initial={tools} />;
}
