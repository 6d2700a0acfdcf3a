import {
  Alert,
  Button,
  CircularProgress,
  Dialog,
  DialogActions,
  DialogContent,
  DialogTitle,
  List,
  ListItem,
  ListItemText,
} from '@mui/material';
import { useId } from 'react';
import { useTranslation } from 'react-i18next';
import type { HistoryEvent } from '../../../../../shared/schemas/reviews.js';
import type { PhaseIds } from '../../../components/phase/get-phase-context.js';
import { useHistory } from '../api/get-history.js';
import { formatMark } from '../mark-form.js';
import type { EntryKind } from '../paths.js';
import { formatWhen } from './format.js';

type Props = {
  ids: PhaseIds;
  kind: EntryKind;
  reviewId: string;
  open: boolean;
  onClose: () => void;
};

/** Who did what to the paper and when: every mark, mediation and change, with its note. */
export function HistoryDialog({ ids, kind, reviewId, open, onClose }: Props) {
  const { t, i18n } = useTranslation();
  const titleId = useId();
  const history = useHistory(ids, kind, reviewId, open);
  return (
    <Dialog open={open} onClose={onClose} aria-labelledby={titleId} maxWidth="sm" fullWidth>
      <DialogTitle id={titleId}>{t('reviews.history.title')}</DialogTitle>
      <DialogContent dividers>
        {history.isPending && <CircularProgress aria-label={t('list.loading')} />}
        {history.isError && <Alert severity="error">{t('msg_failed_get_history')}</Alert>}
        {history.data?.length === 0 && <Alert severity="info">{t('reviews.history.empty')}</Alert>}
        {history.data && history.data.length > 0 && (
          <List dense aria-label={t('reviews.history.title')}>
            {history.data.map((e) => (
              <ListItem key={e._id} divider alignItems="flex-start">
                <ListItemText
                  primary={`${eventWho(e, t)} · ${t(`reviews.history.actions.${e.action}`)}${scoreChange(e, i18n.language)}`}
                  secondary={
                    <>
                      {formatWhen(e.at, i18n.language)}
                      {e.note ? ` — ${e.note}` : ''}
                    </>
                  }
                />
              </ListItem>
            ))}
          </List>
        )}
      </DialogContent>
      <DialogActions>
        <Button onClick={onClose}>{t('common.close')}</Button>
      </DialogActions>
    </Dialog>
  );
}

function eventWho(e: HistoryEvent, t: (key: string, o?: Record<string, unknown>) => string) {
  if (e.by === 'reviewer') return t('reviews.history.by.reviewerN', { n: e.reviewer ?? '' });
  return t(`reviews.history.by.${e.by}`);
}

function scoreChange(e: HistoryEvent, lang: string) {
  if (e.after === null) return '';
  return e.before === null
    ? `: ${formatMark(e.after, lang)}`
    : `: ${formatMark(e.before, lang)} → ${formatMark(e.after, lang)}`;
}
