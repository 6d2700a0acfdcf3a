import {
  Alert,
  AlertTitle,
  Box,
  Button,
  Card,
  CardContent,
  Chip,
  Divider,
  LinearProgress,
  Stack,
  Typography,
} from '@mui/material';
import { useQuery } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import type { MyTest } from '../../../../../shared/schemas/player.js';
import type { AnswerItem, StudentItems } from '../../../../../shared/schemas/uploads.js';
import { ApiError, getSession } from '../../../api/client.js';
import { AnswerFiles } from '../../../components/answer-files/AnswerFiles.js';
import { useStudentItems } from '../../../components/answer-files/api/get-student-items.js';
import { formatBytes } from '../../../components/answer-files/format.js';
import type { TestIds } from '../../../components/answer-files/paths.js';
import { useAuth } from '../../../lib/auth.js';
import { getTestFile } from '../api/get-test-file.js';
import { PLAYER_KEY } from '../api/keys.js';
import { BackToMyTests } from '../components/BackToMyTests.js';
import { formatWhen, testTitle } from '../lib/title.js';
import { HybridStatement } from './HybridStatement.js';

/**
 * A student's hybrid test on /test/{testId}: each item as 'Întrebarea N' with its statement,
 * and under it the pages of the student's answer — upload (several at once, the phone
 * camera), preview, delete, upload again — while the test is open; read-only afterwards.
 */
export function HybridTest({ test }: { test: MyTest }) {
  const { t, i18n } = useTranslation();
  const { user } = useAuth();
  const studentId = user?._id ?? getSession()?.userId ?? '';
  const ids: TestIds = {
    examId: test.examId,
    editionId: test.editionId,
    phaseId: test.phaseId,
    testId: test.testId,
  };
  const items = useStudentItems(ids, studentId);
  const { data } = items;
  const lang = i18n.language;

  return (
    <Stack spacing={2} sx={{ maxWidth: 880, mx: 'auto', width: '100%' }}>
      <Box>
        <Typography variant="overline" color="text.secondary" sx={{ lineHeight: 1.5 }}>
          {[test.examName, test.editionName, test.phaseName].join(' · ')}
        </Typography>
        <Typography variant="h5" component="h1" sx={{ fontWeight: 700 }}>
          {testTitle(test.subject, test.grades, t)}
        </Typography>
        <Typography color="text.secondary">
          {test.name} ·{' '}
          {t('hybrid.window', {
            start: formatWhen(test.startDate, lang),
            end: formatWhen(test.endDate, lang),
          })}
        </Typography>
      </Box>

      {items.isPending && <LinearProgress aria-label={t('list.loading')} />}
      {items.isError && <LoadError error={items.error} onRetry={() => void items.refetch()} />}
      {data && <StateNote data={data} />}
      {data?.items.map((item) => (
        <ItemCard key={item.itemId} ids={ids} item={item} data={data} />
      ))}
      {data?.items.length === 0 && <Alert severity="info">{t('hybrid.noItems')}</Alert>}
      <Box sx={{ pb: 2 }}>
        <BackToMyTests variant="outlined" />
      </Box>
    </Stack>
  );
}

/** Whether the student may still change their answers, and until when. */
function StateNote({ data }: { data: StudentItems }) {
  const { t, i18n } = useTranslation();
  const end = formatWhen(data.test.endDate, i18n.language);
  if (data.uploadState === 'open') {
    return (
      <Alert severity="info">
        <AlertTitle>{t('hybrid.open.title', { end })}</AlertTitle>
        {t('hybrid.open.text', {
          size: formatBytes(data.limits.maxFileBytes, i18n.language),
        })}
      </Alert>
    );
  }
  return <Alert severity="warning">{t(`hybrid.closed.${data.uploadState}`, { end })}</Alert>;
}

/** The test cannot be shown: not open yet, not the student's, or the server is unreachable. */
function LoadError({ error, onRetry }: { error: Error; onRetry: () => void }) {
  const { t } = useTranslation();
  const code = error instanceof ApiError ? error.code : 'GENERAL_ERROR';
  const known = code === 'TEST_NOT_ACTIVE' || code === 'NOT_FOUND' ? code : 'GENERAL_ERROR';
  return (
    <Alert
      severity={known === 'GENERAL_ERROR' ? 'error' : 'warning'}
      action={
        known === 'GENERAL_ERROR' && (
          <Button color="inherit" size="small" onClick={onRetry}>
            {t('list.retry')}
          </Button>
        )
      }
    >
      <AlertTitle>{t(`hybrid.loadError.${known}.title`)}</AlertTitle>
      {t(`hybrid.loadError.${known}.text`)}
    </Alert>
  );
}

type ItemProps = { ids: TestIds; item: AnswerItem; data: StudentItems };

/** One item: 'Întrebarea N', its statement, and the pages of the student's own answer. */
function ItemCard({ ids, item, data }: ItemProps) {
  const { t } = useTranslation();
  const label = t('hybrid.item', { n: item.index });
  const fileCount = item.answer?.answerFiles.length ?? 0;
  return (
    <Card component="section" aria-label={label}>
      <CardContent sx={{ display: 'grid', gap: 1.5, p: { xs: 2, sm: 3 } }}>
        <Box sx={{ display: 'flex', alignItems: 'center', gap: 1, flexWrap: 'wrap' }}>
          <Typography variant="h6" component="h2" sx={{ flex: 1 }}>
            {label}
          </Typography>
          <Typography variant="body2" color="text.secondary">
            {t('hybrid.points', { count: item.score })}
          </Typography>
          <Chip
            size="small"
            color={fileCount > 0 ? 'success' : 'default'}
            label={t('hybrid.pages', { count: fileCount })}
          />
        </Box>
        <HybridStatement testId={ids.testId} markdown={item.itemQ} />
        {item.imageFileId && (
          <ItemImage testId={ids.testId} fileId={item.imageFileId} alt={label} />
        )}
        <Divider />
        <Typography variant="subtitle2" component="h3">
          {t('hybrid.yourAnswer')}
        </Typography>
        {item.answer?.enteredBy && (
          <Typography variant="body2" color="text.secondary">
            {t('hybrid.enteredByStaff')}
          </Typography>
        )}
        <AnswerFiles
          ids={ids}
          itemId={item.itemId}
          itemLabel={label}
          answer={item.answer}
          canEdit={data.uploadState === 'open' && !item.answer?.enteredBy}
          limits={data.limits}
        />
      </CardContent>
    </Card>
  );
}

/** The picture under a statement (a question's `imageFileId`). */
function ItemImage({ testId, fileId, alt }: { testId: string; fileId: string; alt: string }) {
  const url = useQuery({
    queryKey: [...PLAYER_KEY, 'file', testId, fileId],
    queryFn: async () => URL.createObjectURL(await getTestFile(testId, fileId)),
    staleTime: Number.POSITIVE_INFINITY,
    gcTime: Number.POSITIVE_INFINITY,
  });
  if (!url.data) return null;
  return (
    <Box
      component="img"
      src={url.data}
      alt={alt}
      sx={{ maxWidth: '100%', height: 'auto', display: 'block', borderRadius: 1 }}
    />
  );
}
