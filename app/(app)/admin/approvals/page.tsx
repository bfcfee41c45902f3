// Admin console: the audit of tool-call decisions, per workstream (metadata only: tool, argument
// hash, decision, source, who and when; never the arguments or a member's reason).
import type { Metadata } from "next";
import { ApprovalAudit } from "@/components/admin/approval-audit";
import { listOrganizationAudit } from "@/lib/approvals/store";
import { getPageViewer } from "@/lib/auth/page-viewer";

export const metadata: Metadata = { title: "Approvals" };

export default async function AdminApprovalsPage() {
  const viewer = await getPageViewer();
  const audits = await listOrganizationAudit({ organizationId: viewer.organizationId });
  return <ApprovalAudit audits={audits} />;
}
