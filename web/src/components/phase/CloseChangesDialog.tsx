import {
  Button,
  Dialog,
  DialogActions,
  DialogContent,
  DialogContentText,
  DialogTitle,
  Table,
  TableBody,
  TableCell,
  TableHead,
  TableRow,
  Typography,
} from '@mui/material';
import { useId } from 'react';
import { useTranslation } from 'react-i18next';
import type { PhaseClosed, Standing } from '../../../../shared/schemas/phase-reopen.js';

type Props = {
  /** The answer of a close; the dialog opens when it says someone's result changed. */
  closed: PhaseClosed | null;
  onClose: () => void;
};

/**
 * After a reopened phase closes again: the students whose total, place, decision or prize
 * differ from the previous close (each was told by mail), and their diplomas already printed,
 * which keep what they printed. Shared by the phase page and the rules page's close.
 */
export function CloseChangesDialog({ closed, onClose }: Props) {
  const { t, i18n } = useTranslation();
  const titleId = useId();
  const changes = closed?.changes ?? [];
  const names = new Map(
    changes.map((c) => [c.studentId, [c.familyName, c.givenName].filter(Boolean).join(' ')]),
  );
  const number = (n: number | null) =>
    n === null ? '—' : n.toLocaleString(i18n.language, { maximumFractionDigits: 2 });
  const status = (s: Standing['status']) => (s ? t(`rankings.status.${s}`) : '—');
  const prize = (p: Standing['prize']) => (p ? t(`rankings.prizes.${p}`) : '—');
  const moved = (before: string, after: string) =>
    before === after ? after : `${before} → ${after}`;
  return (
    <Dialog
      open={changes.length > 0}
      onClose={onClose}
      aria-labelledby={titleId}
      maxWidth="md"
      fullWidth
    >
      <DialogTitle id={titleId}>{t('phaseReopen.changes.title')}</DialogTitle>
      <DialogContent>
        <DialogContentText>
          {t('phaseReopen.changes.intro', { count: changes.length })}
        </DialogContentText>
        <Table size="small" aria-label={t('phaseReopen.changes.table')}>
          <TableHead>
            <TableRow>
              <TableCell>{t('rankings.columns.name')}</TableCell>
              <TableCell>{t('rankings.columns.total')}</TableCell>
              <TableCell>{t('rankings.columns.rank')}</TableCell>
              <TableCell>{t('rankings.columns.status')}</TableCell>
              <TableCell>{t('rankings.columns.prize')}</TableCell>
            </TableRow>
          </TableHead>
          <TableBody>
            {changes.map((c) => (
              <TableRow key={c.studentId}>
                <TableCell>{names.get(c.studentId)}</TableCell>
                <TableCell>{moved(number(c.before.total), number(c.after.total))}</TableCell>
                <TableCell>{moved(number(c.before.rank), number(c.after.rank))}</TableCell>
                <TableCell>{moved(status(c.before.status), status(c.after.status))}</TableCell>
                <TableCell>{moved(prize(c.before.prize), prize(c.after.prize))}</TableCell>
              </TableRow>
            ))}
          </TableBody>
        </Table>
        {closed && closed.diplomas.length > 0 && (
          <>
            <Typography variant="subtitle2" component="h3" sx={{ mt: 2 }}>
              {t('phaseReopen.changes.diplomasTitle')}
            </Typography>
            <Typography variant="body2" color="text.secondary">
              {t('phaseReopen.changes.diplomasHint')}
            </Typography>
            <ul aria-label={t('phaseReopen.changes.diplomasTitle')}>
              {closed.diplomas.map((d) => (
                <li key={d.code}>
                  {t('phaseReopen.changes.diploma', {
                    code: d.code,
                    name: names.get(d.studentId) ?? '',
                    prize: prize(d.prize),
                  })}
                </li>
              ))}
            </ul>
          </>
        )}
      </DialogContent>
      <DialogActions>
        <Button onClick={onClose}>{t('common.close')}</Button>
      </DialogActions>
    </Dialog>
  );
}
