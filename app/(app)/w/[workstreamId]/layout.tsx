// Checks that the workstream exists and is the viewer's before the route's loading skeleton
// (loading.tsx, which sits below this layout) starts the streamed response: otherwise the
// response has already gone out as 200 when the page calls notFound().
import type { ReactNode } from "react";
import { loadWorkstream } from "./load";

export default async function WorkstreamLayout({
  children,
  params,
}: {
  children: ReactNode;
  params: Promise<{ workstreamId: string }>;
}) {
  await loadWorkstream((await params).workstreamId);
  return children;
}
