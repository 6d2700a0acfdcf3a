CREATE TABLE "phase_prizes" (
	"phase_id" uuid NOT NULL,
	"student_id" uuid NOT NULL,
	"prize" text NOT NULL,
	"awarded_by" uuid,
	"awarded_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "phase_prizes_phase_id_student_id_pk" PRIMARY KEY("phase_id","student_id")
);
--> statement-breakpoint
CREATE TABLE "phase_ranks" (
	"phase_id" uuid NOT NULL,
	"student_id" uuid NOT NULL,
	"grade" integer,
	"points" numeric(10, 2) NOT NULL,
	"tie_key" numeric[],
	"rank" integer NOT NULL,
	"ranked_in_grade" integer NOT NULL,
	CONSTRAINT "phase_ranks_phase_id_student_id_pk" PRIMARY KEY("phase_id","student_id")
);
--> statement-breakpoint
CREATE TABLE "phase_rules" (
	"phase_id" uuid PRIMARY KEY NOT NULL,
	"rules" jsonb NOT NULL,
	"updated_by" uuid,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "ranking_changes" (
	"phase_id" uuid NOT NULL,
	"changed_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "ranking_state" (
	"phase_id" uuid PRIMARY KEY NOT NULL,
	"computed_at" timestamp with time zone
);
--> statement-breakpoint
ALTER TABLE "phase_prizes" ADD CONSTRAINT "phase_prizes_phase_id_phases_id_fk" FOREIGN KEY ("phase_id") REFERENCES "public"."phases"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "phase_prizes" ADD CONSTRAINT "phase_prizes_student_id_users_id_fk" FOREIGN KEY ("student_id") REFERENCES "public"."users"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "phase_prizes" ADD CONSTRAINT "phase_prizes_awarded_by_users_id_fk" FOREIGN KEY ("awarded_by") REFERENCES "public"."users"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "phase_ranks" ADD CONSTRAINT "phase_ranks_phase_id_phases_id_fk" FOREIGN KEY ("phase_id") REFERENCES "public"."phases"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "phase_ranks" ADD CONSTRAINT "phase_ranks_student_id_users_id_fk" FOREIGN KEY ("student_id") REFERENCES "public"."users"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "phase_rules" ADD CONSTRAINT "phase_rules_phase_id_phases_id_fk" FOREIGN KEY ("phase_id") REFERENCES "public"."phases"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "phase_rules" ADD CONSTRAINT "phase_rules_updated_by_users_id_fk" FOREIGN KEY ("updated_by") REFERENCES "public"."users"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "ranking_state" ADD CONSTRAINT "ranking_state_phase_id_phases_id_fk" FOREIGN KEY ("phase_id") REFERENCES "public"."phases"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "phase_ranks_grade_rank_idx" ON "phase_ranks" USING btree ("phase_id","grade","rank","student_id");--> statement-breakpoint
CREATE INDEX "ranking_changes_phase_idx" ON "ranking_changes" USING btree ("phase_id");