// Receiving an upload: the multipart body is parsed with busboy as it arrives and the file is
// spooled to disk while it is hashed, counted and checked for UTF-8 (never held in memory whole,
// and its dead chunks collected as it goes).
// Only a complete, typed, in-quota file reaches storage; then its row is written. Whatever goes
// wrong on the way (a body cut off, a file over the limit, a refused type) removes the spool,
// so nothing is stored and nothing is left behind.
import "server-only";
import { isUtf8 } from "node:buffer";
import { createHash, randomUUID } from "node:crypto";
import { createWriteStream } from "node:fs";
import { mkdir, rm } from "node:fs/promises";
import path from "node:path";
import { Readable, Transform } from "node:stream";
import { pipeline } from "node:stream/promises";
import v8 from "node:v8";
import vm from "node:vm";
import Busboy from "busboy";
import { config } from "@/lib/config";
import { isStorableText } from "@/lib/http/text";
import { AppError } from "@/lib/kernel/errors";
import { pdfPageCount } from "./extract";
import {
  type FileSummary,
  insertFile,
  newFileId,
  organizationBytes,
  quotaError,
  toFileSummary,
} from "./records";
import { sniffFile } from "./sniff";
import { storageKey } from "./storage";
import { getFileStore } from "./store-instance";

/** Room for the multipart framing around the file. */
const FRAMING_BYTES = 64 * 1024;
const NAME_MAX_CHARS = 200;

type Spooled = {
  path: string;
  name: string;
  size: number;
  sha256: string;
  text: boolean;
};

/** Uploads received and still being handled in this process (tests wait for them to settle). */
const counts = { started: 0, inFlight: 0 };

export function uploadCounts(): Readonly<typeof counts> {
  return { ...counts };
}

/** The name without any path, trimmed to a sane length, storable. */
export function cleanName(raw: string | undefined): string {
  const base = (raw ?? "").split(/[\\/]/).at(-1)?.trim() ?? "";
  const name = base.replace(/\p{Cc}/gu, "").slice(0, NAME_MAX_CHARS);
  if (!name || !isStorableText(name))
    throw new AppError("bad_request:upload", { details: { field: "filename" } });
  return name;
}

/** Bytes read between two young-generation collections (see `collectYoung`). */
const COLLECT_EVERY_BYTES = 2 * 1024 * 1024;

type Collect = (options: { type: "minor"; execution: "async" }) => void;
let collector: Collect | null | undefined;

/**
 * Asks V8 for a young-generation collection. An upload's chunks (the socket's 64 KB reads and
 * the request body's copy of each: 40 MB of buffers for a 20 MB file) die at once, but the small
 * objects that own them barely fill V8's young heap, so nothing collects them: a 20 MB upload
 * left the server ~30 MB bigger, in dead buffers. A collection every 2 MB read frees them as the
 * upload goes (each takes about a millisecond). V8 offers the call only to code that can see
 * `gc`, so it is taken once from a context of its own.
 */
function collectYoung(): void {
  if (collector === undefined) {
    try {
      const exposed = typeof globalThis.gc === "function";
      if (!exposed) v8.setFlagsFromString("--expose-gc");
      collector = vm.runInNewContext("gc") as Collect;
      if (!exposed) v8.setFlagsFromString("--no-expose-gc");
    } catch (error) {
      console.warn("[files] no garbage collection hook; uploads leave their garbage to V8:", error);
      collector = null;
    }
  }
  collector?.({ type: "minor", execution: "async" });
}

/** Bytes a UTF-8 sequence starting with `byte` takes (1 for anything else). */
function sequenceLength(byte: number): number {
  if (byte >= 0xf0) return 4;
  if (byte >= 0xe0) return 3;
  if (byte >= 0xc0) return 2;
  return 1;
}

/**
 * Hashes, counts and checks UTF-8 on the way to the spool. The check validates bytes in place
 * (`isUtf8`), carrying a sequence split between chunks over to the next one, rather than
 * decoding to strings, which for a 20 MB text file would churn twice its size in garbage.
 */
class Inspector extends Transform {
  readonly hash = createHash("sha256");
  size = 0;
  text = true;
  private carry: Buffer = Buffer.alloc(0);
  private sinceCollect = 0;

  override _transform(
    chunk: Buffer,
    _encoding: BufferEncoding,
    done: (error?: Error | null, data?: Buffer) => void,
  ) {
    this.hash.update(chunk);
    this.size += chunk.length;
    if (this.text) this.check(chunk);
    this.sinceCollect += chunk.length;
    if (this.sinceCollect >= COLLECT_EVERY_BYTES) {
      this.sinceCollect = 0;
      collectYoung();
    }
    done(null, chunk);
  }

  private check(chunk: Buffer) {
    if (chunk.includes(0)) {
      this.text = false;
      return;
    }
    const data = this.carry.length ? Buffer.concat([this.carry, chunk]) : chunk;
    // A sequence cut off at the end waits for the rest in the next chunk.
    let cut = data.length;
    for (let i = data.length - 1; i >= Math.max(0, data.length - 4); i--) {
      const byte = data[i] ?? 0;
      if ((byte & 0xc0) === 0x80) continue;
      if (data.length - i < sequenceLength(byte)) cut = i;
      break;
    }
    if (!isUtf8(data.subarray(0, cut))) this.text = false;
    this.carry = Buffer.from(data.subarray(cut));
  }

  override _flush(done: (error?: Error) => void) {
    if (this.carry.length) this.text = false;
    done();
  }
}

/** Parses the body and spools its one file; rejects on a cut-off body or a file over the limit. */
async function spool(request: Request): Promise<Spooled> {
  if (!request.body) throw new AppError("bad_request:upload");
  const dir = getFileStore().spoolDir;
  await mkdir(dir, { recursive: true });
  const target = path.join(dir, randomUUID());
  const parser = Busboy({
    headers: Object.fromEntries(request.headers),
    defParamCharset: "utf8",
    limits: { files: 1, fileSize: config.files.maxFileBytes, fields: 0, parts: 2 },
  });
  let written: Promise<Spooled> | null = null;
  let tooLarge = false;
  const parsed = new Promise<void>((resolve, reject) => {
    parser.on("file", (_field, stream, info) => {
      if (written) {
        stream.resume();
        return;
      }
      let name: string;
      try {
        name = cleanName(info.filename);
      } catch (error) {
        stream.resume();
        reject(error);
        return;
      }
      stream.on("limit", () => {
        tooLarge = true;
      });
      const inspector = new Inspector();
      written = pipeline(stream, inspector, createWriteStream(target)).then(() => ({
        path: target,
        name,
        size: inspector.size,
        sha256: inspector.hash.digest("hex"),
        text: inspector.text,
      }));
      // A failed write surfaces through `written`; it must not go unhandled meanwhile.
      written.catch(() => {});
    });
    parser.on("close", resolve);
    parser.on("error", reject);
  });
  try {
    await Promise.all([
      pipeline(Readable.fromWeb(request.body as import("node:stream/web").ReadableStream), parser),
      parsed,
    ]);
    const result = written as Promise<Spooled> | null;
    if (!result) throw new AppError("bad_request:upload", { details: { field: "file" } });
    const spooled = await result;
    if (tooLarge) throw quotaError("file", config.files.maxFileBytes);
    return spooled;
  } catch (error) {
    await rm(target, { force: true });
    if (error instanceof AppError) throw error;
    if (tooLarge) throw quotaError("file", config.files.maxFileBytes);
    // A body that ends before the form does (a dropped connection) or is not a form at all.
    throw new AppError("bad_request:upload");
  }
}

export async function receiveUpload({
  request,
  organizationId,
  workstreamId,
  ownerId,
}: {
  request: Request;
  organizationId: string;
  workstreamId: string;
  ownerId: string;
}): Promise<FileSummary> {
  const { maxFileBytes, maxOrgBytes } = config.files;
  // Refused before a byte is read when the announced length already says no.
  const announced = Number(request.headers.get("content-length") ?? Number.NaN);
  if (announced > maxFileBytes + FRAMING_BYTES) throw quotaError("file", maxFileBytes);
  const used = await organizationBytes(organizationId);
  const expected = Number.isFinite(announced) ? Math.max(0, announced - FRAMING_BYTES) : 1;
  if (used + expected > maxOrgBytes) throw quotaError("organization", maxOrgBytes);

  counts.started += 1;
  counts.inFlight += 1;
  try {
    return await store(request, { organizationId, workstreamId, ownerId });
  } finally {
    counts.inFlight -= 1;
  }
}

async function store(
  request: Request,
  {
    organizationId,
    workstreamId,
    ownerId,
  }: { organizationId: string; workstreamId: string; ownerId: string },
): Promise<FileSummary> {
  const spooled = await spool(request);
  const fileId = newFileId();
  const key = storageKey({ organizationId, workstreamId, fileId });
  let stored = false;
  try {
    if (spooled.size === 0) throw new AppError("bad_request:empty_file");
    const sniffed = await sniffFile(spooled.path, spooled.name, spooled.text);
    if (!sniffed.ok) {
      throw new AppError("unsupported_media_type:file", {
        details: { detected: sniffed.detected },
      });
    }
    const pages =
      sniffed.mediaType === "application/pdf"
        ? await pdfPageCount(spooled.path, spooled.size)
        : null;
    await getFileStore().putFile(key, spooled.path, {
      size: spooled.size,
      mediaType: sniffed.mediaType,
    });
    stored = true;
    const row = await insertFile({
      id: fileId,
      organizationId,
      workstreamId,
      ownerId,
      name: spooled.name,
      mediaType: sniffed.mediaType,
      size: spooled.size,
      sha256: spooled.sha256,
      storageKey: key,
      pages,
    });
    return toFileSummary(row);
  } catch (error) {
    if (stored) {
      await getFileStore()
        .remove(key)
        .catch((cause: unknown) =>
          console.error("[files] removing a refused upload failed:", cause),
        );
    }
    throw error;
  } finally {
    await rm(spooled.path, { force: true });
  }
}
