-- A deleted organization's stored files go the way a deleted workstream's do: its storage prefix
-- is queued in the jobs outbox by the statement that deletes it, so the files-deletion job
-- removes the objects even when the process dies right after. A trigger, because better-auth
-- deletes the organization (POST /api/auth/organization/delete) in a transaction of its own.
CREATE FUNCTION "queue_organization_files_deletion"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  INSERT INTO "job_events" ("id", "name", "data")
  VALUES (gen_random_uuid()::text, 'workstreams/files.deleted',
    jsonb_build_object('organizationId', OLD."id", 'prefix', OLD."id" || '/'));
  RETURN OLD;
END
$$;
--> statement-breakpoint
CREATE TRIGGER "organization_files_deletion" AFTER DELETE ON "organization"
  FOR EACH ROW EXECUTE FUNCTION "queue_organization_files_deletion"();
