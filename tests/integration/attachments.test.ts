// Attachments end to end over HTTP, on both stores (local disk and an S3-compatible server):
// upload with the type taken from the bytes, the limits, bad uploads that leave nothing behind,
// signed downloads, messages that carry files by id, fresh URLs before every turn,
// read_attachment on PDF and DOCX, and the clean-up after a workstream is deleted and the sweep.
import { readdir, readFile } from "node:fs/promises";
import { request as httpRequest } from "node:http";
import path from "node:path";
import { eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { getDb } from "@/db/client";
import { files, jobEvents, messages } from "@/db/schema";
import { filesDeletion } from "@/inngest/functions/file-cleanup";
import { createEmbeddedRunner } from "@/inngest/runner";
import { reconcileStorage, sweepUnattachedUploads } from "@/lib/files/lifecycle";
import { readAttachment } from "@/lib/files/read-tool";
import { resolveAttachments } from "@/lib/files/resolve";
import { signedFilePath } from "@/lib/files/signing";
import { setFileStore } from "@/lib/files/store-instance";
import { uploadCounts } from "@/lib/files/upload";
import { wireTurnTools } from "@/root/wiring";
import { type AppServer, startAppServer } from "../support/app-server";
import { type Owner, userWithWorkstream } from "../support/fixtures";
import { readSse, statuses, textOf } from "../support/sse";
import { releaseTestDatabase, type TestDatabase, useTestDatabase } from "../support/test-db";
import { type StoreKind, startTestStore, storedKeys, type TestStore } from "./files-support/stores";

vi.hoisted(() => {
  process.env.OFFLINE_MODEL_CHUNK_DELAY_MS = "0";
  process.env.WORKSTREAMS_RATE_LIMIT_TURNS = "0";
  // Small limits, so the tests reach them with small files.
  process.env.WORKSTREAMS_MAX_FILE_BYTES = "100000";
  process.env.WORKSTREAMS_MAX_ORG_BYTES = "250000";
});

const FIXTURES = path.resolve("tests/fixtures/files");
const fixture = (name: string) => readFile(path.join(FIXTURES, name));

type Uploaded = { id: string; name: string; mediaType: string; size: number; pages: number | null };

let testDb: TestDatabase;
let server: AppServer;

beforeAll(async () => {
  testDb = await useTestDatabase();
  server = await startAppServer();
  wireTurnTools();
});
afterAll(async () => {
  await server?.close();
  await releaseTestDatabase(testDb);
});

function upload(owner: Owner, name: string, bytes: Uint8Array, workstreamId = owner.workstreamId) {
  const form = new FormData();
  form.append("file", new Blob([new Uint8Array(bytes)]), name);
  return owner.client.fetch(`/api/workstreams/${workstreamId}/files`, {
    method: "POST",
    body: form,
  });
}

async function uploadOk(owner: Owner, name: string, bytes?: Uint8Array): Promise<Uploaded> {
  const response = await upload(owner, name, bytes ?? (await fixture(name)));
  const body = (await response.json()) as Uploaded;
  expect(response.status, JSON.stringify(body)).toBe(201);
  return body;
}

async function errorOf(response: Response) {
  const body = (await response.json()) as { error: { code: string; details?: unknown } };
  return { status: response.status, code: body.error.code };
}

function sendWithFiles(owner: Owner, text: string, fileParts: Array<Record<string, unknown>>) {
  return owner.client.fetch(`/api/workstreams/${owner.workstreamId}/messages`, {
    method: "POST",
    json: {
      message: {
        id: `m_${crypto.randomUUID().slice(0, 12)}`,
        role: "user",
        parts: [{ type: "text", text }, ...fileParts],
      },
    },
  });
}

const filePart = (file: Uploaded) => ({
  type: "file",
  mediaType: file.mediaType,
  filename: file.name,
  url: `file:${file.id}`,
});

/**
 * The deletion queued (in the delete's transaction) for the storage `prefix`, run once by a
 * runner of its own; returns the outbox event it ran.
 */
async function runQueuedDeletion(prefix: string, processId: string) {
  const db = await getDb();
  const queued = (
    await db.select().from(jobEvents).where(eq(jobEvents.name, "workstreams/files.deleted"))
  ).find((row) => (row.data as { prefix: string }).prefix === prefix);
  if (!queued) throw new Error(`no deletion was queued for ${prefix}`);
  const runner = createEmbeddedRunner({ functions: [filesDeletion], processId });
  try {
    await runner.enqueue(db, [
      { id: queued.id, name: queued.name, data: queued.data, ts: queued.createdAt.getTime() },
    ]);
    expect(await runner.runDue()).toBe(1);
  } finally {
    await runner.stop();
  }
  return queued;
}

async function fileRows(workstreamId: string) {
  return (await getDb()).select().from(files).where(eq(files.workstreamId, workstreamId));
}

describe.each<StoreKind>(["local", "s3"])("attachments on %s storage", (kind) => {
  let store: TestStore;
  let owner: Owner;

  beforeAll(async () => {
    store = await startTestStore(kind);
    setFileStore(store.store);
    owner = await userWithWorkstream(server.url, `Files ${kind}`);
  });
  afterAll(async () => {
    await store?.close();
  });

  it("takes images, PDF, DOCX and text files, typed by their bytes, and stores them under org/workstream/file", async () => {
    const png = await uploadOk(owner, "photo.png");
    const pdf = await uploadOk(owner, "report.pdf");
    const docx = await uploadOk(owner, "minutes.docx");
    const csv = await uploadOk(owner, "figures.csv", new TextEncoder().encode("a,b\n1,2\n"));
    const json = await uploadOk(owner, "data.json", new TextEncoder().encode('{"ok":true}'));
    // Multi-byte characters across the body's chunks (a sequence split between two) are text.
    const notes = await uploadOk(
      owner,
      "notes.md",
      new TextEncoder().encode("é€😀 ".repeat(9_000)),
    );
    expect(notes.mediaType).toBe("text/markdown");
    expect([png, pdf, docx, csv, json].map((file) => file.mediaType)).toEqual([
      "image/png",
      "application/pdf",
      "application/vnd.openxmlformats-officedocument.wordprocessingml.document",
      "text/csv",
      "application/json",
    ]);
    expect(pdf.pages).toBe(2);
    const rows = await fileRows(owner.workstreamId);
    const keys = await storedKeys(store.store);
    for (const file of [png, pdf, docx, csv, json]) {
      const row = rows.find((candidate) => candidate.id === file.id);
      expect(row?.storageKey).toBe(`${owner.organizationId}/${owner.workstreamId}/${file.id}`);
      expect(row?.sha256).toMatch(/^[a-f0-9]{64}$/);
      expect(keys).toContain(row?.storageKey);
    }
  });

  it("refuses bad uploads with a clear code and leaves nothing stored", async () => {
    const before = await storedKeys(store.store);
    const rowsBefore = (await fileRows(owner.workstreamId)).length;
    const png = await fixture("photo.png");
    const elf = new Uint8Array([0x7f, 0x45, 0x4c, 0x46, 2, 1, 1, 0, ...new Array(120).fill(0)]);
    const cases = {
      "over the file limit": await errorOf(
        await upload(owner, "big.txt", new Uint8Array(100_001).fill(97)),
      ),
      "a PNG named .pdf": await errorOf(await upload(owner, "report.pdf", png)),
      "an executable named .pdf": await errorOf(await upload(owner, "invoice.pdf", elf)),
      "zero bytes": await errorOf(await upload(owner, "empty.txt", new Uint8Array())),
      "JSON that does not parse": await errorOf(
        await upload(owner, "broken.json", new TextEncoder().encode("{nope")),
      ),
      "text with another extension": await errorOf(
        await upload(owner, "run.sh", new TextEncoder().encode("echo hi")),
      ),
      "unknown binary": await errorOf(
        await upload(owner, "blob.txt", new Uint8Array([0, 1, 2, 255])),
      ),
      "not multipart": await errorOf(
        await owner.client.fetch(`/api/workstreams/${owner.workstreamId}/files`, {
          method: "POST",
          json: { file: "x" },
        }),
      ),
    };
    expect(cases).toEqual({
      "over the file limit": { status: 413, code: "payload_too_large:quota" },
      "a PNG named .pdf": { status: 415, code: "unsupported_media_type:file" },
      "an executable named .pdf": { status: 415, code: "unsupported_media_type:file" },
      "zero bytes": { status: 400, code: "bad_request:empty_file" },
      "JSON that does not parse": { status: 415, code: "unsupported_media_type:file" },
      "text with another extension": { status: 415, code: "unsupported_media_type:file" },
      "unknown binary": { status: 415, code: "unsupported_media_type:file" },
      "not multipart": { status: 415, code: "unsupported_media_type:body" },
    });
    expect(await storedKeys(store.store)).toEqual(before);
    expect((await fileRows(owner.workstreamId)).length).toBe(rowsBefore);
  });

  it("a multipart body cut off halfway stores nothing and leaves no spool behind", async () => {
    const before = await storedKeys(store.store);
    const rowsBefore = (await fileRows(owner.workstreamId)).length;
    const boundary = "----cutoff";
    const head = `--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="half.txt"\r\nContent-Type: text/plain\r\n\r\n`;
    const url = new URL(`/api/workstreams/${owner.workstreamId}/files`, server.url);
    const started = uploadCounts().started;
    await new Promise<void>((resolve) => {
      const req = httpRequest(url, {
        method: "POST",
        headers: {
          cookie: owner.client.cookieHeader(),
          "content-type": `multipart/form-data; boundary=${boundary}`,
          "content-length": String(head.length + 50_000),
        },
      });
      req.on("error", () => resolve());
      req.on("close", () => resolve());
      req.write(head);
      req.write("x".repeat(20_000), () => req.destroy());
    });
    // Once the server has seen the upload and given up on it:
    await vi.waitFor(() => expect(uploadCounts()).toEqual({ started: started + 1, inFlight: 0 }), {
      timeout: 5_000,
      interval: 20,
    });
    expect(await readdir(store.store.spoolDir)).toEqual([]);
    expect(await storedKeys(store.store)).toEqual(before);
    expect((await fileRows(owner.workstreamId)).length).toBe(rowsBefore);
  });

  it("holds each organization to its quota, before the upload and at commit", async () => {
    const small = await userWithWorkstream(server.url, `Quota ${kind}`);
    const chunk = new Uint8Array(90_000).fill(98);
    await uploadOk(small, "one.txt", chunk);
    await uploadOk(small, "two.txt", chunk);
    expect(await errorOf(await upload(small, "three.txt", chunk))).toEqual({
      status: 413,
      code: "payload_too_large:quota",
    });
    expect((await fileRows(small.workstreamId)).length).toBe(2);
  });

  it("serves a file through a short-lived signed URL, to its owner only", async () => {
    const pdf = await uploadOk(owner, "report.pdf");
    const view = await owner.client.fetch(
      `/api/workstreams/${owner.workstreamId}/files/${pdf.id}?download=1`,
      { redirect: "manual" },
    );
    expect(view.status).toBe(302);
    const location = view.headers.get("location") ?? "";
    if (kind === "s3") {
      const signed = new URL(location);
      expect(signed.searchParams.get("X-Amz-Expires")).toBe("300");
      expect(signed.searchParams.get("X-Amz-Signature")).toMatch(/^[a-f0-9]{64}$/);
    } else {
      expect(location).toMatch(/\/api\/files\/file_[a-f0-9]+\?exp=\d+&dl=1&sig=/);
    }
    // Without any session: the signature is the authorization.
    const downloaded = await fetch(location);
    expect(downloaded.status).toBe(200);
    expect(downloaded.headers.get("content-disposition")).toMatch(
      /^attachment; filename="report.pdf"/,
    );
    expect(Buffer.from(await downloaded.arrayBuffer()).equals(await fixture("report.pdf"))).toBe(
      true,
    );

    const stranger = await userWithWorkstream(server.url, `Stranger ${kind}`);
    const foreign = await stranger.client.fetch(
      `/api/workstreams/${owner.workstreamId}/files/${pdf.id}`,
      { redirect: "manual" },
    );
    expect(foreign.status).toBe(404);
    const elsewhere = await stranger.client.fetch(
      `/api/workstreams/${stranger.workstreamId}/files/${pdf.id}`,
      { redirect: "manual" },
    );
    expect(await errorOf(elsewhere)).toEqual({ status: 404, code: "not_found:file" });
  });

  it("T6 T12 a message carries files by id; every turn re-signs them, the agent reads the PDF it is asked about", async () => {
    const pdf = await uploadOk(owner, "report.pdf");
    const png = await uploadOk(owner, "photo.png");
    const ask = `What does report.pdf say? [tool:read_attachment:{"fileId":"${pdf.id}"}]`;
    const response = await sendWithFiles(owner, ask, [filePart(pdf), filePart(png)]);
    expect(response.status).toBe(200);
    const { events } = await readSse(response);
    expect(statuses(events).at(-1)).toBe("ready");
    const call = events.find((event) => event.data.type === "tool-input-available");
    expect(call?.data).toMatchObject({ toolName: "read_attachment", input: { fileId: pdf.id } });
    expect(textOf(events)).toContain("Quarterly revenue grew 12 percent");

    // The stored message names the files by id; no signed URL is ever kept.
    const stored = await (await getDb())
      .select({ parts: messages.parts })
      .from(messages)
      .where(eq(messages.workstreamId, owner.workstreamId));
    const json = JSON.stringify(stored);
    expect(json).toContain(`"url":"file:${pdf.id}"`);
    expect(json).not.toMatch(/sig=|X-Amz-Signature|https?:\/\//);
    // Sent files are attached: the sweep leaves them alone.
    const rows = await fileRows(owner.workstreamId);
    expect(rows.find((row) => row.id === pdf.id)?.attachedAt).not.toBeNull();

    // The context of the turn listed both in the upload metadata and sent both to the model.
    const context = await owner.client.json<{
      lastTurn: { context: { sections: Array<{ name: string; items: number }> } };
    }>(`/api/workstreams/${owner.workstreamId}/context`);
    const sections = context.body.lastTurn.context.sections;
    expect(sections.find((section) => section.name === "uploads")?.items).toBe(2);

    // Each turn signs afresh: two resolutions a second apart give two different URLs.
    const history = [{ parts: [filePart(pdf)] }];
    const first = await resolveAttachments({
      workstreamId: owner.workstreamId,
      messages: history,
      modelId: "offline-1",
    });
    await new Promise((resolve) => setTimeout(resolve, 1_100));
    const second = await resolveAttachments({
      workstreamId: owner.workstreamId,
      messages: history,
      modelId: "offline-1",
    });
    const a = first.byId.get(pdf.id)?.url ?? "";
    const b = second.byId.get(pdf.id)?.url ?? "";
    expect(a).not.toBe(b);
    const fetched = await fetch(new URL(b, server.url));
    expect(fetched.status).toBe(200);
    expect(first.byId.get(pdf.id)).toMatchObject({ accepted: true, tokens: 3_000 });
    expect(first.byId.get(pdf.id)?.tokens).toBe(3_000);
  });

  it("the offline model describes attached files by name, type and size", async () => {
    const png = await uploadOk(owner, "photo.png");
    const response = await sendWithFiles(owner, "Here is a picture", [filePart(png)]);
    const { events } = await readSse(response);
    expect(textOf(events)).toContain("You attached **photo.png** (PNG image, 73 B)");
  });

  it("refuses file parts that are not this workstream's uploads", async () => {
    const stranger = await userWithWorkstream(server.url, `Other org ${kind}`);
    const theirs = await uploadOk(stranger, "photo.png");
    const foreign = await sendWithFiles(owner, "look", [filePart(theirs)]);
    expect(await errorOf(foreign)).toEqual({ status: 404, code: "not_found:file" });
    const outside = await sendWithFiles(owner, "look", [
      { type: "file", mediaType: "image/png", url: "https://example.com/x.png" },
    ]);
    expect(await errorOf(outside)).toEqual({ status: 400, code: "bad_request:file_part" });
  });

  it("read_attachment reads PDF and DOCX text, pages long text, and says when a PDF is scanned", async () => {
    const docx = await uploadOk(owner, "minutes.docx");
    const scanned = await uploadOk(owner, "scanned.pdf");
    const long = await uploadOk(owner, "notes.md", new TextEncoder().encode("word ".repeat(3_000)));
    expect(
      await readAttachment({ workstreamId: owner.workstreamId, fileId: docx.id }),
    ).toMatchObject({
      page: 1,
      pages: 1,
      text: expect.stringContaining("the board approved the Lisbon office"),
    });
    expect(
      await readAttachment({ workstreamId: owner.workstreamId, fileId: scanned.id }),
    ).toMatchObject({
      error: expect.stringContaining("probably scanned"),
    });
    const second = await readAttachment({
      workstreamId: owner.workstreamId,
      fileId: long.id,
      page: 2,
    });
    expect(second).toMatchObject({ page: 2, pages: 2 });
    const stranger = await userWithWorkstream(server.url, `Reader ${kind}`);
    expect(
      await readAttachment({ workstreamId: stranger.workstreamId, fileId: docx.id }),
    ).toMatchObject({
      error: "There is no such attachment in this workstream.",
    });
  });

  it("deleting a workstream queues its prefix in the same transaction; the job removes every object", async () => {
    const created = await owner.client.json<{ id: string }>("/api/workstreams", {
      method: "POST",
      json: { mode: "group" },
    });
    const group = { ...owner, workstreamId: created.body.id };
    const file = await uploadOk(group, "photo.png");
    const prefix = `${owner.organizationId}/${group.workstreamId}/`;
    expect((await storedKeys(store.store)).filter((key) => key.startsWith(prefix))).toEqual([
      `${prefix}${file.id}`,
    ]);
    await owner.client.fetch(`/api/workstreams/${group.workstreamId}/archive`, { method: "POST" });
    const deleted = await owner.client.fetch(`/api/workstreams/${group.workstreamId}`, {
      method: "DELETE",
    });
    expect(deleted.status).toBe(200);
    expect(await fileRows(group.workstreamId)).toEqual([]);
    expect(await runQueuedDeletion(prefix, `files-${kind}`)).toBeDefined();
    expect((await storedKeys(store.store)).filter((key) => key.startsWith(prefix))).toEqual([]);
  });

  it("deleting an organization queues its whole prefix in the delete's transaction; the job removes every object", async () => {
    const doomed = await userWithWorkstream(server.url, `Leaving ${kind}`);
    const created = await doomed.client.json<{ id: string }>("/api/workstreams", {
      method: "POST",
      json: { mode: "group" },
    });
    await uploadOk(doomed, "photo.png");
    await uploadOk({ ...doomed, workstreamId: created.body.id }, "report.pdf");
    const prefix = `${doomed.organizationId}/`;
    expect((await storedKeys(store.store)).filter((key) => key.startsWith(prefix))).toHaveLength(2);
    const deleted = await doomed.client.fetch("/api/auth/organization/delete", {
      method: "POST",
      json: { organizationId: doomed.organizationId },
    });
    expect(deleted.status, await deleted.text()).toBe(200);
    const db = await getDb();
    expect(
      await db.select().from(files).where(eq(files.organizationId, doomed.organizationId)),
    ).toEqual([]);
    const queued = await runQueuedDeletion(prefix, `org-${kind}`);
    expect(queued.data).toEqual({ organizationId: doomed.organizationId, prefix });
    const left = await storedKeys(store.store);
    expect(left.filter((key) => key.startsWith(prefix))).toEqual([]);
    // Another organization's files stay.
    expect(left.some((key) => key.startsWith(`${owner.organizationId}/`))).toBe(true);
  });

  it("Retry of a failed turn sends the message's files again, and the turn has them", async () => {
    const photo = await uploadOk(owner, "photo.png");
    const message = {
      id: `m_retry_${kind}`,
      role: "user",
      parts: [{ type: "text", text: "[fail:3] what is this?" }, filePart(photo)],
    };
    const post = () =>
      owner.client.fetch(`/api/workstreams/${owner.workstreamId}/messages`, {
        method: "POST",
        json: { message },
      });
    const failed = await readSse(await post());
    expect(statuses(failed.events).at(-1)).toBe("error");
    const retried = await post();
    expect(retried.status).toBe(200);
    const answer = await readSse(retried);
    expect(statuses(answer.events).at(-1)).toBe("ready");
    expect(textOf(answer.events)).toContain("photo.png");
    const stored = await (await getDb()).select().from(messages).where(eq(messages.id, message.id));
    expect(stored).toHaveLength(1);
    expect(stored[0]?.parts).toEqual(message.parts);
  });

  it("the sweep removes uploads never attached after a day; the reconciler removes objects no row owns", async () => {
    const loose = await uploadOk(owner, "figures.csv", new TextEncoder().encode("x,y\n"));
    const kept = await uploadOk(owner, "photo.png");
    await sendWithFiles(owner, "keep this", [filePart(kept)]).then((response) => readSse(response));
    const later = Date.now() + 86_400_000 + 60_000;
    expect(await sweepUnattachedUploads(later)).toBeGreaterThanOrEqual(1);
    const rows = await fileRows(owner.workstreamId);
    expect(rows.some((row) => row.id === loose.id)).toBe(false);
    expect(rows.some((row) => row.id === kept.id)).toBe(true);
    const keys = await storedKeys(store.store);
    expect(keys.some((key) => key.endsWith(loose.id))).toBe(false);

    // An object without a row (a crash between storing and recording it) goes once it is an
    // hour old; owned objects stay.
    const orphanKey = `${owner.organizationId}/${owner.workstreamId}/file_${"0".repeat(32)}`;
    const spool = path.join(
      await import("node:os").then((os) => os.tmpdir()),
      `orphan-${kind}-${Date.now()}`,
    );
    await import("node:fs/promises").then((fs) => fs.writeFile(spool, "orphan"));
    await store.store.putFile(orphanKey, spool, { size: 6, mediaType: "text/plain" });
    expect(await reconcileStorage(Date.now())).toBe(0);
    expect(await reconcileStorage(Date.now() + 3_600_000 + 60_000)).toBeGreaterThanOrEqual(1);
    const after = await storedKeys(store.store);
    expect(after).not.toContain(orphanKey);
    expect(after.some((key) => key.endsWith(kept.id))).toBe(true);
  });
});

describe("the local store's signed URLs", () => {
  let store: TestStore;
  let owner: Owner;
  let file: Uploaded;

  beforeAll(async () => {
    store = await startTestStore("local");
    setFileStore(store.store);
    owner = await userWithWorkstream(server.url, "Signed URLs");
    file = await uploadOk(owner, "photo.png");
  });
  afterAll(async () => {
    await store?.close();
  });

  it("serve the file while valid and answer 403 once expired or altered in any part", async () => {
    const valid = signedFilePath(file.id, { ttlMs: 60_000 });
    const ok = await fetch(new URL(valid, server.url));
    expect(ok.status).toBe(200);
    expect(ok.headers.get("content-type")).toBe("image/png");
    expect(ok.headers.get("x-content-type-options")).toBe("nosniff");
    await ok.arrayBuffer();

    const url = new URL(valid, server.url);
    const altered = (change: (params: URLSearchParams) => void, pathname = url.pathname) => {
      const copy = new URL(url);
      copy.pathname = pathname;
      change(copy.searchParams);
      return copy;
    };
    const other = await uploadOk(owner, "report.pdf");
    const cases = {
      expired: new URL(
        signedFilePath(file.id, { ttlMs: 60_000, now: Date.now() - 120_000 }),
        server.url,
      ),
      "expiry stretched": altered((params) =>
        params.set("exp", String(Number(params.get("exp")) + 3_600)),
      ),
      "view turned into download": altered((params) => params.set("dl", "1")),
      "signature changed": altered((params) =>
        params.set("sig", `${(params.get("sig") ?? "").slice(0, -2)}AA`),
      ),
      "another file": altered(() => {}, `/api/files/${other.id}`),
      "no signature": altered((params) => params.delete("sig")),
    };
    const actual: Record<string, { status: number; code: string }> = {};
    for (const [name, target] of Object.entries(cases))
      actual[name] = await errorOf(await fetch(target));
    expect(actual).toEqual({
      expired: { status: 403, code: "forbidden:url_expired" },
      "expiry stretched": { status: 403, code: "forbidden:url_signature" },
      "view turned into download": { status: 403, code: "forbidden:url_signature" },
      "signature changed": { status: 403, code: "forbidden:url_signature" },
      "another file": { status: 403, code: "forbidden:url_signature" },
      "no signature": { status: 403, code: "forbidden:url_signature" },
    });
  });

  it("S3 a signed URL with U+0000 in its query answers 400 bad_request:text, like every query", async () => {
    const url = new URL(signedFilePath(file.id, { ttlMs: 60_000 }), server.url);
    const actual: Record<string, { status: number; code: string }> = {};
    for (const name of ["sig", "exp", "dl"]) {
      const copy = new URL(url);
      copy.searchParams.set(name, `${copy.searchParams.get(name) ?? ""}\u0000`);
      actual[name] = await errorOf(await fetch(copy));
    }
    const refused = { status: 400, code: "bad_request:text" };
    expect(actual).toEqual({ sig: refused, exp: refused, dl: refused });
  });
});
