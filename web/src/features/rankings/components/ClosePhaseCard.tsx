import Lock from '@mui/icons-material/Lock';
import { Alert, Box, Button, Paper, Typography } from '@mui/material';
import { useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import type { Phase, PhaseListItem } from '../../../../../shared/schemas/exams.js';
import type { PhaseClosed } from '../../../../../shared/schemas/phase-reopen.js';
import { api } from '../../../api/client.js';
import { ConfirmDialog } from '../../../components/list/ConfirmDialog.js';
import { CloseChangesDialog } from '../../../components/phase/CloseChangesDialog.js';
import { editionPath, type PhaseIds } from '../../../components/phase/get-phase-context.js';
import { useSnackbar } from '../../../lib/snackbar.js';
import { useCloseLastPhase } from '../api/rules.js';
import { refusalText } from '../errors.js';

/** Whether the phase is its edition's last (phases follow their start dates, as on the server). */
function useIsLastPhase(ids: PhaseIds) {
  return useQuery({
    queryKey: ['exams', 'exam', ids.examId, 'edition', ids.editionId, 'phases', 'last'],
    queryFn: async () => {
      const phases = await api<PhaseListItem[]>(`${editionPath(ids)}/phases`, {
        query: { filter: { order: 'startDate ASC', limit: 100, skip: 0 } },
      });
      return phases.at(-1)?._id === ids.phaseId;
    },
  });
}

/**
 * Closing the phase from its rules: a last phase closes with `{lastPhase: true}` (its results
 * and prizes become final; refused while anyone is admitted); another one moves its admitted
 * students to the next phase, as the phase page's button does.
 */
export function ClosePhaseCard({ ids, phase }: { ids: PhaseIds; phase: Phase }) {
  const { t } = useTranslation();
  const { notify } = useSnackbar();
  const isLast = useIsLastPhase(ids);
  const close = useCloseLastPhase(ids, isLast.data === true);
  const [asking, setAsking] = useState(false);
  // A close after a reopening answers who changes; the dialog lists them.
  const [closedAgain, setClosedAgain] = useState<PhaseClosed | null>(null);
  if (phase.state === 'closed') {
    return (
      <>
        <Alert severity="success">{t('rankings.close.done')}</Alert>
        <CloseChangesDialog closed={closedAgain} onClose={() => setClosedAgain(null)} />
      </>
    );
  }
  if (isLast.data === undefined) return null;
  const handleClose = async () => {
    try {
      setClosedAgain(await close.mutateAsync());
      setAsking(false);
      notify('rankings.close.closed', 'success');
    } catch {
      // The dialog says why.
    }
  };
  return (
    <Paper sx={{ p: 2 }} component="section" aria-label={t('rankings.close.title')}>
      <Typography variant="h6" component="h2">
        {t('rankings.close.title')}
      </Typography>
      <Typography variant="body2" color="text.secondary" sx={{ mb: 2 }}>
        {t(isLast.data ? 'rankings.close.lastHint' : 'rankings.close.nextHint')}
      </Typography>
      <Box>
        <Button
          variant="contained"
          color="warning"
          startIcon={<Lock />}
          onClick={() => {
            close.reset();
            setAsking(true);
          }}
        >
          {t(isLast.data ? 'rankings.close.last' : 'rankings.close.next')}
        </Button>
      </Box>
      <ConfirmDialog
        open={asking}
        title={t('rankings.close.confirmTitle')}
        message={t(isLast.data ? 'rankings.close.lastMessage' : 'rankings.close.nextMessage', {
          name: phase.name,
        })}
        confirmLabel={t(isLast.data ? 'rankings.close.last' : 'rankings.close.next')}
        busy={close.isPending}
        error={close.error ? refusalText(close.error, t) : undefined}
        onConfirm={() => void handleClose()}
        onClose={() => setAsking(false)}
      />
    </Paper>
  );
}
