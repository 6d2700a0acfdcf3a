-- An answer row is written many times (every change of the student's answer, then the score
-- at finish) and none of those writes changes an indexed column. Room left on each page lets
-- PostgreSQL keep the new version on the same page without touching the indexes (a HOT update).
ALTER TABLE "answers" SET (fillfactor = 70);
