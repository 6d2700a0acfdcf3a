import {
  Alert,
  Box,
  Paper,
  Stack,
  Table,
  TableBody,
  TableCell,
  TableHead,
  TableRow,
  Typography,
} from '@mui/material';
import { useTranslation } from 'react-i18next';
import type { PaperSummary } from '../../../../../../shared/schemas/paper.js';

/**
 * Before marking starts, per room: the students with all their answer pages, those with pages
 * missing (which ones, by code and seat, never by name), and the pages waiting to be matched.
 */
export function PaperSummaryPanel({ summary }: { summary: PaperSummary }) {
  const { t } = useTranslation();
  const roomLabel = (r: string) => r || t('uploads.paper.noRoom');
  const missingText = (m: { itemIndex: number; bookletPage: number }[]) =>
    m.map((p) => t('uploads.paper.pageRef', { item: p.itemIndex, page: p.bookletPage })).join(', ');
  const incomplete = summary.rooms.flatMap((r) =>
    r.incomplete.map((s) => ({ ...s, room: r.room })),
  );
  return (
    <Paper sx={{ p: 2 }} component="section" aria-labelledby="paper-summary">
      <Stack spacing={1.5}>
        <Typography variant="h6" component="h2" id="paper-summary">
          {t('uploads.paper.summary.title')}
        </Typography>
        <Alert severity={summary.waiting > 0 ? 'warning' : 'success'} role="status">
          {summary.waiting > 0
            ? t('uploads.paper.summary.waiting', { count: summary.waiting })
            : t('uploads.paper.summary.noneWaiting')}
        </Alert>
        <Box sx={{ overflowX: 'auto' }}>
          <Table size="small" aria-labelledby="paper-summary">
            <TableHead>
              <TableRow>
                <TableCell>{t('uploads.paper.room')}</TableCell>
                <TableCell align="right">{t('uploads.paper.summary.students')}</TableCell>
                <TableCell align="right">{t('uploads.paper.summary.complete')}</TableCell>
                <TableCell align="right">{t('uploads.paper.summary.incomplete')}</TableCell>
              </TableRow>
            </TableHead>
            <TableBody>
              {summary.rooms.map((r) => (
                <TableRow key={r.room}>
                  <TableCell component="th" scope="row">
                    {roomLabel(r.room)}
                  </TableCell>
                  <TableCell align="right">{r.students}</TableCell>
                  <TableCell align="right">{r.complete}</TableCell>
                  <TableCell align="right">{r.incomplete.length}</TableCell>
                </TableRow>
              ))}
            </TableBody>
          </Table>
        </Box>
        {incomplete.length > 0 && (
          <>
            <Typography variant="subtitle1" component="h3">
              {t('uploads.paper.summary.missingTitle')}
            </Typography>
            <Box sx={{ overflowX: 'auto' }}>
              <Table size="small" aria-label={t('uploads.paper.summary.missingTitle')}>
                <TableHead>
                  <TableRow>
                    <TableCell>{t('uploads.paper.code')}</TableCell>
                    <TableCell>{t('uploads.paper.room')}</TableCell>
                    <TableCell>{t('uploads.paper.seat')}</TableCell>
                    <TableCell>{t('uploads.paper.summary.missingPages')}</TableCell>
                  </TableRow>
                </TableHead>
                <TableBody>
                  {incomplete.map((s) => (
                    <TableRow key={s.code}>
                      <TableCell component="th" scope="row" sx={{ fontFamily: 'monospace' }}>
                        {s.code}
                      </TableCell>
                      <TableCell>{roomLabel(s.room)}</TableCell>
                      <TableCell>{s.seat || '—'}</TableCell>
                      <TableCell>
                        {s.absent ? t('uploads.paper.summary.absent') : missingText(s.missing)}
                      </TableCell>
                    </TableRow>
                  ))}
                </TableBody>
              </Table>
            </Box>
          </>
        )}
      </Stack>
    </Paper>
  );
}
