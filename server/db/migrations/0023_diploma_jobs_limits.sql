ALTER TABLE "diploma_jobs" ADD COLUMN "file_bytes" bigint;--> statement-breakpoint
-- Of the jobs one person started on one phase and that still wait or run, the first goes on.
UPDATE "diploma_jobs" SET "state" = 'failed', "error_code" = 'JOB_ALREADY_RUNNING', "finished_at" = now()
WHERE "state" in ('queued', 'running') AND EXISTS (
  SELECT 1 FROM "diploma_jobs" AS "first"
  WHERE "first"."requested_by" = "diploma_jobs"."requested_by"
    AND "first"."phase_id" = "diploma_jobs"."phase_id"
    AND "first"."state" in ('queued', 'running')
    AND ("first"."created_at", "first"."id") < ("diploma_jobs"."created_at", "diploma_jobs"."id")
);--> statement-breakpoint
CREATE UNIQUE INDEX "diploma_jobs_one_running_key" ON "diploma_jobs" USING btree ("requested_by","phase_id") WHERE "diploma_jobs"."state" in ('queued', 'running');
