CREATE TABLE "exam_day_stats" (
	"minute" timestamp with time zone NOT NULL,
	"test_id" uuid NOT NULL,
	"instance" text NOT NULL,
	"writes" integer DEFAULT 0 NOT NULL,
	"errors" integer DEFAULT 0 NOT NULL,
	"latency" integer[] NOT NULL,
	CONSTRAINT "exam_day_stats_minute_test_id_instance_pk" PRIMARY KEY("minute","test_id","instance")
);
--> statement-breakpoint
ALTER TABLE "attempts" ADD COLUMN "last_seen_at" timestamp with time zone;--> statement-breakpoint
CREATE INDEX "exam_day_stats_test_minute_idx" ON "exam_day_stats" USING btree ("test_id","minute");