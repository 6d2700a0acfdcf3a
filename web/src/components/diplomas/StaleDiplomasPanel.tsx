import Autorenew from '@mui/icons-material/Autorenew';
import {
  Alert,
  Button,
  Chip,
  Paper,
  Stack,
  Table,
  TableBody,
  TableCell,
  TableHead,
  TableRow,
  Typography,
} from '@mui/material';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import type {
  DiplomaReissued,
  DiplomaReissueRequest,
  StaleDiploma,
} from '../../../../shared/schemas/diplomas.js';
import { api, apiBlob } from '../../api/client.js';
import { saveBlob } from '../../lib/download.js';
import { useSnackbar } from '../../lib/snackbar.js';

type PhaseIds = { examId: string; editionId: string; phaseId: string };

const staleKey = (ids: PhaseIds) => ['diplomas-stale', ids.phaseId] as const;

/**
 * The phase's diplomas printed before it was reopened and closed again with a changed result:
 * flagged out of date, each reissued on request (a new code and today's results; the old
 * code's check then says it was replaced), and the new diploma's PDF downloaded at once (it
 * is what goes to the person now). Shown to organisers once the phase is closed, and only when
 * there is such a diploma.
 */
export function StaleDiplomasPanel({ ids, isClosed }: { ids: PhaseIds; isClosed: boolean }) {
  const { t } = useTranslation();
  const { notify, notifyError } = useSnackbar();
  const queryClient = useQueryClient();
  const stale = useQuery({
    queryKey: staleKey(ids),
    queryFn: () => api<StaleDiploma[]>(`/diploma-generator/stale?${new URLSearchParams(ids)}`),
    enabled: isClosed,
  });
  const reissue = useMutation({
    mutationFn: (body: DiplomaReissueRequest) =>
      api<DiplomaReissued>('/diploma-generator/reissue', { method: 'POST', body }),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: staleKey(ids) }),
  });
  const rows = stale.data ?? [];
  if (!isClosed || rows.length === 0) return null;

  const handleReissue = async (d: StaleDiploma) => {
    let code: string;
    try {
      code = (await reissue.mutateAsync({ ...ids, userId: d.userId })).code;
      notify('diplomas.stale.reissued', 'success', { name: d.name, code });
    } catch (e) {
      notifyError(e, 'diplomas.stale.reissueFailed');
      return;
    }
    try {
      // The person's diploma of the phase is now the reissued one.
      const pdf = await apiBlob('/diploma-generator/diplomas', {
        method: 'POST',
        // SPEC.md §7: the site origin plus '/' plus the user type (accepted, not used for links).
        body: { ...ids, userId: d.userId, callbackUrl: `${window.location.origin}/${d.kind}` },
      });
      saveBlob(pdf, `diploma-${code}.pdf`);
    } catch (e) {
      notifyError(e, 'diplomas.stale.downloadFailed');
    }
  };

  return (
    <Paper sx={{ p: 2 }} component="section" aria-label={t('diplomas.stale.title')}>
      <Stack spacing={1.5}>
        <Typography variant="h6" component="h2">
          {t('diplomas.stale.title')}
        </Typography>
        <Alert severity="warning">{t('diplomas.stale.intro', { count: rows.length })}</Alert>
        <Table size="small" aria-label={t('diplomas.stale.tableLabel')}>
          <TableHead>
            <TableRow>
              <TableCell>{t('diplomas.stale.name')}</TableCell>
              <TableCell>{t('diplomas.stale.printed')}</TableCell>
              <TableCell>{t('diplomas.stale.code')}</TableCell>
              <TableCell>{t('diplomas.stale.state')}</TableCell>
              <TableCell />
            </TableRow>
          </TableHead>
          <TableBody>
            {rows.map((d) => (
              <TableRow key={d.code}>
                <TableCell>{d.name}</TableCell>
                <TableCell>
                  {d.kind === 'teacher'
                    ? t('diplomas.stale.teacherDiploma')
                    : t(`diplomas.prize.${d.prize ?? 'none'}`)}
                </TableCell>
                <TableCell sx={{ fontFamily: 'monospace' }}>{d.code}</TableCell>
                <TableCell>
                  <Chip size="small" color="warning" label={t('diplomas.stale.flag')} />
                </TableCell>
                <TableCell align="right">
                  <Button
                    size="small"
                    variant="outlined"
                    startIcon={<Autorenew />}
                    onClick={() => void handleReissue(d)}
                    disabled={reissue.isPending}
                  >
                    {t('diplomas.stale.reissue')}
                  </Button>
                </TableCell>
              </TableRow>
            ))}
          </TableBody>
        </Table>
      </Stack>
    </Paper>
  );
}
