// The member's memories: their own (learned from their conversations) and the organization's.
import type { Metadata } from "next";
import { LearningFailureNotice } from "@/components/memory/learning-failure";
import { MemoriesView } from "@/components/memory/memories-view";
import { PageHeader } from "@/components/shell/page-header";
import { getPageViewer } from "@/lib/auth/page-viewer";
import { config, listAgents } from "@/lib/config";
import { learningFailure } from "@/lib/memory/learning-status";
import { listMemories } from "@/lib/memory/store";
import { organizationMemoryView, ownMemoryView } from "@/lib/memory/views";

export const metadata: Metadata = { title: "Memories" };

const PAGE = 30;

export default async function MemoriesPage() {
  const viewer = await getPageViewer();
  const [own, organization, failing] = await Promise.all([
    listMemories({
      owner: { organizationId: viewer.organizationId, userId: viewer.userId },
      limit: PAGE,
    }),
    listMemories({ owner: { organizationId: viewer.organizationId, userId: null }, limit: PAGE }),
    learningFailure({ organizationId: viewer.organizationId, userId: viewer.userId }),
  ]);
  return (
    <div className="mx-auto w-full max-w-4xl px-4 py-8 sm:px-8 sm:py-10">
      <PageHeader
        eyebrow={viewer.organizationName}
        title="Memories"
        description="What your agents know about you across workstreams. The important ones are in every conversation; the rest come up when they match what you ask."
      />
      <div className="mt-8 space-y-4">
        <LearningFailureNotice failure={failing} />
        <MemoriesView
          initial={{
            own: { memories: own.memories.map(ownMemoryView), hasMore: own.hasMore },
            organization: {
              memories: organization.memories.map(organizationMemoryView),
              hasMore: organization.hasMore,
            },
          }}
          organizationName={viewer.organizationName}
          textMaxChars={config.memory.textMaxChars}
          agentNames={Object.fromEntries(listAgents().map((agent) => [agent.id, agent.name]))}
        />
      </div>
    </div>
  );
}
