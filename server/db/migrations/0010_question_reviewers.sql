ALTER TABLE "question_graders" RENAME TO "question_reviewers";--> statement-breakpoint
ALTER TABLE "question_reviewers" DROP CONSTRAINT "question_graders_question_id_questions_id_fk";
--> statement-breakpoint
ALTER TABLE "question_reviewers" DROP CONSTRAINT "question_graders_teacher_id_users_id_fk";
--> statement-breakpoint
DROP INDEX "question_graders_teacher_idx";--> statement-breakpoint
ALTER TABLE "question_reviewers" DROP CONSTRAINT "question_graders_question_id_teacher_id_pk";--> statement-breakpoint
ALTER TABLE "question_reviewers" ADD CONSTRAINT "question_reviewers_question_id_teacher_id_pk" PRIMARY KEY("question_id","teacher_id");--> statement-breakpoint
ALTER TABLE "question_reviewers" ADD CONSTRAINT "question_reviewers_question_id_questions_id_fk" FOREIGN KEY ("question_id") REFERENCES "public"."questions"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "question_reviewers" ADD CONSTRAINT "question_reviewers_teacher_id_users_id_fk" FOREIGN KEY ("teacher_id") REFERENCES "public"."users"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "question_reviewers_teacher_idx" ON "question_reviewers" USING btree ("teacher_id");