// Rows that belong to a member or to their organization: the tables with an "organization_id"
// and an "owner_id" that is null for the organization's rows (memories, skills). Whose rows a
// call reaches, and the one row a statement on such a row answers. Each domain keeps its own
// statements; only this rule is shared.
import { type SQL, sql } from "drizzle-orm";
import { AppError, type ErrorCode } from "@/lib/kernel/errors";
import { isUniqueViolation } from "./errors";

/** Whose rows a call reaches: one member's (userId), or the organization's (null). */
export type RowOwner = { organizationId: string; userId: string | null };

/** The statement's rows `owner` reaches: that member's own, or the organization's. */
export function ownedBy(owner: RowOwner): SQL {
  return sql`"organization_id" = ${owner.organizationId}
    and "owner_id" is not distinct from ${owner.userId}::text`;
}

/**
 * The one row a statement on an owned row returned. No row is `notFound` (gone, or not the
 * caller's: the same answer, so a guess learns nothing); a unique violation (a change onto a
 * name or text another row has) is `exists`.
 */
export async function oneOwnedRow<T>(
  statement: Promise<T[]>,
  codes: { notFound: ErrorCode; exists?: ErrorCode },
): Promise<T> {
  let rows: T[];
  try {
    rows = await statement;
  } catch (error) {
    if (codes.exists && isUniqueViolation(error)) throw new AppError(codes.exists);
    throw error;
  }
  const [row] = rows;
  if (!row) throw new AppError(codes.notFound);
  return row;
}
