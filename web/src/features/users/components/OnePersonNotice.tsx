import { Alert, Button } from '@mui/material';
import { useEffect } from 'react';
import { useTranslation } from 'react-i18next';
import { useSearchParams } from 'react-router';

/** The query parameter a search hit opens a people list with: that person alone. */
export const PERSON_PARAM = 'persoana';

/**
 * The person a people list is narrowed to (`?persoana=<id>`, a search hit for them), kept in
 * the list's filters as `only` so the same `where` goes to the list and its count; opening
 * another hit while on the list narrows it again.
 */
export function useOnePerson(setFilter: (key: 'only', id: string) => void) {
  const [params, setParams] = useSearchParams();
  const id = params.get(PERSON_PARAM) ?? '';
  useEffect(() => setFilter('only', id), [id, setFilter]);
  const clear = () =>
    setParams(
      (p) => {
        p.delete(PERSON_PARAM);
        return p;
      },
      { replace: true },
    );
  return { id, clear };
}

/** Says the list shows one person (the one searched for), with the way back to everyone. */
export function OnePersonNotice({
  name,
  missing,
  onShowAll,
}: {
  /** Once the row is in. */
  name?: string;
  /** The list came back without them (not in the user's scope, or deleted). */
  missing: boolean;
  onShowAll(): void;
}) {
  const { t } = useTranslation();
  return (
    <Alert
      severity="info"
      role="status"
      action={
        <Button color="inherit" size="small" onClick={onShowAll}>
          {t('people.onePerson.showAll')}
        </Button>
      }
    >
      {name
        ? t('people.onePerson.named', { name })
        : t(missing ? 'people.onePerson.missing' : 'people.onePerson.only')}
    </Alert>
  );
}
