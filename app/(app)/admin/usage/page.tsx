// Admin console: tokens and cost of the organization's turns, per member and per day.
import type { Metadata } from "next";
import { UsageConsole } from "@/components/admin/usage-console";
import { getOrganizationUsage } from "@/lib/admin/usage";
import { getPageViewer } from "@/lib/auth/page-viewer";

export const metadata: Metadata = { title: "Usage" };

const DAYS = 30;

export default async function AdminUsagePage() {
  const viewer = await getPageViewer();
  const rows = await getOrganizationUsage({ organizationId: viewer.organizationId, days: DAYS });
  return <UsageConsole rows={rows} days={DAYS} />;
}
