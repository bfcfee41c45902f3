// Attachments: files members upload into a workstream. Written only by lib/files (uploads, the
// send route marking a file attached, the sweep). The bytes live in the storage behind
// lib/files/storage.ts under `<organization>/<workstream>/<file>`; this row is what owns them, so
// an object no row points at is an orphan the start-up reconciler removes.
import { sql } from "drizzle-orm";
import { bigint, index, integer, pgTable, text, timestamp, uniqueIndex } from "drizzle-orm/pg-core";
import { organization, user } from "./auth";
import { workstreams } from "./workstreams";

export const files = pgTable(
  "files",
  {
    id: text("id").primaryKey(),
    organizationId: text("organization_id")
      .notNull()
      .references(() => organization.id, { onDelete: "cascade" }),
    // The row goes with its workstream; the objects under its prefix go by the deletion job the
    // delete transaction queues (lib/files/lifecycle.ts).
    workstreamId: text("workstream_id")
      .notNull()
      .references(() => workstreams.id, { onDelete: "cascade" }),
    ownerId: text("owner_id")
      .notNull()
      .references(() => user.id, { onDelete: "cascade" }),
    /** The name the member gave it (path parts removed). */
    name: text("name").notNull(),
    /** Decided from the bytes (lib/files/sniff.ts), never from what the browser said. */
    mediaType: text("media_type").notNull(),
    size: bigint("size", { mode: "number" }).notNull(),
    sha256: text("sha256").notNull(),
    storageKey: text("storage_key").notNull(),
    /** PDF pages (the context counts a PDF by its pages); null for other types. */
    pages: integer("pages"),
    createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
    /** When a sent message first carried it; never attached uploads are swept after a day. */
    attachedAt: timestamp("attached_at", { withTimezone: true }),
  },
  (t) => [
    uniqueIndex("files_storage_key_idx").on(t.storageKey),
    index("files_workstream_idx").on(t.workstreamId, t.createdAt),
    // The organization's quota sums its sizes.
    index("files_organization_idx").on(t.organizationId),
    index("files_unattached_idx").on(t.createdAt).where(sql`${t.attachedAt} is null`),
  ],
);
