import FolderZip from '@mui/icons-material/FolderZip';
import {
  Alert,
  Box,
  Button,
  Card,
  CardContent,
  Chip,
  Divider,
  Stack,
  Typography,
} from '@mui/material';
import { useTranslation } from 'react-i18next';
import { useParams } from 'react-router';
import {
  type AnswerItem,
  answerZipName,
  type StudentItems,
  type TestSummary,
} from '../../../../shared/schemas/uploads.js';
import { AnswerFiles } from '../../components/answer-files/AnswerFiles.js';
import { getAnswerZip } from '../../components/answer-files/api/get-answer-file.js';
import { useStudentItems } from '../../components/answer-files/api/get-student-items.js';
import type { TestIds } from '../../components/answer-files/paths.js';
import { type PhaseContext, usePhaseContext } from '../../components/phase/get-phase-context.js';
import { PhasePageState } from '../../components/phase/PhasePageState.js';
import { Statement } from '../../components/statement/Statement.js';
import { saveBlob } from '../../lib/download.js';
import { formatScore } from '../../lib/scores.js';
import { useSnackbar } from '../../lib/snackbar.js';
import { useTestSummary } from './api/get-test-summary.js';
import { OnlineAnswer } from './components/OnlineAnswer.js';
import { StatusChip } from './components/StatusChip.js';
import { TestHeader } from './components/TestHeader.js';
import { studentName } from './format.js';
import { testStudentsPagePath } from './paths.js';

/**
 * `…/test/{testId}/student/{studentId}/answers`: every item with the student's answer — the
 * submitted option or value against the correct one (online), or the uploaded pages with
 * preview and download (hybrid). The exam's admins also enter the pages of a student who
 * wrote on paper, until the review starts.
 */
export function StudentAnswersPage() {
  const { examId = '', editionId = '', phaseId = '', testId = '', studentId = '' } = useParams();
  const ids: TestIds = { examId, editionId, phaseId, testId };
  const context = usePhaseContext(ids);
  const summary = useTestSummary(ids);
  const items = useStudentItems(ids, studentId);
  if (!context.data || !summary.data || !items.data) {
    return (
      <PhasePageState
        error={context.error ?? summary.error ?? items.error}
        back={testStudentsPagePath(ids)}
      />
    );
  }
  return (
    <StudentAnswers
      ids={ids}
      context={context.data}
      summary={summary.data}
      data={items.data}
      studentId={studentId}
    />
  );
}

type Props = {
  ids: TestIds;
  context: PhaseContext;
  summary: TestSummary;
  data: StudentItems;
  studentId: string;
};

function StudentAnswers({ ids, context, summary, data, studentId }: Props) {
  const { t, i18n } = useTranslation();
  const name = studentName(data.student);
  const isHybrid = data.test.type === 'hybrid';
  const mayEnter = isHybrid && data.uploadState === 'open';
  return (
    <Stack spacing={2}>
      <TestHeader ids={ids} context={context} summary={summary} current={name} underTest />
      <Box sx={{ display: 'flex', gap: 1, alignItems: 'center', flexWrap: 'wrap' }}>
        {data.student.grade !== null && (
          <Chip size="small" variant="outlined" label={t(`grades.${data.student.grade}`)} />
        )}
        <StatusChip status={data.status} />
        <Typography sx={{ fontWeight: 500 }}>
          {data.score === null
            ? t(isHybrid ? 'uploads.scoreAfterMarking' : 'uploads.noScore')
            : t('uploads.score', { score: formatScore(data.score, i18n.language) })}
        </Typography>
      </Box>
      {mayEnter && (
        <Alert severity="info" aria-label={t('uploads.entry.title')}>
          <strong>{t('uploads.entry.title')}.</strong> {t('uploads.entry.text')}
        </Alert>
      )}
      {isHybrid && summary.canEnterAnswers && !mayEnter && (
        <Alert severity="warning">{t(`uploads.entry.closed.${data.uploadState}`)}</Alert>
      )}
      {data.items.map((item) => (
        <ItemAnswer
          key={item.itemId}
          ids={ids}
          item={item}
          data={data}
          studentId={studentId}
          mayEnter={mayEnter}
        />
      ))}
      {data.items.length === 0 && <Alert severity="info">{t('uploads.noItems')}</Alert>}
    </Stack>
  );
}

type ItemProps = {
  ids: TestIds;
  item: AnswerItem;
  data: StudentItems;
  studentId: string;
  mayEnter: boolean;
};

/** One item: 'Întrebarea N', its statement, and the student's answer to it. */
function ItemAnswer({ ids, item, data, studentId, mayEnter }: ItemProps) {
  const { t } = useTranslation();
  const { notify } = useSnackbar();
  const label = t('hybrid.item', { n: item.index });
  const answer = item.answer;
  const hasFiles = (answer?.answerFiles.length ?? 0) > 0;

  const handleZip = async () => {
    if (!answer) return;
    try {
      saveBlob(await getAnswerZip(ids, answer._id), answerZipName(answer._id));
    } catch {
      notify('msg_download_failed', 'error');
    }
  };

  return (
    <Card component="section" aria-label={label}>
      <CardContent sx={{ display: 'grid', gap: 1.5 }}>
        <Box sx={{ display: 'flex', gap: 1, alignItems: 'center', flexWrap: 'wrap' }}>
          <Typography variant="h6" component="h2" sx={{ flex: 1 }}>
            {label}
          </Typography>
          <Typography variant="body2" color="text.secondary">
            {t('hybrid.points', { count: item.score })}
          </Typography>
          {answer?.enteredBy && (
            <Chip size="small" color="secondary" label={t('uploads.enteredByStaff')} />
          )}
        </Box>
        {data.test.type === 'online' ? (
          <OnlineAnswer item={item} />
        ) : (
          <>
            <Statement markdown={item.itemQ} />
            <Divider />
            <Box sx={{ display: 'flex', alignItems: 'center', gap: 1, flexWrap: 'wrap' }}>
              <Typography variant="subtitle2" component="h3" sx={{ flex: 1 }}>
                {t('uploads.answerPages')}
              </Typography>
              {hasFiles && (
                <Button
                  size="small"
                  startIcon={<FolderZip />}
                  onClick={() => void handleZip()}
                  aria-label={t('uploads.downloadAllOf', { item: label })}
                >
                  {t('uploads.downloadAll')}
                </Button>
              )}
            </Box>
            <AnswerFiles
              ids={ids}
              itemId={item.itemId}
              itemLabel={label}
              answer={answer}
              studentId={studentId}
              canEdit={mayEnter}
              limits={data.limits}
            />
          </>
        )}
      </CardContent>
    </Card>
  );
}
