// The host config: agents (chief and specialists), limits, turn settings, and the workstreams
// bootstrap (what a member is given): which direct agents a member gets during and after
// onboarding, which core workstreams appear after onboarding, and the core profiles. One typed
// object; hosts change the product by editing it, never by code changes elsewhere.
export type ReasoningProfile = "fast" | "balanced" | "deep";

export type AgentConfig = {
  id: string;
  name: string;
  persona: string;
  reasoningProfile: ReasoningProfile;
  /** Tool ids from lib/agents/tools. */
  tools: readonly string[];
  /** One line for pickers and the sidebar. */
  description: string;
  /**
   * What the agent says without a model call (so a turn's path gets no extra request): its
   * greeting (the opening line of a new workstream, and the preamble of its first turn), a short
   * preamble while a turn prepares, and the announcement after a batch of tool calls, which never
   * names a tool or its result.
   */
  voice: { greeting: string; preamble: string; afterTools: string };
};

/** A core workstream's fixed identity (see getCoreWorkstreamProfile). */
export type CoreWorkstreamProfile = {
  coreType: string;
  title: string;
  agentId: string;
  description: string;
};

function intFromEnv(name: string, fallback: number): number {
  const raw = process.env[name];
  if (raw === undefined || raw === "") return fallback;
  const value = Number(raw);
  if (!Number.isInteger(value) || value < 0) {
    throw new Error(`${name} must be a non-negative integer, got "${raw}".`);
  }
  return value;
}

const DURATION_UNITS_MS = { ms: 1, s: 1_000, m: 60_000, h: 3_600_000, d: 86_400_000 } as const;

/**
 * A duration such as "24h", "30m", "90s", "2d" or "500ms" (a bare number is milliseconds). A
 * malformed value stops the server at start-up, naming the variable.
 */
export function durationFromEnv(name: string, fallbackMs: number): number {
  const raw = process.env[name]?.trim();
  if (raw === undefined || raw === "") return fallbackMs;
  const match = /^(\d+(?:\.\d+)?)\s*(ms|s|m|h|d)?$/.exec(raw);
  const ms = match ? Number(match[1]) * DURATION_UNITS_MS[(match[2] ?? "ms") as "ms"] : Number.NaN;
  if (!Number.isFinite(ms) || ms < 1) {
    throw new Error(`${name} must be a duration such as 24h, 30m or 90s, got "${raw}".`);
  }
  return Math.round(ms);
}

/**
 * Origins (besides the app's own) whose pages may send state-changing API requests, from a
 * comma-separated list such as "https://admin.example.com, http://localhost:5173". A malformed
 * entry stops the server at start-up, naming the variable.
 */
export function parseTrustedOrigins(raw: string | undefined): string[] {
  const origins: string[] = [];
  for (const entry of (raw ?? "").split(",")) {
    const value = entry.trim();
    if (!value) continue;
    const url = URL.parse(value);
    const originOnly =
      url && url.pathname === "/" && !url.search && !url.hash && !url.username && !url.password;
    if (!url || !originOnly || !/^https?:$/.test(url.protocol)) {
      throw new Error(
        `WORKSTREAMS_TRUSTED_ORIGINS must list origins such as https://app.example.com, got "${value}".`,
      );
    }
    origins.push(url.origin);
  }
  return origins;
}

/**
 * The tools every agent has for keeping track of the workstream (state, plan, notes, history)
 * and of what it knows across workstreams (memories).
 */
const CONTEXT_TOOLS = [
  "update_workstream_state",
  "update_plan",
  "add_memory_note",
  "search_history",
  "remember",
  "recall",
  "use_skill",
  "read_attachment",
];

/** Tools that act beyond the workstream: they ask the owner first (lib/agents/approval-policy). */
const OUTREACH_TOOLS = ["send_message"];

export const config = {
  agents: {
    chief: {
      id: "chief",
      name: "Chief",
      persona:
        "You are Chief, the lead agent of this organization's workstreams. You answer directly, " +
        "plan work, and keep track of decisions. Be concise and concrete. In group workstreams " +
        "you lead: ask a specialist (Researcher, Analyst, Writer) with consult_specialist when " +
        "their view helps, then answer with what they said. While a member is onboarding, learn what they work on; when they are ready, " +
        "call complete_onboarding so their specialists and core workstreams are set up.",
      reasoningProfile: "balanced",
      tools: [
        "current_time",
        "calculate",
        "complete_onboarding",
        ...CONTEXT_TOOLS,
        ...OUTREACH_TOOLS,
      ],
      description: "Leads your workstreams, plans work and tracks decisions.",
      voice: {
        greeting:
          "Hi, I'm Chief. Tell me what you're working on and I'll help you plan it, decide and keep track.",
        preamble: "Getting the context together…",
        afterTools: "Thanks for waiting, putting it together…",
      },
    },
    researcher: {
      id: "researcher",
      name: "Researcher",
      persona:
        "You are Researcher, a specialist who gathers and organizes what is known about a " +
        "question: sources, open questions and how confident we can be. Separate facts from " +
        "assumptions and say what you would check next.",
      reasoningProfile: "deep",
      tools: ["current_time", "days_between", ...CONTEXT_TOOLS, ...OUTREACH_TOOLS],
      description: "Gathers what is known, separates facts from assumptions.",
      voice: {
        greeting:
          "Hi, I'm Researcher. Give me a question and I'll gather what is known and what still needs checking.",
        preamble: "Looking into what we know…",
        afterTools: "Sorting through what I found…",
      },
    },
    analyst: {
      id: "analyst",
      name: "Analyst",
      persona:
        "You are Analyst, a specialist in numbers, trade-offs and risks. Show your working, " +
        "use the calculate tool for arithmetic rather than guessing, and end with a clear " +
        "recommendation and its main risk.",
      reasoningProfile: "deep",
      tools: ["calculate", "days_between", "current_time", ...CONTEXT_TOOLS, ...OUTREACH_TOOLS],
      description: "Works through numbers, trade-offs and risks.",
      voice: {
        greeting:
          "Hi, I'm Analyst. Bring me numbers, options or a decision and I'll work through the trade-offs.",
        preamble: "Working through the numbers…",
        afterTools: "Checking my working…",
      },
    },
    writer: {
      id: "writer",
      name: "Writer",
      persona:
        "You are Writer, a specialist who turns notes into clear documents: announcements, " +
        "summaries, emails and plans. Match the requested tone and length; check the length " +
        "with word_count when a limit is given.",
      reasoningProfile: "fast",
      tools: ["word_count", "current_time", ...CONTEXT_TOOLS, ...OUTREACH_TOOLS],
      description: "Turns notes into clear, well-shaped documents.",
      voice: {
        greeting:
          "Hi, I'm Writer. Share your notes and the tone you want, and I'll shape them into a draft.",
        preamble: "Reading your notes…",
        afterTools: "Shaping the draft…",
      },
    },
  } satisfies Record<string, AgentConfig>,
  defaultAgentId: "chief",
  turns: {
    /** Characters in one user message. */
    maxMessageChars: 32_000,
    /** Tool-loop steps per turn: the bound on how long an agent may keep calling tools. */
    maxSteps: intFromEnv("WORKSTREAMS_MAX_STEPS", 20),
    /** Lease of a running turn; renewed every leaseRenewMs by its process. */
    leaseMs: intFromEnv("WORKSTREAMS_TURN_LEASE_MS", 20_000),
    leaseRenewMs: intFromEnv("WORKSTREAMS_TURN_LEASE_RENEW_MS", 5_000),
    /** Server-side re-chunking of text into pieces of this many characters (lib/stream/rechunk). */
    chunkMinChars: 36,
    chunkMaxChars: 72,
    /** Longest wait before buffered events are committed and sent. */
    flushIntervalMs: intFromEnv("WORKSTREAMS_FLUSH_INTERVAL_MS", 40),
  },
  history: { defaultTake: 6, maxTake: 100 },
  context: {
    /**
     * The model's context window in tokens, for every model: set it to test with a small window.
     * Unset, each model's own window applies (lib/models/catalogue.ts; 8,192 when unknown).
     */
    windowOverride: intFromEnv("WORKSTREAMS_CONTEXT_WINDOW", 0) || null,
    /** Tokens kept back for the model's answer. */
    reservedOutputTokens: intFromEnv("WORKSTREAMS_CONTEXT_RESERVED_OUTPUT", 4_096),
    /**
     * Sections are counted with one tokenizer (gpt-tokenizer); this margin covers models whose
     * tokenizer counts differently.
     */
    tokenizerMargin: 0.1,
    /**
     * The most messages one turn reads back, newest first, before the budget trims them: a bound
     * on the history read's work for a workstream that has not been compacted yet.
     */
    maxHistoryMessages: 1_000,
    /** Token budget of each section; history gets what is left of the window. */
    budgets: {
      topMemories: 1_000,
      retrievedMemories: 1_500,
      executionPlan: 800,
      workstreamState: 1_500,
      memoryBlock: 1_200,
      extraSections: 500,
      uploads: 300,
    },
  },
  memory: {
    /** Longest memory text, in characters. */
    textMaxChars: 2_000,
    /** Importance of a new memory unless its writer says otherwise (1 to 10). */
    defaultImportance: 5,
    /** Importance of what a member asks an agent to remember: high enough to be pre-seeded. */
    rememberedImportance: 7,
    /** Memories at least this important are pre-seeded into every turn of whoever sees them. */
    topImportance: 7,
    /** The most pre-seeded memories a turn reads (the section's budget cuts further). */
    topLimit: 20,
    /** The most retrieved memories a turn reads, after fusion (the budget cuts further). */
    retrievedLimit: 8,
    /** How many candidates each of full text and vectors brings to the fusion. */
    candidateLimit: 20,
    /** Reciprocal rank fusion's constant: a rank r counts 1 / (k + r) in each list. */
    rrfK: 60,
    /**
     * Cosine similarity below which a vector match is not a match: nearest neighbours always
     * exist, related or not. Embedding models differ in how similar unrelated texts look.
     */
    minSimilarity: 0.25,
    /** Words of the latest message full-text retrieval looks for (the first ones). */
    queryMaxWords: 32,
    /**
     * A word held by more memories than this (all organizations, by the planner's statistics)
     * is too common to find candidates by: it only ranks them (lib/memory/retrieve.ts).
     */
    commonWordRows: 500,
    /** The most of a message's words, rarest first, that find full-text candidates. */
    matchMaxWords: 8,
    /** The most facts one conversation slice (a turn's messages) gives. */
    factsPerSlice: 16,
    /** Importance of an extracted fact unless the model says otherwise. */
    extractedImportance: 5,
    /**
     * The digest: a fact whose vector is at least this similar to a memory of the same member is
     * that memory again (it is reinforced, not added).
     */
    duplicateSimilarity: 0.92,
    /** Turns one digest round reads (a run goes round until it has read every one). */
    digestSliceBatch: 40,
    /**
     * How far back from its cursor a digest looks again for turns that ended earlier but
     * committed later (on Postgres, concurrent servers); each is still read only once.
     */
    digestOverlapMs: 5 * 60_000,
  },
  skills: {
    nameMaxChars: 120,
    whenToUseMaxChars: 500,
    stepsMax: 20,
    stepMaxChars: 500,
    /** The most skills a turn is offered by name (the section's budget cuts further). */
    offeredLimit: 20,
    /** Tokens the skills section may take of the extra sections' budget. */
    sectionBudget: 300,
  },
  compaction: {
    /**
     * How long a new message waits for a running compaction before its turn goes ahead on the
     * history as it is (the builder's budget keeps that within the window).
     */
    waitMs: intFromEnv("WORKSTREAMS_COMPACTION_WAIT_MS", 30_000),
    /**
     * How long a compaction's claim on its workstream lasts without renewal (renewed every third
     * of it while it runs); a compaction whose process died is cleared once it lapses.
     */
    leaseMs: intFromEnv("WORKSTREAMS_COMPACTION_LEASE_MS", 60_000),
    /** A workstream compacts once its uncompacted history passes this share of the window. */
    threshold: 0.7,
    /** What a compaction leaves uncompacted: the newest whole turns within this share. */
    keepShare: 0.3,
  },
  jobs: {
    /**
     * How long a send to Inngest holds its outbox rows before another process may send them
     * again (a process killed mid-send leaves them claimed until then). A second send is harmless:
     * Inngest de-duplicates by event id. Above the Inngest client's 10 s request timeout.
     */
    outboxClaimMs: intFromEnv("WORKSTREAMS_OUTBOX_CLAIM_MS", 15_000),
    /**
     * How long after a turn's end its post-turn event is handed over: long enough for the turn's
     * last events to reach its clients first and for turns ending together to share one pass.
     */
    wakeDelayMs: intFromEnv("WORKSTREAMS_JOBS_WAKE_DELAY_MS", 100),
    /** How long the embedded runner keeps a completed job (a re-sent event is recognised). */
    keepCompletedMs: durationFromEnv("WORKSTREAMS_JOBS_KEEP_COMPLETED", 86_400_000),
    /**
     * How long a failed job is kept, with its failure record in the admin's Background jobs tab
     * (where it can be retried or discarded), in either engine.
     */
    keepFailedMs: durationFromEnv("WORKSTREAMS_JOBS_KEEP_FAILED", 30 * 86_400_000),
  },
  approvals: {
    /**
     * How long a tool call waits for the owner's answer before it expires: the model is told it
     * was not approved and the turn goes on to its end (WORKSTREAMS_APPROVAL_TIMEOUT).
     */
    timeoutMs: durationFromEnv("WORKSTREAMS_APPROVAL_TIMEOUT", 24 * 3_600_000),
    /** The longest reason an answer may give. */
    reasonMaxChars: 500,
    /** The longest an approval may be remembered for (a grant), in days. */
    grantMaxDays: 90,
  },
  files: {
    /** Largest single upload (WORKSTREAMS_MAX_FILE_BYTES); 20 MB by default. */
    maxFileBytes: intFromEnv("WORKSTREAMS_MAX_FILE_BYTES", 20 * 1024 * 1024),
    /** What one organization may store in all (WORKSTREAMS_MAX_ORG_BYTES); 1 GiB by default. */
    maxOrgBytes: intFromEnv("WORKSTREAMS_MAX_ORG_BYTES", 1024 * 1024 * 1024),
    /** Where local storage keeps the bytes (the embedded default). */
    localDir: process.env.WORKSTREAMS_FILES_DIR?.trim() || ".data/files",
    /** S3-compatible storage: set S3_BUCKET to use it instead of the local disk. */
    s3: {
      bucket: process.env.S3_BUCKET?.trim() || null,
      endpoint: process.env.S3_ENDPOINT?.trim() || null,
      region: process.env.S3_REGION?.trim() || "us-east-1",
      /** Path-style addressing (MinIO, s3rver); virtual-host style with AWS unless set. */
      forcePathStyle: process.env.S3_FORCE_PATH_STYLE === "1" || Boolean(process.env.S3_ENDPOINT),
    },
    /** How long a URL handed to a model for one turn stays valid (WORKSTREAMS_FILE_URL_TTL). */
    turnUrlTtlMs: durationFromEnv("WORKSTREAMS_FILE_URL_TTL", 15 * 60_000),
    /** How long a URL the browser gets for viewing or downloading stays valid. */
    viewUrlTtlMs: durationFromEnv("WORKSTREAMS_FILE_VIEW_TTL", 5 * 60_000),
    /** Uploads never attached to a message are removed after this long. */
    unattachedMaxAgeMs: 86_400_000,
    /** Storage objects no files row owns are removed by the start-up reconciler after this long. */
    orphanMinAgeMs: 3_600_000,
    /** Files per message. */
    maxPerMessage: 10,
    /** Characters of an attachment's text read_attachment returns per page. */
    readPageChars: 8_000,
    /** What the context counts for an attachment sent to the model (documented estimates). */
    imageTokens: 1_000,
    pdfPageTokens: 1_500,
  },
  security: {
    /** Other origins allowed to send state-changing API requests (WORKSTREAMS_TRUSTED_ORIGINS). */
    trustedOrigins: parseTrustedOrigins(process.env.WORKSTREAMS_TRUSTED_ORIGINS),
  },
  workstreams: {
    /** The agent that leads a group workstream unless another one is chosen. */
    groupLeadAgentId: "chief",
    /**
     * The specialists a group workstream's lead may consult (consult_specialist), each with its
     * own persona, model profile and tools; the lead itself is never among them.
     */
    groupSpecialistIds: ["researcher", "analyst", "writer"],
    /** How many of the latest messages a consulted specialist reads besides the state. */
    specialistHistoryMessages: 6,
    defaultGroupTitle: "New Workstream",
    /** Longest title a user may give a workstream (characters, after trimming). */
    titleMaxChars: 120,
    /** Standard group workstreams per page; `take` may ask for up to maxTake. */
    groupPageSize: 15,
    groupMaxTake: 50,
    bootstrap: {
      /** Direct workstreams a new member has while onboarding. */
      onboardingDirectAgents: ["chief"],
      /** Direct workstreams provisioned when onboarding completes. */
      completedDirectAgents: ["chief", "researcher", "analyst", "writer"],
      /** Core workstreams provisioned when onboarding completes. */
      coreTypesAfterOnboarding: ["daily-activities", "decision-log"],
    },
    coreProfiles: {
      "daily-activities": {
        coreType: "daily-activities",
        title: "Daily Activities",
        agentId: "chief",
        description: "What you are doing today: plans, check-ins and loose ends.",
      },
      "decision-log": {
        coreType: "decision-log",
        title: "Decision Log",
        agentId: "analyst",
        description: "Decisions with their rationale, so they can be revisited.",
      },
      "weekly-review": {
        coreType: "weekly-review",
        title: "Weekly Review",
        agentId: "writer",
        description: "A weekly look back: what moved, what is stuck, what is next.",
      },
    } satisfies Record<string, CoreWorkstreamProfile>,
  },
} as const;

export type AgentId = keyof typeof config.agents;

// Own properties only: "constructor" or "__proto__" must never count as a configured agent.
export function getAgent(agentId: string): AgentConfig | undefined {
  const agents: Record<string, AgentConfig> = config.agents;
  return Object.hasOwn(agents, agentId) ? agents[agentId] : undefined;
}

export function listAgents(): AgentConfig[] {
  return Object.values(config.agents);
}

/** A core workstream's fixed title and agent, or undefined for an unknown type. */
export function getCoreWorkstreamProfile(coreType: string): CoreWorkstreamProfile | undefined {
  const profiles: Record<string, CoreWorkstreamProfile> = config.workstreams.coreProfiles;
  return Object.hasOwn(profiles, coreType) ? profiles[coreType] : undefined;
}
