import Add from '@mui/icons-material/Add';
import DeleteOutline from '@mui/icons-material/DeleteOutline';
import Edit from '@mui/icons-material/Edit';
import { Box, Button, Chip, Grid, Link, Paper, Stack, Typography } from '@mui/material';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link as RouterLink, useNavigate, useParams } from 'react-router';
import { PAGE_SIZE_EXAMS } from '../../../../shared/constants.js';
import type { EditionListItem, Exam } from '../../../../shared/schemas/exams.js';
import { type Column, PagedTable, pagedTableState } from '../../components/list/PagedTable.js';
import { usePagedList } from '../../components/list/use-paged-list.js';
import { useEditions, useEditionsCount } from './api/get-editions.js';
import { useExam } from './api/get-exam.js';
import { usePatchExam } from './api/patch-exam.js';
import { DeleteExamDialog } from './components/DeleteExamDialog.js';
import { DetailList } from './components/DetailList.js';
import { EditionFormDialog } from './components/EditionFormDialog.js';
import { ExamBreadcrumbs } from './components/ExamBreadcrumbs.js';
import { ExamFormDialog } from './components/ExamFormDialog.js';
import { PageState } from './components/PageState.js';
import { TeacherRoleCard } from './components/TeacherRoleCard.js';
import { formatDate, gradesLabel, subjectLabel } from './format.js';
import { canManage } from './rights.js';

/** /examene/{examId}: the competition, its teachers and its editions. */
export function ExamDetailPage() {
  const { examId = '' } = useParams();
  const exam = useExam(examId);
  if (!exam.data) return <PageState error={exam.error} back="/examene" />;
  return <ExamDetail exam={exam.data} />;
}

function ExamDetail({ exam }: { exam: Exam }) {
  const { t, i18n } = useTranslation();
  const [editing, setEditing] = useState(false);
  const [addingEdition, setAddingEdition] = useState(false);
  const [deleting, setDeleting] = useState(false);
  const navigate = useNavigate();
  // SPEC.md §9: editions by name, 25 a page.
  const list = usePagedList<Record<string, never>>({
    defaultOrder: { field: 'name', direction: 'asc' },
    initialFilters: {},
    toWhere: () => undefined,
    pageSize: PAGE_SIZE_EXAMS,
  });
  const editions = useEditions(exam._id, list.filter);
  const editionsCount = useEditionsCount(exam._id, list.where);
  const patch = usePatchExam(exam._id);
  const isManager = canManage(exam);
  const editionColumns: Column<EditionListItem>[] = [
    {
      id: 'name',
      label: t('exams.editions.fields.name'),
      sortField: 'name',
      render: (e) => (
        <Link component={RouterLink} to={`/examene/${exam._id}/editii/${e._id}`}>
          {e.name}
        </Link>
      ),
    },
    {
      id: 'year',
      label: t('exams.editions.fields.year'),
      sortField: 'year',
      render: (e) => e.year ?? '',
    },
    {
      id: 'state',
      label: t('exams.editions.fields.state'),
      render: (e) => (e.state ? t(`exams.editions.states.${e.state}`) : ''),
    },
    {
      id: 'coordinators',
      label: t('exams.editions.fields.coordinators'),
      render: (e) => e.teacherIds?.length ?? 0,
    },
    {
      id: 'terms',
      label: t('exams.editions.fields.termsUrl'),
      render: (e) =>
        e.termsUrl ? (
          <Link href={e.termsUrl} target="_blank" rel="noopener noreferrer">
            {t('exams.editions.termsLink')}
          </Link>
        ) : (
          ''
        ),
    },
  ];

  return (
    <Stack spacing={2}>
      <Box>
        <ExamBreadcrumbs
          items={[{ label: t('exams.title'), to: '/examene' }, { label: exam.name }]}
        />
        <Box sx={{ display: 'flex', alignItems: 'center', gap: 2, flexWrap: 'wrap' }}>
          <Typography variant="h5" component="h1" sx={{ flex: 1, minWidth: 200 }}>
            {exam.name}
          </Typography>
          {exam.myRole && <Chip label={t(`exams.roles.${exam.myRole}`)} variant="outlined" />}
          {isManager && (
            <Button variant="outlined" startIcon={<Edit />} onClick={() => setEditing(true)}>
              {t('exams.edit')}
            </Button>
          )}
          {exam.myRole === 'admin' && (
            <Button
              variant="outlined"
              color="error"
              startIcon={<DeleteOutline />}
              onClick={() => setDeleting(true)}
            >
              {t('exams.delete.action')}
            </Button>
          )}
        </Box>
      </Box>
      <Paper sx={{ p: 2 }} component="section" aria-label={t('exams.details')}>
        <DetailList
          items={[
            { label: t('exams.fields.subject'), value: subjectLabel(exam.subject, t) },
            { label: t('exams.fields.grades'), value: gradesLabel(exam.grades, t) },
            {
              label: t('exams.fields.createdAt'),
              value: formatDate(exam.createdAt, i18n.language),
            },
          ]}
        />
        {exam.description && (
          <Typography sx={{ mt: 2, whiteSpace: 'pre-line' }} color="text.secondary">
            {exam.description}
          </Typography>
        )}
      </Paper>
      <Grid container spacing={2}>
        <Grid size={{ xs: 12, md: 6 }}>
          <TeacherRoleCard
            title={t('exams.team.admins')}
            hint={t('exams.team.adminsHint')}
            ids={exam.adminTeacherIds}
            alsoRole={{
              label: t('exams.team.questionManagers'),
              hint: t('exams.team.questionManagersHint'),
            }}
            canEdit={isManager}
            save={(ids) => patch.mutateAsync({ adminTeacherIds: ids })}
          />
        </Grid>
        <Grid size={{ xs: 12, md: 6 }}>
          <TeacherRoleCard
            title={t('exams.team.staff')}
            hint={t('exams.team.staffHint')}
            ids={exam.staffTeacherIds}
            canEdit={isManager}
            save={(ids) => patch.mutateAsync({ staffTeacherIds: ids })}
          />
        </Grid>
      </Grid>
      <Paper
        sx={{ p: { xs: 1, sm: 2 } }}
        component="section"
        aria-label={t('exams.editions.title')}
      >
        <Box sx={{ display: 'flex', alignItems: 'center', mb: 1 }}>
          <Typography variant="h6" component="h2" sx={{ flex: 1 }}>
            {t('exams.editions.title')}
          </Typography>
          {isManager && (
            <Button startIcon={<Add />} onClick={() => setAddingEdition(true)}>
              {t('exams.editions.add')}
            </Button>
          )}
        </Box>
        <PagedTable<EditionListItem>
          label={t('exams.editions.title')}
          columns={editionColumns}
          {...pagedTableState(list, editions, editionsCount)}
          rowKey={(e) => e._id}
          emptyText={t('exams.editions.empty')}
        />
      </Paper>
      {isManager && (
        <>
          <ExamFormDialog open={editing} exam={exam} onClose={() => setEditing(false)} />
          <EditionFormDialog
            open={addingEdition}
            examId={exam._id}
            onClose={() => setAddingEdition(false)}
          />
        </>
      )}
      {exam.myRole === 'admin' && (
        <DeleteExamDialog
          exam={deleting ? exam : null}
          onClose={() => setDeleting(false)}
          onDeleted={() => navigate('/examene', { replace: true })}
        />
      )}
    </Stack>
  );
}
