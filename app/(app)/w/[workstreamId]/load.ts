// The workstream a /w/<id> page shows, loaded once per request for the layout (which checks it
// before anything streams) and the page. Another person's, a deleted or a missing workstream is
// a 404.
import { notFound } from "next/navigation";
import { cache } from "react";
import { getPageViewer } from "@/lib/auth/page-viewer";
import { isAppError } from "@/lib/kernel/errors";
import { getOwnedWorkstream } from "@/lib/workstreams/queries";

export const loadWorkstream = cache(async (workstreamId: string) => {
  const viewer = await getPageViewer();
  try {
    return await getOwnedWorkstream({ viewer, workstreamId });
  } catch (error) {
    if (isAppError(error) && error.code === "not_found:workstream") notFound();
    throw error;
  }
});
