// The member's skills (learned from their conversations) and the organization's shared ones.
import type { Metadata } from "next";
import { PageHeader } from "@/components/shell/page-header";
import { SkillsView } from "@/components/skills/skills-view";
import { getPageViewer } from "@/lib/auth/page-viewer";
import { config } from "@/lib/config";
import { listSkills } from "@/lib/skills/store";
import { managesOrganizationSkills, skillView } from "@/lib/skills/views";

export const metadata: Metadata = { title: "Skills" };

export default async function SkillsPage() {
  const viewer = await getPageViewer();
  const [own, organization] = await Promise.all([
    listSkills({ owner: { organizationId: viewer.organizationId, userId: viewer.userId } }),
    listSkills({ owner: { organizationId: viewer.organizationId, userId: null } }),
  ]);
  const { nameMaxChars, whenToUseMaxChars, stepsMax, stepMaxChars } = config.skills;
  return (
    <div className="mx-auto w-full max-w-4xl px-4 py-8 sm:px-8 sm:py-10">
      <PageHeader
        eyebrow={viewer.organizationName}
        title="Skills"
        description="Procedures your agents have learned from your conversations. When a request fits one, they look up its steps and follow them."
      />
      <div className="mt-8">
        <SkillsView
          initial={{ skills: own.map(skillView), organization: organization.map(skillView) }}
          organizationName={viewer.organizationName}
          managesOrganization={managesOrganizationSkills(viewer)}
          limits={{ nameMaxChars, whenToUseMaxChars, stepsMax, stepMaxChars }}
        />
      </div>
    </div>
  );
}
