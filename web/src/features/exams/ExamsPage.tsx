import Add from '@mui/icons-material/Add';
import DeleteOutline from '@mui/icons-material/DeleteOutline';
import {
  Box,
  Button,
  Grid,
  IconButton,
  Link,
  Paper,
  Stack,
  Tooltip,
  Typography,
} from '@mui/material';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link as RouterLink, useNavigate } from 'react-router';
import { DISCIPLINES, PAGE_SIZE_EXAMS } from '../../../../shared/constants.js';
import type { ExamListItem } from '../../../../shared/schemas/exams.js';
import { type Column, PagedTable, pagedTableState } from '../../components/list/PagedTable.js';
import { SearchBox } from '../../components/list/SearchBox.js';
import { usePagedList } from '../../components/list/use-paged-list.js';
import { andWhere, equalsWhere, nameSearchWhere } from '../../components/list/where.js';
import { SelectField } from '../../components/pickers/select-field.js';
import { useAuth } from '../../lib/auth.js';
import { useExamsCount } from './api/count-exams.js';
import { useExams } from './api/get-exams.js';
import { DeleteExamDialog } from './components/DeleteExamDialog.js';
import { ExamFormDialog } from './components/ExamFormDialog.js';
import { gradesLabel, subjectLabel } from './format.js';
import { MyRegistrationsPage } from './MyRegistrationsPage.js';

type ExamFilters = { search: string; subject: string };
const INITIAL_FILTERS: ExamFilters = { search: '', subject: '' };

// The normalized name is lower-case without diacritics: "matematica" finds "Matematică".
const toWhere = (f: ExamFilters) =>
  andWhere(
    nameSearchWhere(f.search.toLowerCase(), ['nameNormalized']),
    equalsWhere('subject', f.subject),
  );

const LIST_FIELDS = ['_id', 'name', 'subject', 'grades', 'myRole'];

/**
 * /examene: the competitions the user sees, 25 a page by name; admins add new ones. A student
 * sees their own enrolments instead.
 */
export function ExamsPage() {
  const { user } = useAuth();
  // A student sees the competitions they are enrolled in (SPEC.md §2 lists /examene for them).
  if (user?.type === 'student') return <MyRegistrationsPage />;
  return <ExamsList isAdmin={user?.type === 'admin'} />;
}

function ExamsList({ isAdmin }: { isAdmin: boolean }) {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const [adding, setAdding] = useState(false);
  const [deleting, setDeleting] = useState<ExamListItem | null>(null);
  const list = usePagedList<ExamFilters>({
    defaultOrder: { field: 'name', direction: 'asc' },
    initialFilters: INITIAL_FILTERS,
    toWhere,
    pageSize: PAGE_SIZE_EXAMS,
  });
  const exams = useExams({ ...list.filter, fields: LIST_FIELDS });
  const count = useExamsCount(list.where);

  const columns: Column<ExamListItem>[] = [
    {
      id: 'name',
      label: t('exams.fields.name'),
      sortField: 'name',
      render: (e) => (
        <Link component={RouterLink} to={`/examene/${e._id}`} sx={{ fontWeight: 500 }}>
          {e.name}
        </Link>
      ),
    },
    {
      id: 'subject',
      label: t('exams.fields.subject'),
      sortField: 'subject',
      noWrap: true,
      render: (e) => subjectLabel(e.subject, t),
    },
    { id: 'grades', label: t('exams.fields.grades'), render: (e) => gradesLabel(e.grades, t) },
    {
      id: 'role',
      label: t('exams.fields.myRole'),
      noWrap: true,
      render: (e) => (e.myRole ? t(`exams.roles.${e.myRole}`) : ''),
    },
    ...(isAdmin
      ? [
          {
            id: 'actions',
            label: t('exams.fields.actions'),
            noWrap: true,
            render: (e: ExamListItem) => (
              <Tooltip title={t('exams.delete.action')}>
                <IconButton
                  size="small"
                  aria-label={t('exams.delete.actionOf', { name: e.name })}
                  onClick={() => setDeleting(e)}
                >
                  <DeleteOutline fontSize="small" />
                </IconButton>
              </Tooltip>
            ),
          } satisfies Column<ExamListItem>,
        ]
      : []),
  ];

  return (
    <Stack spacing={2}>
      <Box sx={{ display: 'flex', alignItems: 'center', gap: 2, flexWrap: 'wrap' }}>
        <Box sx={{ flex: 1, minWidth: 200 }}>
          <Typography variant="h5" component="h1">
            {t('exams.title')}
          </Typography>
          <Typography variant="body2" color="text.secondary" sx={{ minHeight: 20 }}>
            {count.data === undefined ? '' : t('exams.total', { count: count.data })}
          </Typography>
        </Box>
        {isAdmin && (
          <Button variant="contained" startIcon={<Add />} onClick={() => setAdding(true)}>
            {t('exams.add')}
          </Button>
        )}
      </Box>
      <Paper sx={{ p: 2 }} component="section" aria-label={t('exams.filters')}>
        <Grid container spacing={2}>
          <Grid size={{ xs: 12, md: 8 }}>
            <SearchBox
              fullWidth
              label={t('exams.search')}
              placeholder={t('exams.searchPlaceholder')}
              value={list.filters.search}
              onChange={(v) => list.setFilter('search', v)}
            />
          </Grid>
          <Grid size={{ xs: 12, md: 4 }}>
            <SelectField
              fullWidth
              size="small"
              withAll
              label={t('exams.fields.subject')}
              value={list.filters.subject}
              onChange={(v) => list.setFilter('subject', v)}
              options={DISCIPLINES.map((d) => ({ value: d, label: t(`disciplines.${d}`) }))}
            />
          </Grid>
        </Grid>
      </Paper>
      <Paper sx={{ p: { xs: 1, sm: 2 } }}>
        <PagedTable
          label={t('exams.tableLabel')}
          columns={columns}
          {...pagedTableState(list, exams, count)}
          rowKey={(e) => e._id}
          emptyText={t('exams.empty')}
        />
      </Paper>
      {isAdmin && (
        <>
          <ExamFormDialog
            open={adding}
            onClose={() => setAdding(false)}
            onCreated={(exam) => navigate(`/examene/${exam._id}`)}
          />
          <DeleteExamDialog exam={deleting} onClose={() => setDeleting(null)} />
        </>
      )}
    </Stack>
  );
}
