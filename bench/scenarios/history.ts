// 4. History pages of a workstream with many messages (bulk-inserted into `messages`): the
// latest page, a page from the middle (cursor = a message half-way back) and the oldest page,
// each timed to the last byte over sequential requests.
import type { Client } from "../lib/http";
import { round, type Summary, summarize } from "../lib/stats";

export type HistoryResult = {
  messages: number;
  insertSec: number;
  requests: number;
  latest: Summary;
  middle: Summary;
  oldest: Summary;
  pageBytes: number;
  errors: number;
  firstError?: string;
};

type Page = { messages?: Array<{ id: string }>; hasMore?: boolean; prevCursor?: string | null };

export async function runHistory(input: {
  client: Client;
  workstreamId: string;
  messages: number;
  prefix: string;
  insertSec: number;
  requests: number;
}): Promise<HistoryResult> {
  const { client, workstreamId, prefix } = input;
  const base = `/api/workstreams/${encodeURIComponent(workstreamId)}/messages?take=6`;
  const middleId = `${prefix}${Math.floor(input.messages / 2)}`;
  const paths = {
    latest: base,
    middle: `${base}&beforeMessageId=${encodeURIComponent(middleId)}`,
    oldest: `${base}&beforeMessageId=${encodeURIComponent(`${prefix}8`)}`,
  };
  // Check the pages are what they claim before timing them.
  const check = await client.json<Page>("GET", paths.middle);
  const ids = check.body?.messages?.map((m) => m.id) ?? [];
  const expected = Array.from(
    { length: 6 },
    (_, i) => `${prefix}${Math.floor(input.messages / 2) - 6 + i}`,
  );
  if (check.status !== 200 || ids.join() !== expected.join()) {
    throw new Error(
      `unexpected history page: ${check.status} ${JSON.stringify(check.body).slice(0, 300)}`,
    );
  }
  let errors = 0;
  let firstError: string | undefined;
  let pageBytes = 0;
  const time = async (path: string, count: number) => {
    const out: number[] = [];
    for (let i = 0; i < count; i++) {
      const result = await client.timedGet(path);
      if (result.status !== 200) {
        errors++;
        firstError ??= `HTTP ${result.status} for ${path}`;
        continue;
      }
      pageBytes = result.bytes;
      out.push(result.ms);
    }
    return out;
  };
  // Warm-up (JIT, connection, session cookie cache), then interleave the kinds.
  for (const path of Object.values(paths)) await time(path, 20);
  const samples = { latest: [] as number[], middle: [] as number[], oldest: [] as number[] };
  const slices = 4;
  for (let s = 0; s < slices; s++) {
    const count = Math.ceil(input.requests / slices);
    samples.latest.push(...(await time(paths.latest, count)));
    samples.middle.push(...(await time(paths.middle, count)));
    samples.oldest.push(...(await time(paths.oldest, count)));
  }
  return {
    messages: input.messages,
    insertSec: round(input.insertSec, 1),
    requests: samples.latest.length,
    latest: summarize(samples.latest),
    middle: summarize(samples.middle),
    oldest: summarize(samples.oldest),
    pageBytes,
    errors,
    ...(firstError ? { firstError } : {}),
  };
}
