import Add from '@mui/icons-material/Add';
import Publish from '@mui/icons-material/Publish';
import { Alert, Box, Button, Chip, Paper, Stack, Typography } from '@mui/material';
import type { TFunction } from 'i18next';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useParams } from 'react-router';
import { type Test, testPaperFileName } from '../../../../shared/schemas/tests.js';
import { ApiError } from '../../api/client.js';
import { ConfirmDialog } from '../../components/list/ConfirmDialog.js';
import {
  canManagePhaseContent,
  type PhaseContext,
  usePhaseContext,
} from '../../components/phase/get-phase-context.js';
import { PhaseCrumbs } from '../../components/phase/PhaseCrumbs.js';
import { PhasePageState } from '../../components/phase/PhasePageState.js';
import { saveBlob } from '../../lib/download.js';
import { gradesTitle } from '../../lib/grades-title.js';
import { useDeleteTest } from './api/delete-test.js';
import { useDownloadTest } from './api/download-test.js';
import { useTests } from './api/get-tests.js';
import { usePublishTests } from './api/publish-tests.js';
import { TestFormDialog } from './components/TestFormDialog.js';
import { TestPointsDialog } from './components/TestPointsDialog.js';
import { TestPreviewDialog } from './components/TestPreviewDialog.js';
import { TestsTable } from './components/TestsTable.js';
import { phasePagePath } from './paths.js';
import { useReport } from './use-report.js';

/** Why a deletion was refused: SPEC.md's warning, and the server's reason when it gave one. */
function deleteRefusal(error: Error, t: TFunction): string {
  const code = error instanceof ApiError ? error.code : 'GENERAL_ERROR';
  const reason = code === 'GENERAL_ERROR' ? '' : ` ${t(`errors.${code}`)}`;
  return `${t('msg_warning_test_deleted')}.${reason}`;
}

/** …/phases/{phaseId}/tests: the phase's tests (SPEC.md §2 "test list per phase"). */
export function TestsPage() {
  const { examId = '', editionId = '', phaseId = '' } = useParams();
  const ids = { examId, editionId, phaseId };
  const context = usePhaseContext(ids);
  if (!context.data) {
    return <PhasePageState error={context.error} back={phasePagePath(ids)} />;
  }
  return <PhaseTests {...context.data} />;
}

function PhaseTests({ exam, edition, phase }: PhaseContext) {
  const { t } = useTranslation();
  const report = useReport();
  const ids = { examId: exam._id, editionId: edition._id, phaseId: phase._id };
  const tests = useTests(ids);
  const publish = usePublishTests(ids);
  const remove = useDeleteTest(ids);
  const download = useDownloadTest();
  const [isCreating, setIsCreating] = useState(false);
  const [isPublishing, setIsPublishing] = useState(false);
  const [previewed, setPreviewed] = useState<Test | null>(null);
  const [deleting, setDeleting] = useState<Test | null>(null);
  const [pointing, setPointing] = useState<Test | null>(null);
  const isManager = canManagePhaseContent(exam);
  const isOpen = phase.state === 'open';
  const rows = tests.data ?? [];
  const hasUnpublished = rows.some((r) => !r.published);

  const handlePublish = async () => {
    try {
      await publish.mutateAsync();
      report.success('tests.published');
      setIsPublishing(false);
    } catch (e) {
      report.failure(e, 'tests.publishFailed');
    }
  };

  const handleDelete = async () => {
    if (!deleting) return;
    try {
      await remove.mutateAsync(deleting._id);
      report.success('msg_success_test_deleted');
      setDeleting(null);
    } catch (e) {
      // Refused because students have started it: the dialog says so and stays open.
      if (e instanceof ApiError && e.code === 'TEST_HAS_ATTEMPTS')
        report.warning('msg_warning_test_deleted');
      else report.failure(e, 'msg_warning_test_deleted');
    }
  };

  const handleDownload = async (test: Test) => {
    try {
      const blob = await download.mutateAsync({ ...ids, testId: test._id });
      saveBlob(blob, testPaperFileName(test.grades));
    } catch (e) {
      if (e instanceof ApiError && e.status === 403)
        report.failure(undefined, 'msg_no_rights_download_test');
      else if (e instanceof ApiError && (e.code === 'PDF_UNAVAILABLE' || e.code === 'PDF_BUSY'))
        report.failure(e, 'msg_failed_download_test');
      else report.failure(undefined, 'msg_failed_download_test');
    }
  };

  const title = (test: Test) => gradesTitle(test.grades, t);

  return (
    <Stack spacing={2}>
      <Box>
        <PhaseCrumbs exam={exam} edition={edition} phase={phase} current={t('tests.title')} />
        <Box sx={{ display: 'flex', alignItems: 'center', gap: 2, flexWrap: 'wrap' }}>
          <Typography variant="h5" component="h1" sx={{ flex: 1, minWidth: 200 }}>
            {t('tests.title')}
          </Typography>
          {rows.length > 0 && (
            <Chip
              size="small"
              variant="outlined"
              color={hasUnpublished ? 'default' : 'success'}
              label={hasUnpublished ? t('tests.someUnpublished') : t('tests.allPublished')}
            />
          )}
          {isManager && (
            <>
              <Button
                variant="outlined"
                startIcon={<Publish />}
                disabled={!isOpen || !hasUnpublished}
                onClick={() => setIsPublishing(true)}
              >
                {t('tests.publishAll')}
              </Button>
              <Button
                variant="contained"
                startIcon={<Add />}
                disabled={!isOpen}
                onClick={() => setIsCreating(true)}
              >
                {t('tests.add')}
              </Button>
            </>
          )}
        </Box>
        <Typography color="text.secondary" sx={{ mt: 0.5 }}>
          {t('tests.intro')}
        </Typography>
      </Box>
      <Paper sx={{ p: { xs: 1, sm: 2 } }} component="section" aria-label={t('tests.listLabel')}>
        {tests.error ? (
          <Alert
            severity="error"
            action={
              <Button color="inherit" size="small" onClick={() => void tests.refetch()}>
                {t('list.retry')}
              </Button>
            }
          >
            {tests.error instanceof ApiError && tests.error.code === 'OPERATION_NOT_PERMITTED'
              ? t('errors.OPERATION_NOT_PERMITTED')
              : t('list.loadError')}
          </Alert>
        ) : (
          <TestsTable
            ids={ids}
            rows={tests.data}
            emptyText={isManager ? t('tests.emptyManager') : t('tests.empty')}
            isManager={isManager}
            canDelete={isOpen}
            downloadingId={download.isPending ? download.variables?.testId : undefined}
            onPreview={setPreviewed}
            onDownload={(test) => void handleDownload(test)}
            onPoints={setPointing}
            onDelete={(test) => {
              remove.reset();
              setDeleting(test);
            }}
          />
        )}
      </Paper>
      <TestPreviewDialog
        ids={ids}
        test={previewed}
        showsCorrect={isManager}
        fixesKey={isManager && isOpen}
        onClose={() => setPreviewed(null)}
      />
      {isManager && (
        <>
          <TestFormDialog
            open={isCreating}
            ids={ids}
            exam={exam}
            phase={phase}
            takenGrades={rows.flatMap((r) => r.grades)}
            onClose={() => setIsCreating(false)}
          />
          <TestPointsDialog ids={ids} test={pointing} onClose={() => setPointing(null)} />
          <ConfirmDialog
            open={isPublishing}
            title={t('tests.publishTitle')}
            message={t('tests.publishMessage', { name: phase.name })}
            confirmLabel={t('tests.publishAll')}
            busy={publish.isPending}
            onConfirm={() => void handlePublish()}
            onClose={() => setIsPublishing(false)}
          />
          <ConfirmDialog
            open={deleting !== null}
            title={t('tests.deleteTitle')}
            message={t('tests.deleteMessage', { title: deleting ? title(deleting) : '' })}
            confirmLabel={t('tests.delete')}
            destructive
            busy={remove.isPending}
            error={remove.error ? deleteRefusal(remove.error, t) : undefined}
            onConfirm={() => void handleDelete()}
            onClose={() => setDeleting(null)}
          />
        </>
      )}
    </Stack>
  );
}
