// Helpers for the workstreams and admin integration tests: organization membership, creating
// workstreams over HTTP, following the live channel, waiting for a turn.
import type { WorkstreamSummary } from "@/lib/workstreams/types";
import { userMessage } from "../../support/fixtures";
import type { HttpClient } from "../../support/http-client";

export { createGroup, joinOrganization } from "../../support/harness";

export function sendTo(client: HttpClient, workstreamId: string, text: string) {
  return client.fetch(`/api/workstreams/${workstreamId}/messages`, {
    method: "POST",
    json: userMessage(text),
  });
}

export async function waitFor<T>(
  probe: () => Promise<T | null | undefined | false>,
  what: string,
  timeoutMs = 15_000,
): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await probe();
    if (value) return value;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

export async function waitIdle(client: HttpClient, workstreamId: string): Promise<void> {
  await waitFor(async () => {
    const info = await client.json<{ isRunning: boolean }>(`/api/workstreams/${workstreamId}`);
    return !info.body.isRunning;
  }, "the turn to end");
}

export type LiveData = { type: string } & Record<string, unknown>;

/** Follows a live channel, collecting its events until closed. */
export class LiveFollower {
  readonly events: LiveData[] = [];
  private readonly controller = new AbortController();
  private done: Promise<void> = Promise.resolve();

  static async open(client: HttpClient, query = ""): Promise<LiveFollower> {
    const follower = new LiveFollower();
    const response = await client.fetch(`/api/live${query}`, {
      signal: follower.controller.signal,
    });
    if (response.status !== 200 || !response.body) {
      throw new Error(`live: ${response.status} ${await response.text()}`);
    }
    follower.done = follower.read(response.body);
    await follower.next((event) => event.type === "ready");
    return follower;
  }

  private async read(body: NonNullable<Response["body"]>): Promise<void> {
    const reader = body.pipeThrough(new TextDecoderStream()).getReader();
    let buffer = "";
    try {
      for (;;) {
        const { done, value } = await reader.read();
        if (done) return;
        buffer += value;
        for (let index = buffer.indexOf("\n\n"); index >= 0; index = buffer.indexOf("\n\n")) {
          const block = buffer.slice(0, index);
          buffer = buffer.slice(index + 2);
          const data = block
            .split("\n")
            .filter((line) => line.startsWith("data: "))
            .map((line) => line.slice(6))
            .join("");
          if (data) this.events.push(JSON.parse(data) as LiveData);
        }
      }
    } catch (error) {
      if (!this.controller.signal.aborted) throw error;
    }
  }

  /** The first event (from the start) matching `match`, waiting for it if needed. */
  next(match: (event: LiveData) => boolean, timeoutMs = 15_000): Promise<LiveData> {
    return waitFor(async () => this.events.find(match), "a live event", timeoutMs);
  }

  async close(): Promise<void> {
    this.controller.abort();
    await this.done.catch(() => undefined);
  }
}

export function isChange(reason: string, workstreamId: string) {
  return (event: LiveData) =>
    event.type === "workstream" &&
    event.reason === reason &&
    (event.workstream as WorkstreamSummary).id === workstreamId;
}
