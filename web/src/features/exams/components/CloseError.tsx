import { Box, Checkbox, FormControlLabel, Typography } from '@mui/material';
import { useTranslation } from 'react-i18next';
import type { PhaseOpenScores } from '../../../../../shared/schemas/exams.js';
import { ApiError } from '../../../api/client.js';

/** What is still open when closing was refused for it (RESULTS_INCOMPLETE), or undefined. */
export function openScoresOf(error: unknown): PhaseOpenScores | undefined {
  if (!(error instanceof ApiError) || error.code !== 'RESULTS_INCOMPLETE') return undefined;
  const d = error.details as Partial<PhaseOpenScores> | undefined;
  return d && Array.isArray(d.reviewIds) && Array.isArray(d.appealIds)
    ? (d as PhaseOpenScores)
    : undefined;
}

type Props = {
  error: unknown;
  /** Whether the organiser ticked "close anyway"; shown only when the open work may be accepted. */
  isAccepting?: boolean;
  onAcceptChange?: (accepting: boolean) => void;
};

/**
 * Why a phase could not be closed. SPEC.md §8: the server's message replaces the default; a
 * missing next phase also gets a translated hint saying what to do, and open scores are listed
 * with a choice to close anyway, accepting exactly them.
 */
export function CloseError({ error, isAccepting = false, onAcceptChange }: Props) {
  const { t } = useTranslation();
  const code = error instanceof ApiError ? error.code : 'GENERAL_ERROR';
  const serverMessage = error instanceof ApiError ? error.message.trim() : '';
  const open = openScoresOf(error);
  if (open) {
    const lines = (
      [
        ['reviews', open.reviews],
        ['mediations', open.mediations],
        ['appeals', open.appeals],
        ['appealMediations', open.appealMediations],
        ['appealsWithoutMarkers', open.appealsWithoutMarkers],
        ['unmarkedAnswers', open.unmarkedAnswers],
      ] as const
    ).filter(([, count]) => count > 0);
    const mayAccept = open.unmarkedAnswers === 0;
    return (
      <Box>
        <Typography variant="body2">{t('exams.phases.openScores.title')}</Typography>
        <Box component="ul" sx={{ my: 1, pl: 3 }}>
          {lines.map(([key, count]) => (
            <li key={key}>
              <Typography variant="body2">
                {t(`exams.phases.openScores.${key}`, { count })}
              </Typography>
            </li>
          ))}
        </Box>
        {mayAccept ? (
          <FormControlLabel
            control={
              <Checkbox
                checked={isAccepting}
                onChange={(e) => onAcceptChange?.(e.target.checked)}
              />
            }
            label={t('exams.phases.openScores.accept')}
          />
        ) : (
          <Typography variant="body2">{t('exams.phases.openScores.startReview')}</Typography>
        )}
      </Box>
    );
  }
  const hint =
    code === 'EDITION_PHASE_NOT_CREATED' ? t('exams.phases.closeNeedsNext') : t(`errors.${code}`);
  return (
    <Box>
      <Typography variant="body2">{hint}</Typography>
      {serverMessage && code !== 'GENERAL_ERROR' && (
        <Typography variant="caption" component="p" sx={{ mt: 0.5 }}>
          {serverMessage}
        </Typography>
      )}
    </Box>
  );
}
