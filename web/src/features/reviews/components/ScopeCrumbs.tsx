import { Alert, Button, LinearProgress, Link } from '@mui/material';
import { useTranslation } from 'react-i18next';
import { Link as RouterLink } from 'react-router';
import type { ReviewScope } from '../../../../../shared/schemas/reviews.js';
import { ApiError } from '../../../api/client.js';
import type { PhaseIds } from '../../../components/phase/get-phase-context.js';
import { MARKING_HOME_PATH, phasePagePath } from '../paths.js';

/**
 * The first crumb of the marking screens: the phase page for its staff, "To mark" for a
 * teacher who only marks there (the phase page is not theirs to open).
 */
export function ScopeCrumb({ ids, scope }: { ids: PhaseIds; scope: ReviewScope }) {
  const { t } = useTranslation();
  const staff = scope.seesWholePhase;
  return (
    <Link
      component={RouterLink}
      to={staff ? phasePagePath(ids) : MARKING_HOME_PATH}
      underline="hover"
      color="inherit"
    >
      {staff ? scope.phaseName : t('reviews.scope.toHome')}
    </Link>
  );
}

/** The competition, edition and phase the screen is about, as one line. */
export const scopeLine = (scope: ReviewScope) =>
  `${scope.examName} · ${scope.editionName} · ${scope.phaseName}`;

/**
 * Loading, or the phase refused: a teacher who does not mark in it (404) is told so in words
 * and led back to the phases they do mark in.
 */
export function ScopeState({ error }: { error: unknown }) {
  const { t } = useTranslation();
  if (!error) return <LinearProgress aria-label={t('list.loading')} />;
  const notFound = error instanceof ApiError && error.code === 'NOT_FOUND';
  return (
    <Alert
      severity={notFound ? 'warning' : 'error'}
      action={
        <Button component={RouterLink} to={MARKING_HOME_PATH} color="inherit" size="small">
          {t('reviews.scope.toHome')}
        </Button>
      }
    >
      {t(notFound ? 'reviews.scope.notFound' : 'reviews.scope.failed')}
    </Alert>
  );
}
