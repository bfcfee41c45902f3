// The signed-in home opens the user's direct workstream with the chief (created idempotently: its
// id is derived from the member and the agent), so a new user lands in a conversation, not an
// empty page.
import { redirect } from "next/navigation";
import { getPageViewer } from "@/lib/auth/page-viewer";
import { config } from "@/lib/config";
import { ensureDirectWorkstream } from "@/lib/workstreams/queries";

export default async function HomePage() {
  const viewer = await getPageViewer();
  const workstream = await ensureDirectWorkstream({ viewer, agentId: config.defaultAgentId });
  redirect(`/w/${encodeURIComponent(workstream.id)}`);
}
