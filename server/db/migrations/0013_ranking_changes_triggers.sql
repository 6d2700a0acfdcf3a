-- Rankings are kept in phase_ranks and rebuilt only when something they are made of changed
-- (server/modules/rankings). These triggers note such changes in ranking_changes, in the
-- transaction that makes them, whichever module writes: a phase total (phase_results, any
-- update of it, which also covers items' points moving without the total changing), a
-- participant coming or going (phase_students), the grade a student competes in
-- (edition_students, users) and a deleted account. Appending a row never waits on another
-- writer, so exam day's finishes do not queue behind each other here.
CREATE OR REPLACE FUNCTION ranking_changes_of_phase_rows() RETURNS trigger
LANGUAGE plpgsql AS $$
BEGIN
  IF TG_OP = 'DELETE' THEN
    INSERT INTO ranking_changes (phase_id) SELECT DISTINCT phase_id FROM old_rows;
  ELSE
    INSERT INTO ranking_changes (phase_id) SELECT DISTINCT phase_id FROM new_rows;
  END IF;
  RETURN NULL;
END;
$$;
--> statement-breakpoint
CREATE TRIGGER phase_results_ranking_insert AFTER INSERT ON phase_results
  REFERENCING NEW TABLE AS new_rows
  FOR EACH STATEMENT EXECUTE FUNCTION ranking_changes_of_phase_rows();
--> statement-breakpoint
CREATE TRIGGER phase_results_ranking_update AFTER UPDATE ON phase_results
  REFERENCING NEW TABLE AS new_rows
  FOR EACH STATEMENT EXECUTE FUNCTION ranking_changes_of_phase_rows();
--> statement-breakpoint
CREATE TRIGGER phase_results_ranking_delete AFTER DELETE ON phase_results
  REFERENCING OLD TABLE AS old_rows
  FOR EACH STATEMENT EXECUTE FUNCTION ranking_changes_of_phase_rows();
--> statement-breakpoint
CREATE TRIGGER phase_students_ranking_insert AFTER INSERT ON phase_students
  REFERENCING NEW TABLE AS new_rows
  FOR EACH STATEMENT EXECUTE FUNCTION ranking_changes_of_phase_rows();
--> statement-breakpoint
CREATE TRIGGER phase_students_ranking_delete AFTER DELETE ON phase_students
  REFERENCING OLD TABLE AS old_rows
  FOR EACH STATEMENT EXECUTE FUNCTION ranking_changes_of_phase_rows();
--> statement-breakpoint
CREATE OR REPLACE FUNCTION ranking_changes_of_student() RETURNS trigger
LANGUAGE plpgsql AS $$
BEGIN
  IF TG_TABLE_NAME = 'edition_students' THEN
    INSERT INTO ranking_changes (phase_id)
      SELECT ps.phase_id FROM phase_students ps JOIN phases p ON p.id = ps.phase_id
      WHERE ps.student_id = NEW.student_id AND p.edition_id = NEW.edition_id;
  ELSE
    INSERT INTO ranking_changes (phase_id)
      SELECT ps.phase_id FROM phase_students ps WHERE ps.student_id = NEW.id;
  END IF;
  RETURN NULL;
END;
$$;
--> statement-breakpoint
CREATE TRIGGER edition_students_ranking_grade AFTER UPDATE OF grade ON edition_students
  FOR EACH ROW WHEN (OLD.grade IS DISTINCT FROM NEW.grade)
  EXECUTE FUNCTION ranking_changes_of_student();
--> statement-breakpoint
CREATE TRIGGER users_ranking_grade AFTER UPDATE OF grade, deleted_at ON users
  FOR EACH ROW WHEN (OLD.grade IS DISTINCT FROM NEW.grade OR OLD.deleted_at IS DISTINCT FROM NEW.deleted_at)
  EXECUTE FUNCTION ranking_changes_of_student();
