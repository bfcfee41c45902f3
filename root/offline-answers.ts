// What each domain answers when the offline model stands in for a real one, registered once per
// process (by wireTurnTools, and by the integration tests' set-up): the background tasks a
// domain's model call names (`providerOptions.offline.task`), the plain-words reports of its
// tools' results, the asides an answer opens with, and the demo's plain requests. The model
// itself knows no domain (docs/offline-model.md).
import { reportConsultation } from "@/lib/agents/offline-answers";
import { answerCompactionOffline } from "@/lib/compaction/offline-answer";
import { attachedAside, reportReadAttachment } from "@/lib/files/offline-answers";
import { processSingleton } from "@/lib/kernel/singleton";
import {
  offlineFacts,
  offlineMemorySummary,
  rememberedAside,
  reportNote,
  reportRecall,
  reportRemember,
} from "@/lib/memory/offline-answers";
import { registerOfflineAnswers } from "@/lib/models/offline-model";
import { offlineSkills } from "@/lib/skills/offline-answer";
import { reportPlanUpdate, reportStateUpdate } from "@/lib/state/offline-answers";
import {
  offlineActivity,
  offlineTitle,
  reportHistorySearch,
  reportSentMessage,
} from "@/lib/workstreams/offline-answers";
import { DEMO_REQUESTS, demoRequest } from "./offline-demo-requests";

const state = processSingleton<{ registered: boolean }>("offline-answers-registered", () => ({
  registered: false,
}));

export function registerDomainOfflineAnswers(): void {
  if (state.registered) return;
  state.registered = true;
  registerOfflineAnswers({
    tasks: {
      title: offlineTitle,
      activity: offlineActivity,
      "memory-summary": offlineMemorySummary,
      "memory-facts": offlineFacts,
      skills: offlineSkills,
      compaction: answerCompactionOffline,
    },
    toolReports: {
      read_attachment: reportReadAttachment,
      update_workstream_state: reportStateUpdate,
      update_plan: reportPlanUpdate,
      add_memory_note: reportNote,
      remember: reportRemember,
      recall: reportRecall,
      send_message: reportSentMessage,
      search_history: reportHistorySearch,
      consult_specialist: reportConsultation,
    },
    // In this order: the files a message carries, then what the agent remembers.
    asides: [attachedAside, rememberedAside],
    requests: [demoRequest],
    documented: DEMO_REQUESTS.map(({ trigger, effect }) => ({ trigger, effect })),
  });
}
