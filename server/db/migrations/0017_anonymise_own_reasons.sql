-- The words a person wrote into an event are theirs to have forgotten too: an appeal's reason,
-- typed by the student, sits in the `reason` of the event they did. While one transaction
-- anonymises a person (set_config('podium.anonymising', <their id>, true)), besides the values
-- of the events about their account (0015), the reason of the events they did may be replaced.
-- Who, what, when and the values of those events stay; no event is ever removed; outside such
-- a transaction every UPDATE and DELETE is refused as before.
CREATE OR REPLACE FUNCTION audit_events_refuse_change() RETURNS trigger
LANGUAGE plpgsql AS $$
DECLARE
  anonymising text := current_setting('podium.anonymising', true);
BEGIN
  IF TG_OP = 'UPDATE'
     AND anonymising IS NOT NULL AND anonymising <> ''
     AND NEW.id = OLD.id
     AND NEW.actor_id IS NOT DISTINCT FROM OLD.actor_id
     AND NEW.action = OLD.action
     AND NEW.entity_type = OLD.entity_type
     AND NEW.entity_id = OLD.entity_id
     AND NEW.at = OLD.at
  THEN
    -- Events about the person's account: their values.
    IF OLD.entity_type = 'user' AND OLD.entity_id = anonymising
       AND NEW.reason IS NOT DISTINCT FROM OLD.reason
    THEN
      RETURN NEW;
    END IF;
    -- Events the person did: the reason they wrote.
    IF OLD.actor_id::text = anonymising
       AND NEW.before IS NOT DISTINCT FROM OLD.before
       AND NEW.after IS NOT DISTINCT FROM OLD.after
    THEN
      RETURN NEW;
    END IF;
  END IF;
  RAISE EXCEPTION 'audit_events is append-only';
END;
$$;
