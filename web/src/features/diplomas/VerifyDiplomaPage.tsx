import CheckCircle from '@mui/icons-material/CheckCircle';
import HelpOutline from '@mui/icons-material/HelpOutline';
import History from '@mui/icons-material/History';
import { Alert, Box, LinearProgress, Paper, Stack, Typography } from '@mui/material';
import { useTranslation } from 'react-i18next';
import { useParams } from 'react-router';
import { DIPLOMA_CODE_PATTERN } from '../../../../shared/schemas/diplomas.js';
import { ApiError } from '../../api/client.js';
import { useVerifyDiploma } from './api/verify-diploma.js';

/**
 * /diploma/verificare/{code}, the page a diploma's QR code opens, for anyone: whether a
 * diploma with this code was issued, and what it printed. Nothing else about the person.
 */
export function VerifyDiplomaPage() {
  const { code = '' } = useParams();
  const isWellFormed = DIPLOMA_CODE_PATTERN.test(code);
  return (
    <Box sx={{ maxWidth: 640, mx: 'auto', width: '100%' }}>
      {isWellFormed ? <Verification code={code} /> : <NotFound code={code} />}
    </Box>
  );
}

function NotFound({ code, tooMany }: { code: string; tooMany?: boolean }) {
  const { t } = useTranslation();
  return (
    <Paper sx={{ p: 3 }}>
      <Stack spacing={2} alignItems="flex-start">
        <Box sx={{ display: 'flex', gap: 1, alignItems: 'center' }}>
          <HelpOutline color="warning" fontSize="large" />
          <Typography variant="h5" component="h1">
            {tooMany ? t('diplomas.verify.tooManyTitle') : t('diplomas.verify.notFoundTitle')}
          </Typography>
        </Box>
        <Typography>
          {tooMany ? t('diplomas.verify.tooMany') : t('diplomas.verify.notFound', { code })}
        </Typography>
      </Stack>
    </Paper>
  );
}

function Verification({ code }: { code: string }) {
  const { t, i18n } = useTranslation();
  const verification = useVerifyDiploma(code);
  if (verification.isPending) return <LinearProgress aria-label={t('list.loading')} />;
  if (verification.isError) {
    const error = verification.error;
    if (error instanceof ApiError && error.status === 404) return <NotFound code={code} />;
    if (error instanceof ApiError && error.status === 429) return <NotFound code={code} tooMany />;
    return <Alert severity="error">{t('list.loadError')}</Alert>;
  }
  const d = verification.data;
  const issued = new Intl.DateTimeFormat(i18n.language, { dateStyle: 'long' }).format(
    new Date(d.issuedAt),
  );
  const rows: [string, string][] = [
    [t('diplomas.verify.name'), d.name ?? t('diplomas.verify.nameErased')],
    [t('diplomas.verify.exam'), d.examName],
    [t('diplomas.verify.edition'), d.editionName],
    [t('diplomas.verify.phase'), d.phaseName],
  ];
  if (d.kind === 'student') {
    if (d.grade !== null) rows.push([t('diplomas.verify.grade'), t(`grades.${d.grade}`)]);
    if (d.school) rows.push([t('diplomas.verify.school'), d.school]);
    rows.push([
      t('diplomas.verify.distinction'),
      d.prize ? t(`diplomas.prize.${d.prize}`) : t('diplomas.prize.none'),
    ]);
  } else {
    rows.push([
      t('diplomas.verify.distinction'),
      t('diplomas.verify.teacherDiploma', { count: d.studentCount ?? 0 }),
    ]);
  }
  rows.push([t('diplomas.verify.issuedAt'), issued], [t('diplomas.verify.code'), d.code]);
  const replaced = d.replacedAt
    ? new Intl.DateTimeFormat(i18n.language, { dateStyle: 'long' }).format(new Date(d.replacedAt))
    : null;
  return (
    <Paper sx={{ p: 3 }}>
      <Stack spacing={2}>
        <Box sx={{ display: 'flex', gap: 1, alignItems: 'center' }}>
          {replaced ? (
            <History color="warning" fontSize="large" />
          ) : (
            <CheckCircle color="success" fontSize="large" />
          )}
          <Typography variant="h5" component="h1">
            {replaced ? t('diplomas.verify.replacedTitle') : t('diplomas.verify.title')}
          </Typography>
        </Box>
        {replaced && (
          <Alert severity="warning">{t('diplomas.verify.replaced', { date: replaced })}</Alert>
        )}
        <Typography color="text.secondary">
          {d.anonymised ? t('diplomas.verify.introAnonymised') : t('diplomas.verify.intro')}
        </Typography>
        <Box
          component="dl"
          sx={{
            display: 'grid',
            gridTemplateColumns: { xs: '1fr', sm: '180px 1fr' },
            gap: 1,
            m: 0,
          }}
        >
          {rows.map(([label, value]) => (
            <Box key={label} sx={{ display: 'contents' }}>
              <Typography component="dt" color="text.secondary">
                {label}
              </Typography>
              <Typography component="dd" sx={{ m: 0, fontWeight: 500 }}>
                {value}
              </Typography>
            </Box>
          ))}
        </Box>
      </Stack>
    </Paper>
  );
}
