// Admin console: background jobs that failed after their retries (metadata only).
import type { Metadata } from "next";
import { FailedJobsTable } from "@/components/admin/failed-jobs";
import { jobNames } from "@/inngest/functions";
import { listFailedJobs } from "@/lib/admin/failed-jobs";
import { getPageViewer } from "@/lib/auth/page-viewer";

export const metadata: Metadata = { title: "Background jobs" };

export default async function AdminJobsPage() {
  const viewer = await getPageViewer();
  const failed = await listFailedJobs({
    organizationId: viewer.organizationId,
    jobNames: jobNames(),
  });
  return <FailedJobsTable jobs={failed} />;
}
