import Replay from '@mui/icons-material/Replay';
import {
  Chip,
  type ChipProps,
  Grid,
  IconButton,
  MenuItem,
  Paper,
  Stack,
  TextField,
  Tooltip,
  Typography,
} from '@mui/material';
import { useTranslation } from 'react-i18next';
import { MAIL_STATES, type MailState, type OutboxMail } from '../../../../shared/schemas/mail.js';
import { type Column, PagedTable, pagedTableState } from '../../components/list/PagedTable.js';
import { SearchBox } from '../../components/list/SearchBox.js';
import { usePagedList } from '../../components/list/use-paged-list.js';
import { andWhere, containsWhere, equalsWhere } from '../../components/list/where.js';
import { useSnackbar } from '../../lib/snackbar.js';
import { useOutboxCount } from './api/count-outbox.js';
import { useOutbox } from './api/get-outbox.js';
import { useResendMail } from './api/resend-mail.js';

type Filters = { to: string; state: MailState | '' };

const STATE_COLORS: Record<MailState, ChipProps['color']> = {
  queued: 'default',
  sending: 'info',
  retrying: 'warning',
  sent: 'success',
  failed: 'error',
  limited: 'default',
};

const toWhere = (f: Filters) => andWhere(containsWhere('to', f.to), equalsWhere('state', f.state));

const when = (iso: string | null, language: string) =>
  iso
    ? new Intl.DateTimeFormat(language, { dateStyle: 'short', timeStyle: 'medium' }).format(
        new Date(iso),
      )
    : '';

/**
 * /emailuri (admins): every mail Podium sent or tries to send, with its state (waiting,
 * sending, retrying with the next try's time, sent, failed with the server's answer, held by
 * the per-address limit) and a button that sends it again.
 */
export function MailOutboxPage() {
  const { t, i18n } = useTranslation();
  const { notify, notifyError } = useSnackbar();
  const list = usePagedList<Filters>({
    defaultOrder: { field: 'createdAt', direction: 'desc' },
    initialFilters: { to: '', state: '' },
    toWhere,
  });
  const mails = useOutbox(list.filter);
  const count = useOutboxCount(list.where);
  const resend = useResendMail();

  const handleResend = async (mail: OutboxMail) => {
    try {
      await resend.mutateAsync(mail._id);
      notify('mail.resent', 'success', { to: mail.to });
    } catch (e) {
      notifyError(e, 'mail.resendFailed');
    }
  };

  const columns: Column<OutboxMail>[] = [
    {
      id: 'createdAt',
      label: t('mail.columns.createdAt'),
      sortField: 'createdAt',
      noWrap: true,
      render: (m) => when(m.createdAt, i18n.language),
    },
    { id: 'to', label: t('mail.columns.to'), sortField: 'to', render: (m) => m.to },
    {
      id: 'template',
      label: t('mail.columns.template'),
      sortField: 'template',
      render: (m) => t(`mail.templates.${m.template}`, { defaultValue: m.template }),
    },
    {
      id: 'state',
      label: t('mail.columns.state'),
      sortField: 'state',
      noWrap: true,
      render: (m) => (
        <Chip
          size="small"
          color={STATE_COLORS[m.state]}
          variant={m.state === 'sent' ? 'outlined' : 'filled'}
          label={t(`mail.states.${m.state}`)}
        />
      ),
    },
    {
      id: 'attempts',
      label: t('mail.columns.attempts'),
      sortField: 'attempts',
      align: 'right',
      render: (m) => m.attempts,
    },
    {
      id: 'detail',
      label: t('mail.columns.detail'),
      maxWidth: 280,
      // The cell is one line: its whole text is the tooltip.
      title: (m) => (m.state === 'limited' ? t('mail.limitedHint') : m.lastError),
      render: (m) => (
        <Stack>
          {m.state === 'sent' && (
            <Typography variant="body2">
              {t('mail.sentAt', { when: when(m.sentAt, i18n.language) })}
            </Typography>
          )}
          {m.state === 'retrying' && (
            <Typography variant="body2">
              {t('mail.nextAttempt', { when: when(m.nextAttemptAt, i18n.language) })}
            </Typography>
          )}
          {m.state === 'limited' && (
            <Typography variant="body2" noWrap>
              {t('mail.limitedHint')}
            </Typography>
          )}
          {m.lastError && m.state !== 'sent' && (
            <Typography variant="body2" color="text.secondary" noWrap>
              {m.lastError}
            </Typography>
          )}
        </Stack>
      ),
    },
  ];

  return (
    <Stack spacing={2}>
      <Stack>
        <Typography variant="h5" component="h1">
          {t('mail.title')}
        </Typography>
        <Typography color="text.secondary">
          {count.data === undefined ? t('mail.subtitle') : t('mail.total', { count: count.data })}
        </Typography>
      </Stack>
      <Paper sx={{ p: 2 }} component="section" aria-label={t('mail.filters')}>
        <Grid container spacing={2}>
          <Grid size={{ xs: 12, md: 8 }}>
            <SearchBox
              fullWidth
              label={t('mail.search')}
              placeholder={t('mail.searchPlaceholder')}
              value={list.filters.to}
              onChange={(v) => list.setFilter('to', v)}
            />
          </Grid>
          <Grid size={{ xs: 12, md: 4 }}>
            <TextField
              select
              fullWidth
              size="small"
              label={t('mail.columns.state')}
              value={list.filters.state}
              onChange={(e) => list.setFilter('state', e.target.value as MailState | '')}
            >
              <MenuItem value="">{t('mail.allStates')}</MenuItem>
              {MAIL_STATES.map((s) => (
                <MenuItem key={s} value={s}>
                  {t(`mail.states.${s}`)}
                </MenuItem>
              ))}
            </TextField>
          </Grid>
        </Grid>
      </Paper>
      <Paper sx={{ overflow: 'hidden' }}>
        <PagedTable
          label={t('mail.tableLabel')}
          columns={columns}
          {...pagedTableState(list, mails, count)}
          rowKey={(m) => m._id}
          emptyText={t('mail.empty')}
          rowActions={(m) =>
            m.state === 'sending' ? null : (
              <Tooltip title={t('mail.resend')}>
                <IconButton
                  aria-label={t('mail.resendTo', { to: m.to })}
                  disabled={resend.isPending}
                  onClick={() => void handleResend(m)}
                >
                  <Replay />
                </IconButton>
              </Tooltip>
            )
          }
        />
      </Paper>
    </Stack>
  );
}
