// Admin console: members with their roles, invitations (with a link to copy) and removal.
import type { Metadata } from "next";
import { headers } from "next/headers";
import { MembersConsole } from "@/components/admin/members-console";
import { listMembersWithUsage } from "@/lib/admin/members";
import { invitationUrl, originOf } from "@/lib/auth/invitation-url";
import { listInvitations } from "@/lib/auth/invitations";
import { getPageViewer } from "@/lib/auth/page-viewer";

export const metadata: Metadata = { title: "Members" };

export default async function AdminMembersPage() {
  const viewer = await getPageViewer();
  const [members, invitations] = await Promise.all([
    listMembersWithUsage({ organizationId: viewer.organizationId }),
    listInvitations({ organizationId: viewer.organizationId }),
  ]);
  const origin = originOf(await headers());
  return (
    <MembersConsole
      viewer={{ userId: viewer.userId, role: viewer.role }}
      initialMembers={members}
      initialInvitations={invitations.map((item) => ({
        ...item,
        url: invitationUrl({ origin, invitationId: item.id }),
      }))}
    />
  );
}
