// An organization's page: its name, your role and its members. Only members may see it; anyone
// else gets the same not-found page as for an organization that does not exist.
import type { Metadata } from "next";
import { notFound } from "next/navigation";
import { Avatar } from "@/components/shell/avatar";
import { PageHeader } from "@/components/shell/page-header";
import { RoleBadge } from "@/components/shell/role-badge";
import { getMembership, listOrganizationMembers } from "@/lib/auth/organizations";
import { getPageViewer } from "@/lib/auth/page-viewer";

export const metadata: Metadata = { title: "Organization" };

type Props = { params: Promise<{ organizationId: string }> };

export default async function OrganizationPage({ params }: Props) {
  const { organizationId } = await params;
  const viewer = await getPageViewer();
  const membership = await getMembership({ userId: viewer.userId, organizationId });
  if (!membership) notFound();
  const members = await listOrganizationMembers({ organizationId });

  return (
    <div className="mx-auto w-full max-w-3xl px-5 py-10 sm:px-8 sm:py-14">
      <PageHeader
        eyebrow="Organization"
        title={membership.organizationName}
        description={
          <span className="inline-flex items-center gap-2">
            Your role <RoleBadge role={membership.role} />
          </span>
        }
      />
      <section aria-labelledby="members-heading" className="mt-10">
        <div className="flex items-baseline justify-between">
          <h2 id="members-heading" className="text-sm font-medium text-fg">
            Members
          </h2>
          <p className="text-[13px] text-fg-subtle">
            {members.length} {members.length === 1 ? "person" : "people"}
          </p>
        </div>
        <ul className="mt-3 divide-y divide-border overflow-hidden rounded-xl border border-border">
          {members.map((person) => (
            <li key={person.id} className="flex items-center gap-3 px-4 py-3">
              <Avatar name={person.name} className="size-8" />
              <div className="min-w-0 flex-1">
                <p className="truncate text-sm font-medium text-fg">
                  {person.name}
                  {person.userId === viewer.userId ? (
                    <span className="ml-1.5 font-normal text-fg-subtle">(you)</span>
                  ) : null}
                </p>
                <p className="truncate text-[13px] text-fg-subtle">{person.email}</p>
              </div>
              <RoleBadge role={person.role} />
            </li>
          ))}
        </ul>
      </section>
    </div>
  );
}
