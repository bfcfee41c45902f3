// The memories page's notice that the member's agents are not learning from them: a learning job
// covering one of their turns failed recently, with the failure's code and sentence.
import type { LearningFailureView } from "@/lib/memory/learning-status";

export function LearningFailureNotice({ failure }: { failure: LearningFailureView | null }) {
  if (!failure) return null;
  return (
    <div
      role="status"
      className="rounded-lg border border-danger-border bg-danger-subtle px-3 py-2.5 text-[13px] leading-5 text-danger"
    >
      Learning is failing: <span className="font-mono text-[12px]">{failure.code}</span>{" "}
      {failure.message} Your agents are not adding memories or skills from your conversations; an
      admin can see the failed jobs under Background jobs.
    </div>
  );
}
