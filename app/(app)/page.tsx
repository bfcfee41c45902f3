// Home of the signed-in app: for now a welcome and the empty state of the workstream list.

import { firstName } from "@/components/shell/names";
import { PageHeader } from "@/components/shell/page-header";
import { StreamsIcon } from "@/components/ui/icons";
import { getPageViewer } from "@/lib/auth/page-viewer";

export default async function HomePage() {
  const viewer = await getPageViewer();
  return (
    <div className="mx-auto w-full max-w-3xl px-5 py-10 sm:px-8 sm:py-14">
      <PageHeader
        eyebrow={viewer.organizationName}
        title={`Welcome, ${firstName(viewer.userName)}`}
      />
      <section className="mt-8 rounded-2xl border border-dashed border-border-strong px-6 py-14 text-center">
        <span className="mx-auto flex size-10 items-center justify-center rounded-xl bg-bg-muted text-fg-muted">
          <StreamsIcon className="size-5" />
        </span>
        <h2 className="mt-4 text-base font-medium text-fg">Your workstreams will appear here</h2>
        <p className="mx-auto mt-1.5 max-w-sm text-sm text-fg-muted">
          Each workstream is a lasting thread where you and your agents work on one thing together.
        </p>
      </section>
    </div>
  );
}
