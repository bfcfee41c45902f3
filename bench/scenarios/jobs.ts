// Post-turn job latency: from a turn's end (its stream's last event at the client) to the title
// job's result reaching the member's live channel, and likewise the recent-activity line. Each
// sample is a new group workstream (so it still has the default title) with one plain turn; the
// member's `/api/live` stream is open before the turn starts. Measures the whole path: the
// outbox row committed with the turn, the sender, the runner's claim, the offline model's title,
// the compare-and-set write and the live publish.
import http from "node:http";
import { performance } from "node:perf_hooks";
import { type Summary, summarize } from "../lib/stats";
import type { BenchUser } from "../lib/users";
import { userMessage } from "../lib/users";

export type JobsResult = {
  samples: number;
  titleMs: Summary;
  activityMs: Summary;
  missing: number;
};

type Watch = {
  until(test: (data: string) => boolean, timeoutMs: number): Promise<number>;
  close(): void;
};

/** Opens the member's live channel; resolves once its headers arrive (the subscription is up). */
function watchLive(baseUrl: string, cookie: string): Promise<Watch> {
  const url = new URL("/api/live", baseUrl);
  return new Promise((resolve, reject) => {
    const waiters: Array<{ test: (data: string) => boolean; done: (at: number) => void }> = [];
    const req = http.get(
      { host: url.hostname, port: url.port, path: url.pathname, headers: { cookie } },
      (res) => {
        let buffer = "";
        res.setEncoding("utf8");
        res.on("data", (chunk: string) => {
          const at = performance.now();
          buffer += chunk;
          let index = buffer.indexOf("\n\n");
          while (index >= 0) {
            const frame = buffer.slice(0, index);
            buffer = buffer.slice(index + 2);
            const data = frame
              .split("\n")
              .filter((line) => line.startsWith("data:"))
              .map((line) => line.slice(5).trim())
              .join("\n");
            for (const waiter of [...waiters]) {
              if (!waiter.test(data)) continue;
              waiters.splice(waiters.indexOf(waiter), 1);
              waiter.done(at);
            }
            index = buffer.indexOf("\n\n");
          }
        });
        resolve({
          until(test, timeoutMs) {
            return new Promise((done) => {
              const timer = setTimeout(() => done(Number.NaN), timeoutMs);
              waiters.push({
                test,
                done: (at) => {
                  clearTimeout(timer);
                  done(at);
                },
              });
            });
          },
          close: () => req.destroy(),
        });
      },
    );
    req.on("error", (error) => {
      if (!req.destroyed) reject(error);
    });
  });
}

export async function runJobs({
  baseUrl,
  user,
  samples,
  text,
  log,
}: {
  baseUrl: string;
  user: BenchUser;
  samples: number;
  text: (i: number) => string;
  log: (line: string) => void;
}): Promise<JobsResult> {
  const titles: number[] = [];
  const activities: number[] = [];
  let missing = 0;
  const live = await watchLive(baseUrl, user.client.cookieHeader());
  try {
    for (let i = 0; i < samples; i++) {
      const created = await user.client.json<{ id?: string }>("POST", "/api/workstreams", {
        mode: "group",
      });
      const id = created.body.id;
      if (created.status !== 201 || !id) throw new Error(`create group: ${created.status}`);
      const titled = live.until(
        (data) => data.includes('"reason":"title"') && data.includes(id),
        10_000,
      );
      const active = live.until(
        (data) => data.includes('"type":"activity"') && data.includes(id),
        10_000,
      );
      const started = performance.now();
      const turn = await user.client.streamTurn(
        `/api/workstreams/${id}/messages`,
        userMessage(text(i)),
        30_000,
      );
      const ended = started + turn.doneMs;
      const [titleAt, activityAt] = await Promise.all([titled, active]);
      if (Number.isNaN(titleAt) || Number.isNaN(activityAt)) missing++;
      titles.push(titleAt - ended);
      activities.push(activityAt - ended);
    }
  } finally {
    live.close();
  }
  const result = {
    samples,
    titleMs: summarize(titles),
    activityMs: summarize(activities),
    missing,
  };
  log(
    `jobs: turn end → title p50 ${result.titleMs.p50} ms (p90 ${result.titleMs.p90}), → activity p50 ${result.activityMs.p50} ms${missing ? `, ${missing} missing` : ""}`,
  );
  return result;
}
