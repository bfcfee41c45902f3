// The admin console: owners and admins of the active organization only; anyone else gets the
// not-found page (the console's existence is not advertised to members).
import type { Metadata } from "next";
import { notFound } from "next/navigation";
import type { ReactNode } from "react";
import { AdminTabs } from "@/components/admin/admin-tabs";
import { PageHeader } from "@/components/shell/page-header";
import { getPageViewer } from "@/lib/auth/page-viewer";

export const metadata: Metadata = { title: { default: "Admin console", template: "%s · Admin" } };

export default async function AdminLayout({ children }: { children: ReactNode }) {
  const viewer = await getPageViewer();
  if (viewer.role !== "owner" && viewer.role !== "admin") notFound();
  return (
    <div className="mx-auto w-full max-w-6xl px-4 py-8 sm:px-8 sm:py-10">
      <PageHeader
        eyebrow={viewer.organizationName}
        title="Admin console"
        description="Every workstream in the organization, its usage, its members and its shared memories. You see metadata, never message content or members' own memories."
      />
      <AdminTabs />
      <div className="mt-6">{children}</div>
    </div>
  );
}
