// Attachments: (1) uploading a 20 MB file, sent as a stream, against the serving process's RSS
// (sampled every 10 ms from /proc while the upload runs; the growth is the peak over the reading
// just before, and what is left once the server has been idle for 3 s: the peak includes the
// socket's and the request body's chunks that are garbage but not yet collected), a few times over; (2) what resolving and re-signing 20 attachments adds to a turn,
// as the server records it with the turn's context (`attachmentsMs`, measured around the
// resolution before the builder runs), over turns whose message carries 20 files.
import http from "node:http";
import { Readable } from "node:stream";
import { rssKb } from "../lib/procfs";
import { round, type Summary, summarize } from "../lib/stats";
import type { BenchUser } from "../lib/users";

export type AttachmentsResult = {
  uploadBytes: number;
  /** Peak RSS growth during each upload, MB. */
  rssGrowthMb: number[];
  /** RSS growth left 3 s after each upload (its garbage collected), MB. */
  rssSettledMb: number[];
  uploadMs: Summary;
  resignMs: Summary;
  attachmentsPerTurn: number;
};

/** A multipart body around `size` bytes of text, generated as it is read (never held whole). */
function multipartStream(
  size: number,
  boundary: string,
  name: string,
): { body: Readable; length: number } {
  const head = Buffer.from(
    `--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="${name}"\r\nContent-Type: text/plain\r\n\r\n`,
  );
  const tail = Buffer.from(`\r\n--${boundary}--\r\n`);
  const line = Buffer.from(`${"attachment benchmark line ".repeat(9)}\n`);
  let left = size;
  let started = false;
  const body = new Readable({
    read() {
      if (!started) {
        started = true;
        this.push(head);
        return;
      }
      if (left <= 0) {
        this.push(tail);
        this.push(null);
        return;
      }
      const chunks: Buffer[] = [];
      let bytes = 0;
      while (bytes < 256 * 1024 && left > 0) {
        const piece = left >= line.length ? line : line.subarray(0, left);
        chunks.push(piece);
        bytes += piece.length;
        left -= piece.length;
      }
      this.push(Buffer.concat(chunks));
    },
  });
  return { body, length: head.length + size + tail.length };
}

function upload(
  user: BenchUser,
  size: number,
  name: string,
): Promise<{ status: number; body: string }> {
  const url = new URL(`/api/workstreams/${user.workstreamId}/files`, user.client.baseUrl);
  const boundary = `----bench${Date.now()}`;
  const { body, length } = multipartStream(size, boundary, name);
  return new Promise((resolve, reject) => {
    const req = http.request(
      {
        host: url.hostname,
        port: url.port,
        path: url.pathname,
        method: "POST",
        headers: {
          cookie: user.client.cookieHeader(),
          origin: user.client.origin,
          "content-type": `multipart/form-data; boundary=${boundary}`,
          "content-length": length,
          ...(user.client.forwardedFor ? { "x-forwarded-for": user.client.forwardedFor } : {}),
        },
      },
      (res) => {
        let text = "";
        res.setEncoding("utf8");
        res.on("data", (chunk: string) => {
          text += chunk;
        });
        res.on("end", () => resolve({ status: res.statusCode ?? 0, body: text }));
      },
    );
    req.on("error", reject);
    body.pipe(req);
  });
}

export async function runAttachments({
  user,
  pid,
  uploads,
  turns,
  log,
}: {
  user: BenchUser;
  /** The serving process. */
  pid: number;
  uploads: number;
  turns: number;
  log: (line: string) => void;
}): Promise<AttachmentsResult> {
  const size = 20 * 1000 * 1000;
  const growth: number[] = [];
  const settled: number[] = [];
  const times: number[] = [];
  // One small upload first: the route's code loads on its first request, which is not the
  // upload's cost.
  const warm = await upload(user, 2_000, "warm-up.txt");
  if (warm.status !== 201) throw new Error(`upload failed: ${warm.status}`);
  for (let i = 0; i < uploads; i++) {
    const before = rssKb(pid);
    let peak = before;
    const timer = setInterval(() => {
      peak = Math.max(peak, rssKb(pid));
    }, 10);
    const started = performance.now();
    const answer = await upload(user, size, `big-${i}.txt`);
    times.push(performance.now() - started);
    clearInterval(timer);
    peak = Math.max(peak, rssKb(pid));
    if (answer.status !== 201)
      throw new Error(`upload failed: ${answer.status} ${answer.body.slice(0, 200)}`);
    growth.push(round((peak - before) / 1024, 1));
    // The file itself is not needed again: remove it so the organization's quota stays free.
    const { id } = JSON.parse(answer.body) as { id: string };
    await user.client.json("DELETE", `/api/workstreams/${user.workstreamId}/files/${id}`);
    await new Promise((resolve) => setTimeout(resolve, 3_000));
    settled.push(round((rssKb(pid) - before) / 1024, 1));
  }
  log(
    `attachments: 20 MB upload RSS growth ${growth.join(", ")} MB at the peak, ${settled.join(", ")} MB 3 s later`,
  );

  const ids: Array<{ id: string; name: string; mediaType: string }> = [];
  for (let i = 0; i < 20; i++) {
    const answer = await upload(user, 2_000, `note-${i}.txt`);
    if (answer.status !== 201) throw new Error(`upload failed: ${answer.status}`);
    const file = JSON.parse(answer.body) as { id: string; name: string; mediaType: string };
    ids.push(file);
  }
  // A message carries at most 10 files: two messages bring the 20 into the history, and every
  // later turn resolves and re-signs all of them.
  const send = async (i: number, files: typeof ids) => {
    const parts = [
      { type: "text", text: `[words:7] turn ${i} of the attachment benchmark` },
      ...files.map((file) => ({
        type: "file",
        mediaType: file.mediaType,
        filename: file.name,
        url: `file:${file.id}`,
      })),
    ];
    const id = `bench_files_${Date.now().toString(36)}_${i}`;
    const sent = await user.client.json("POST", `/api/workstreams/${user.workstreamId}/messages`, {
      message: { id, role: "user", parts },
    });
    if (sent.status !== 200) throw new Error(`turn failed: ${sent.status}`);
    const view = await user.client.json<{ lastTurn?: { context?: { attachmentsMs?: number } } }>(
      "GET",
      `/api/workstreams/${user.workstreamId}/context`,
    );
    return view.body.lastTurn?.context?.attachmentsMs;
  };
  await send(0, ids.slice(0, 10));
  await send(1, ids.slice(10));
  const resign: number[] = [];
  for (let i = 0; i < turns; i++) {
    const ms = await send(i + 2, []);
    if (typeof ms === "number") resign.push(ms);
  }
  log(`attachments: re-signing 20 files p50 ${summarize(resign).p50} ms`);
  return {
    uploadBytes: size,
    rssGrowthMb: growth,
    rssSettledMb: settled,
    uploadMs: summarize(times),
    resignMs: summarize(resign),
    attachmentsPerTurn: ids.length,
  };
}
