import Add from '@mui/icons-material/Add';
import Edit from '@mui/icons-material/Edit';
import {
  Box,
  Button,
  FormControlLabel,
  Grid,
  Link,
  Paper,
  Stack,
  Switch,
  Typography,
} from '@mui/material';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link as RouterLink, useParams } from 'react-router';
import type { Edition, Exam, PhaseListItem } from '../../../../shared/schemas/exams.js';
import { useEdition } from './api/get-edition.js';
import { useExam } from './api/get-exam.js';
import { usePhases } from './api/get-phases.js';
import { usePatchEdition } from './api/patch-edition.js';
import { DetailList } from './components/DetailList.js';
import { EditionFormDialog } from './components/EditionFormDialog.js';
import { EditionStudents } from './components/EditionStudents.js';
import { ExamBreadcrumbs } from './components/ExamBreadcrumbs.js';
import { PageState } from './components/PageState.js';
import { PhaseFormDialog } from './components/PhaseFormDialog.js';
import { PhaseStateChip } from './components/PhaseStateChip.js';
import { SimpleTable } from './components/SimpleTable.js';
import { TeacherRoleCard } from './components/TeacherRoleCard.js';
import { formatDateTime } from './format.js';
import { canManage } from './rights.js';
import { useReport } from './use-report.js';

/** /examene/{examId}/editii/{editionId}: the edition, its coordinators, phases and students. */
export function EditionPage() {
  const { examId = '', editionId = '' } = useParams();
  const exam = useExam(examId);
  const edition = useEdition({ examId, editionId });
  if (!exam.data || !edition.data) {
    return <PageState error={exam.error ?? edition.error} back={`/examene/${examId}`} />;
  }
  return <EditionDetail exam={exam.data} edition={edition.data} />;
}

function EditionDetail({ exam, edition }: { exam: Exam; edition: Edition }) {
  const { t, i18n } = useTranslation();
  const ids = { examId: exam._id, editionId: edition._id };
  const phases = usePhases(ids);
  const patch = usePatchEdition(ids);
  const [editing, setEditing] = useState(false);
  const [addingPhase, setAddingPhase] = useState(false);
  const isManager = canManage(exam);
  const base = `/examene/${exam._id}/editii/${edition._id}`;
  const report = useReport();

  /** SPEC.md §4: manual registration on the edition opened or closed. */
  const handleRegistration = async (registrationOpen: boolean) => {
    try {
      await patch.mutateAsync({ registrationOpen });
      // SPEC.md §8's generic pair; the details above show the new state.
      report.success('msg_change_success');
    } catch (e) {
      report.failure(e, 'msg_change_error');
    }
  };

  return (
    <Stack spacing={2}>
      <Box>
        <ExamBreadcrumbs
          items={[
            { label: t('exams.title'), to: '/examene' },
            { label: exam.name, to: `/examene/${exam._id}` },
            { label: edition.name },
          ]}
        />
        <Box sx={{ display: 'flex', alignItems: 'center', gap: 2, flexWrap: 'wrap' }}>
          <Typography variant="h5" component="h1" sx={{ flex: 1, minWidth: 200 }}>
            {edition.name}
          </Typography>
          {isManager && (
            <Button variant="outlined" startIcon={<Edit />} onClick={() => setEditing(true)}>
              {t('exams.editions.edit')}
            </Button>
          )}
        </Box>
      </Box>
      <Paper sx={{ p: 2 }} component="section" aria-label={t('exams.editions.details')}>
        <DetailList
          items={[
            { label: t('exams.editions.fields.exam'), value: exam.name },
            { label: t('exams.editions.fields.year'), value: edition.year ?? '' },
            {
              label: t('exams.editions.fields.state'),
              value: t(`exams.editions.states.${edition.state}`),
            },
            {
              label: t('exams.editions.fields.termsUrl'),
              value: edition.termsUrl ? (
                <Link href={edition.termsUrl} target="_blank" rel="noopener noreferrer">
                  {t('exams.editions.termsLink')}
                </Link>
              ) : (
                ''
              ),
            },
            {
              label: t('exams.editions.fields.registration'),
              value: t(
                edition.registrationOpen
                  ? 'exams.editions.registrationOpen'
                  : 'exams.editions.registrationClosed',
              ),
            },
          ]}
        />
        {isManager && (
          <Box sx={{ mt: 1 }}>
            <FormControlLabel
              control={
                <Switch
                  checked={edition.registrationOpen}
                  disabled={patch.isPending}
                  onChange={(e) => void handleRegistration(e.target.checked)}
                />
              }
              label={t('exams.editions.registrationSwitch')}
            />
            <Typography variant="body2" color="text.secondary">
              {t('exams.editions.registrationHint')}
            </Typography>
          </Box>
        )}
      </Paper>
      <Grid container spacing={2}>
        <Grid size={{ xs: 12 }}>
          <TeacherRoleCard
            title={t('exams.team.coordinators')}
            hint={t('exams.team.coordinatorsHint')}
            ids={edition.teacherIds}
            canEdit={isManager}
            save={(teacherIds) => patch.mutateAsync({ teacherIds })}
            orderBy="givenName"
          />
        </Grid>
      </Grid>
      <Paper sx={{ p: { xs: 1, sm: 2 } }} component="section" aria-label={t('exams.phases.title')}>
        <Box sx={{ display: 'flex', alignItems: 'center', mb: 1 }}>
          <Typography variant="h6" component="h2" sx={{ flex: 1 }}>
            {t('exams.phases.title')}
          </Typography>
          {isManager && (
            <Button startIcon={<Add />} onClick={() => setAddingPhase(true)}>
              {t('exams.phases.add')}
            </Button>
          )}
        </Box>
        <SimpleTable<PhaseListItem>
          label={t('exams.phases.title')}
          rows={phases.data}
          error={phases.isError}
          rowKey={(p) => p._id}
          emptyText={t('exams.phases.empty')}
          columns={[
            {
              id: 'name',
              label: t('exams.phases.fields.name'),
              render: (p) => (
                <Link component={RouterLink} to={`${base}/phases/${p._id}`}>
                  {p.name}
                </Link>
              ),
            },
            {
              id: 'type',
              label: t('exams.phases.fields.type'),
              render: (p) => (p.type ? t(`exams.phases.types.${p.type}`) : ''),
            },
            {
              id: 'start',
              label: t('exams.phases.fields.startDate'),
              render: (p) => formatDateTime(p.startDate, i18n.language),
            },
            {
              id: 'end',
              label: t('exams.phases.fields.endDate'),
              render: (p) => formatDateTime(p.endDate, i18n.language),
            },
            {
              id: 'state',
              label: t('exams.phases.fields.state'),
              render: (p) => <PhaseStateChip state={p.state} />,
            },
            {
              id: 'registration',
              label: t('exams.phases.fields.registration'),
              render: (p) =>
                p.registrationOpen
                  ? t('exams.phases.registrationOpen')
                  : t('exams.phases.registrationClosed'),
            },
          ]}
        />
      </Paper>
      <EditionStudents exam={exam} edition={edition} />
      {isManager && (
        <>
          <EditionFormDialog
            open={editing}
            examId={exam._id}
            edition={edition}
            onClose={() => setEditing(false)}
          />
          <PhaseFormDialog open={addingPhase} ids={ids} onClose={() => setAddingPhase(false)} />
        </>
      )}
    </Stack>
  );
}
