// The signed-in shell. Loads the viewer and their organizations on the server and hands plain data
// to the client shell; signed-out visitors are sent to /sign-in by getPageViewer.
import type { ReactNode } from "react";
import { AppShell } from "@/components/shell/app-shell";
import { HydrationNotice } from "@/components/shell/hydration-notice";
import { Sidebar } from "@/components/shell/sidebar";
import { SidebarProvider } from "@/components/sidebar/sidebar-provider";
import { WorkstreamsSidebar } from "@/components/sidebar/workstreams-sidebar";
import { listMemberships } from "@/lib/auth/organizations";
import { getPageViewer } from "@/lib/auth/page-viewer";
import { loadSidebar } from "@/lib/workstreams/sidebar";

export default async function AppLayout({ children }: { children: ReactNode }) {
  const viewer = await getPageViewer();
  const [memberships, sidebarData] = await Promise.all([
    listMemberships({ userId: viewer.userId }),
    loadSidebar({
      userId: viewer.userId,
      organizationId: viewer.organizationId,
      role: viewer.role,
    }),
  ]);
  return (
    // Keyed by organization: switching starts the sidebar's state afresh.
    <SidebarProvider key={viewer.organizationId} data={sidebarData}>
      <AppShell
        viewer={{
          userName: viewer.userName,
          email: viewer.email,
          role: viewer.role,
          organizationId: viewer.organizationId,
          organizationName: viewer.organizationName,
        }}
        organizations={memberships.map(({ id, name, role }) => ({ id, name, role }))}
        sidebar={
          <Sidebar>
            <WorkstreamsSidebar />
          </Sidebar>
        }
      >
        {children}
      </AppShell>
      <HydrationNotice devServer={process.env.NODE_ENV === "development"} />
    </SidebarProvider>
  );
}
