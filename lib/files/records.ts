// The `files` table's writes and reads: a new upload within the organization's quota, the files
// a message names, the sweep of uploads never attached. Only lib/files writes this table.
import "server-only";
import { and, desc, eq, inArray, isNotNull, isNull, lt, sql } from "drizzle-orm";
import { getDb, type Tx, transaction } from "@/db/client";
import { files } from "@/db/schema";
import { config } from "@/lib/config";
import { AppError } from "@/lib/kernel/errors";

export type FileRow = typeof files.$inferSelect;

/** A file as clients see it: never its storage key. */
export type FileSummary = {
  id: string;
  name: string;
  mediaType: string;
  size: number;
  pages: number | null;
  createdAt: string;
};

export function toFileSummary(row: FileRow): FileSummary {
  return {
    id: row.id,
    name: row.name,
    mediaType: row.mediaType,
    size: row.size,
    pages: row.pages,
    createdAt: row.createdAt.toISOString(),
  };
}

export function newFileId(): string {
  return `file_${crypto.randomUUID().replaceAll("-", "")}`;
}

/** Bytes the organization stores now. */
export async function organizationBytes(organizationId: string, db?: Tx): Promise<number> {
  const handle = db ?? (await getDb());
  const [row] = await handle
    .select({ total: sql<string>`coalesce(sum(${files.size}), 0)` })
    .from(files)
    .where(eq(files.organizationId, organizationId));
  return Number(row?.total ?? 0);
}

export function quotaError(scope: "file" | "organization", limit: number): AppError {
  return new AppError("payload_too_large:quota", { details: { scope, limit } });
}

/**
 * Records a stored upload, unless it would take the organization past its quota: the check and
 * the insert hold the organization's advisory lock, so two uploads cannot both squeeze into the
 * last free bytes.
 */
export async function insertFile(row: typeof files.$inferInsert): Promise<FileRow> {
  return transaction(async (tx) => {
    await tx.execute(sql`select pg_advisory_xact_lock(hashtext(${`files:${row.organizationId}`}))`);
    const used = await organizationBytes(row.organizationId, tx);
    if (used + row.size > config.files.maxOrgBytes) {
      throw quotaError("organization", config.files.maxOrgBytes);
    }
    const [inserted] = await tx.insert(files).values(row).returning();
    if (!inserted) throw new Error("file insert returned nothing");
    return inserted;
  });
}

/** A file of this workstream, or 404 (another workstream's or organization's file is unknown here). */
export async function getWorkstreamFile({
  workstreamId,
  fileId,
}: {
  workstreamId: string;
  fileId: string;
}): Promise<FileRow> {
  const db = await getDb();
  const [row] = await db
    .select()
    .from(files)
    .where(and(eq(files.id, fileId), eq(files.workstreamId, workstreamId)))
    .limit(1);
  if (!row) throw new AppError("not_found:file");
  return row;
}

export async function getFileById(fileId: string): Promise<FileRow | null> {
  const db = await getDb();
  const [row] = await db.select().from(files).where(eq(files.id, fileId)).limit(1);
  return row ?? null;
}

/** The rows of `fileIds` that belong to the workstream, in one read. */
export async function workstreamFiles(workstreamId: string, fileIds: string[]): Promise<FileRow[]> {
  if (!fileIds.length) return [];
  const db = await getDb();
  return db
    .select()
    .from(files)
    .where(and(eq(files.workstreamId, workstreamId), inArray(files.id, fileIds)));
}

/** What a turn needs of a file to list it, count it and sign its URL. */
export type AttachedFile = Pick<
  FileRow,
  "id" | "name" | "mediaType" | "size" | "pages" | "storageKey"
>;

/** How many of a workstream's files a turn reads with its history. */
const TURN_FILES_LIMIT = 200;

/**
 * The workstream's files a turn may find in its history, newest first: the attached ones. A file
 * the history names beyond these (the new message's, which the send route marks attached once
 * the turn is open) is read when the turn resolves its attachments.
 */
export async function turnFiles(workstreamId: string): Promise<AttachedFile[]> {
  const db = await getDb();
  return db
    .select({
      id: files.id,
      name: files.name,
      mediaType: files.mediaType,
      size: files.size,
      pages: files.pages,
      storageKey: files.storageKey,
    })
    .from(files)
    .where(and(eq(files.workstreamId, workstreamId), isNotNull(files.attachedAt)))
    .orderBy(desc(files.createdAt))
    .limit(TURN_FILES_LIMIT);
}

/** Marks the files a sent message carries as attached (the sweep leaves them alone from then). */
export async function markAttached(workstreamId: string, fileIds: string[]): Promise<void> {
  if (!fileIds.length) return;
  const db = await getDb();
  await db
    .update(files)
    .set({ attachedAt: new Date() })
    .where(
      and(
        eq(files.workstreamId, workstreamId),
        inArray(files.id, fileIds),
        isNull(files.attachedAt),
      ),
    );
}

/** Removes an upload no message carries (a chip removed before sending). */
export async function deleteUnattached(workstreamId: string, fileId: string): Promise<FileRow> {
  const db = await getDb();
  const [row] = await db
    .delete(files)
    .where(
      and(eq(files.id, fileId), eq(files.workstreamId, workstreamId), isNull(files.attachedAt)),
    )
    .returning();
  if (!row) throw new AppError("not_found:file");
  return row;
}

/** Uploads never attached and older than `before`: their rows go, their keys are returned. */
export async function takeUnattached(before: Date, limit = 500): Promise<string[]> {
  const db = await getDb();
  const rows = await db
    .delete(files)
    .where(
      inArray(
        files.id,
        db
          .select({ id: files.id })
          .from(files)
          .where(and(isNull(files.attachedAt), lt(files.createdAt, before)))
          .limit(limit),
      ),
    )
    .returning({ storageKey: files.storageKey });
  return rows.map((row) => row.storageKey);
}

/** Which of `keys` a files row owns. */
export async function ownedKeys(keys: string[]): Promise<Set<string>> {
  if (!keys.length) return new Set();
  const db = await getDb();
  const rows = await db
    .select({ key: files.storageKey })
    .from(files)
    .where(inArray(files.storageKey, keys));
  return new Set(rows.map((row) => row.key));
}
