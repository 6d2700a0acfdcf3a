-- Audit events stay evidence, and a person's right to be forgotten still reaches them: while
-- one transaction anonymises a person (it names them with set_config('podium.anonymising',
-- <their id>, true)), the values (before, after) of the events about that person may be
-- replaced. Nothing else of any event changes (who, what, when, why stay) and no event is ever
-- removed; outside such a transaction every UPDATE and DELETE is refused as before.
CREATE OR REPLACE FUNCTION audit_events_refuse_change() RETURNS trigger
LANGUAGE plpgsql AS $$
DECLARE
  anonymising text := current_setting('podium.anonymising', true);
BEGIN
  IF TG_OP = 'UPDATE'
     AND anonymising IS NOT NULL AND anonymising <> ''
     AND OLD.entity_type = 'user' AND OLD.entity_id = anonymising
     AND NEW.id = OLD.id
     AND NEW.actor_id IS NOT DISTINCT FROM OLD.actor_id
     AND NEW.action = OLD.action
     AND NEW.entity_type = OLD.entity_type
     AND NEW.entity_id = OLD.entity_id
     AND NEW.reason IS NOT DISTINCT FROM OLD.reason
     AND NEW.at = OLD.at
  THEN
    RETURN NEW;
  END IF;
  RAISE EXCEPTION 'audit_events is append-only';
END;
$$;
