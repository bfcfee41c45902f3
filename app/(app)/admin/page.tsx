// Admin console: the organization's workstreams with owner, status, usage and running state.
import type { Metadata } from "next";
import { WorkstreamsConsole } from "@/components/admin/workstreams-console";
import { organizationOverview } from "@/lib/admin/overview";
import { ADMIN_SEARCH_MAX_CHARS, listOrganizationWorkstreams } from "@/lib/admin/workstreams";
import { getPageViewer } from "@/lib/auth/page-viewer";

export const metadata: Metadata = { title: "Workstreams" };

export default async function AdminWorkstreamsPage() {
  const viewer = await getPageViewer();
  const [list, overview] = await Promise.all([
    listOrganizationWorkstreams({ organizationId: viewer.organizationId }),
    organizationOverview({ organizationId: viewer.organizationId }),
  ]);
  return (
    <WorkstreamsConsole initial={{ ...list, overview }} searchMaxChars={ADMIN_SEARCH_MAX_CHARS} />
  );
}
