// Admin console: the organization's memories (never a member's own), with search, edit, delete
// and add.
import type { Metadata } from "next";
import { MemoriesConsole } from "@/components/admin/memories-console";
import { getPageViewer } from "@/lib/auth/page-viewer";
import { config } from "@/lib/config";
import { listMemories } from "@/lib/memory/store";
import { organizationMemoryView } from "@/lib/memory/views";

export const metadata: Metadata = { title: "Memories" };

export default async function AdminMemoriesPage() {
  const viewer = await getPageViewer();
  const { memories, hasMore } = await listMemories({
    owner: { organizationId: viewer.organizationId, userId: null },
    limit: 50,
  });
  return (
    <MemoriesConsole
      initial={{ memories: memories.map(organizationMemoryView), hasMore }}
      textMaxChars={config.memory.textMaxChars}
    />
  );
}
