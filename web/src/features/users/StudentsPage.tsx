import { Box, Grid, Paper, Stack, Typography } from '@mui/material';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useSearchParams } from 'react-router';
import { BUCHAREST, type County, type UserState } from '../../../../shared/constants.js';
import { type Person, STUDENTS_DOWNLOAD_NAME } from '../../../../shared/schemas/people.js';
import { type Column, PagedTable, pagedTableState } from '../../components/list/PagedTable.js';
import { SearchBox } from '../../components/list/SearchBox.js';
import { usePagedList } from '../../components/list/use-paged-list.js';
import { useSelection } from '../../components/list/use-selection.js';
import {
  andWhere,
  containsWhere,
  equalsWhere,
  nameSearchWhere,
  orderParam,
} from '../../components/list/where.js';
import { CountySelect } from '../../components/pickers/CountySelect.js';
import { GradeSelect } from '../../components/pickers/GradeSelect.js';
import {
  CountyText,
  type SectorFilter,
  SectorSelect,
  sectorWhere,
} from '../../components/pickers/SectorSelect.js';
import { SelectField } from '../../components/pickers/select-field.js';
import { useAuth } from '../../lib/auth.js';
import { saveBlob } from '../../lib/download.js';
import { useSnackbar } from '../../lib/snackbar.js';
import { useStudentsCount } from './api/count-students.js';
import { useDownloadStudents } from './api/download-students.js';
import { useExamOptions } from './api/get-exam-options.js';
import { useStudents } from './api/get-students.js';
import { useTeachers } from './api/get-teachers.js';
import { AccountTypeButton } from './components/AccountTypeButton.js';
import { AccountTypeDialog } from './components/AccountTypeDialog.js';
import { BulkStateBar } from './components/BulkStateBar.js';
import { DeleteButton } from './components/DeleteButton.js';
import { DeletePersonDialog } from './components/DeletePersonDialog.js';
import { EmailText } from './components/EmailText.js';
import { ListHeader } from './components/ListHeader.js';
import { OnePersonNotice, PERSON_PARAM, useOnePerson } from './components/OnePersonNotice.js';
import { SectorButton, SectorDialog } from './components/SectorDialog.js';
import { StateChip } from './components/StateChip.js';
import { StateSelect } from './components/StateSelect.js';
import { TeacherPicker } from './components/TeacherPicker.js';
import { useBulkState } from './use-bulk-state.js';

type StudentFilters = {
  /** One person alone: a search hit opened for them (`?persoana=`). */
  only: string;
  search: string;
  county: County | '';
  /** Only with București: a sector, or `none` for the students whose sector is not set. */
  sector: SectorFilter;
  grade: number | '';
  teacherRef: string;
  studentCentre: string;
  state: UserState | '';
  country: string;
  /** A competition: only its students (`?examAdmin=`, SPEC.md §7). */
  examId: string;
};

const INITIAL_FILTERS: StudentFilters = {
  only: '',
  search: '',
  county: '',
  sector: '',
  grade: '',
  teacherRef: '',
  studentCentre: '',
  state: '',
  country: '',
  examId: '',
};

const toWhere = (f: StudentFilters) =>
  andWhere(
    equalsWhere('_id', f.only),
    nameSearchWhere(f.search),
    equalsWhere('county', f.county),
    f.county === BUCHAREST ? sectorWhere(f.sector) : undefined,
    equalsWhere('grade', f.grade),
    equalsWhere('teacherRef', f.teacherRef),
    containsWhere('studentCentre', f.studentCentre),
    equalsWhere('state', f.state),
    containsWhere('country', f.country),
  );

const fullName = (p: Person) => [p.familyName, p.givenName].filter(Boolean).join(' ');
const TEACHER_FIELDS = ['_id', 'familyName', 'givenName', 'teacherCode'];

/** The coordinating teachers of the students on the page, by id (one projected call). */
function useTeachersOf(rows: Person[] | undefined) {
  const ids = [...new Set(rows?.flatMap((r) => (r.teacherRef ? [r.teacherRef] : [])) ?? [])];
  ids.sort();
  const { data } = useTeachers(
    { where: { _id: { inq: ids } }, fields: TEACHER_FIELDS, limit: Math.max(ids.length, 1) },
    { enabled: ids.length > 0 },
  );
  return new Map((data ?? []).map((t) => [t._id, t]));
}

/** /elevi: students in the caller's scope, with search, filters, paging and bulk actions. */
export function StudentsPage() {
  const { t } = useTranslation();
  const { user } = useAuth();
  const { notify } = useSnackbar();
  const isAdmin = user?.type === 'admin';
  const [params] = useSearchParams();
  const [onlyAtStart] = useState(() => params.get(PERSON_PARAM) ?? '');
  const list = usePagedList<StudentFilters>({
    defaultOrder: { field: 'familyName', direction: 'asc' },
    initialFilters: { ...INITIAL_FILTERS, only: onlyAtStart },
    toWhere,
  });
  const onePerson = useOnePerson(list.setFilter);
  const examAdmin = list.filters.examId || undefined;
  const students = useStudents(list.filter, examAdmin);
  const count = useStudentsCount(list.where, examAdmin);
  const examOptions = useExamOptions();
  const teachers = useTeachersOf(students.data);
  const selection = useSelection(list.viewKey);
  const bulk = useBulkState('students');
  const download = useDownloadStudents();
  const [toDelete, setToDelete] = useState<Person | null>(null);
  const [toTeacher, setToTeacher] = useState<Person | null>(null);
  const [toPlace, setToPlace] = useState<Person | null>(null);

  const rows = students.data;
  // The server lets admins and a student's own coordinating teacher act on them (a teacher
  // also sees the students of their competitions, read-only).
  const canManage = (p: Person) => isAdmin || (p.teacherRef != null && p.teacherRef === user?._id);
  const f = list.filters;

  const handleBulk = async (state: UserState) => {
    const chosen = (rows ?? []).filter((r) => r._id && selection.selected.includes(r._id));
    await bulk.run(chosen, state);
    selection.clear();
  };

  const handleDownload = async () => {
    try {
      const blob = await download.mutateAsync({
        ...(list.where ? { where: list.where } : {}),
        order: orderParam(list.order),
      });
      saveBlob(blob, STUDENTS_DOWNLOAD_NAME);
    } catch {
      notify('msg_download_students_error', 'error');
    }
  };

  const teacherCell = (p: Person) => {
    const teacher = p.teacherRef ? teachers.get(p.teacherRef) : undefined;
    if (!teacher) return p.teacherCode ?? '—';
    return (
      <>
        <Box component="span" sx={{ display: 'block' }}>
          {fullName(teacher)}
        </Box>
        {teacher.teacherCode && (
          <Typography variant="caption" color="text.secondary">
            {teacher.teacherCode}
          </Typography>
        )}
      </>
    );
  };

  const columns: Column<Person>[] = [
    {
      id: 'familyName',
      label: t('fields.familyName'),
      sortField: 'familyName',
      render: (p) => p.familyName,
    },
    {
      id: 'givenName',
      label: t('fields.givenName'),
      sortField: 'givenName',
      render: (p) => p.givenName,
    },
    {
      id: 'email',
      label: t('fields.email'),
      sortField: 'email',
      render: (p) => <EmailText email={p.email} />,
    },
    {
      id: 'county',
      label: t('fields.county'),
      sortField: 'county',
      render: (p) => <CountyText county={p.county ?? null} sector={p.bucharestSector ?? null} />,
    },
    {
      id: 'grade',
      label: t('fields.grade'),
      sortField: 'grade',
      noWrap: true,
      render: (p) => (p.grade === null || p.grade === undefined ? '' : t(`grades.${p.grade}`)),
    },
    {
      id: 'school',
      label: t('fields.school'),
      sortField: 'school',
      maxWidth: 150,
      title: (p) => p.school,
      render: (p) => p.school,
    },
    { id: 'teacher', label: t('people.columns.teacher'), render: teacherCell },
    {
      id: 'state',
      label: t('fields.state'),
      sortField: 'state',
      render: (p) => <StateChip state={p.state} />,
    },
  ];

  return (
    <Stack spacing={2}>
      <ListHeader
        title={t('people.students.title')}
        subtitle={
          count.data === undefined ? undefined : t('people.students.total', { count: count.data })
        }
        downloading={download.isPending}
        onDownload={handleDownload}
      />
      {onePerson.id && (
        <OnePersonNotice
          name={rows?.length === 1 && rows[0] ? fullName(rows[0]) : undefined}
          missing={rows?.length === 0}
          onShowAll={onePerson.clear}
        />
      )}
      <Paper sx={{ p: 2 }} component="section" aria-label={t('people.filters')}>
        <Grid container spacing={2}>
          <Grid size={{ xs: 12, md: isAdmin ? 6 : 4 }}>
            <SearchBox
              fullWidth
              label={t('people.search')}
              placeholder={t('people.searchPlaceholder')}
              value={f.search}
              onChange={(v) => list.setFilter('search', v)}
            />
          </Grid>
          <Grid size={{ xs: 12, sm: 6, md: isAdmin ? 3 : 4 }}>
            <CountySelect
              fullWidth
              size="small"
              withAll
              label={t('fields.county')}
              value={f.county}
              onChange={(v) => list.setFilter('county', v)}
            />
          </Grid>
          {f.county === BUCHAREST && (
            <Grid size={{ xs: 12, sm: 6, md: isAdmin ? 3 : 4 }}>
              <SectorSelect value={f.sector} onChange={(v) => list.setFilter('sector', v)} />
            </Grid>
          )}
          <Grid size={{ xs: 12, sm: 6, md: isAdmin ? 3 : 4 }}>
            <GradeSelect
              fullWidth
              size="small"
              withAll
              label={t('fields.grade')}
              value={f.grade}
              onChange={(v) => list.setFilter('grade', v)}
            />
          </Grid>
          {isAdmin && (
            <Grid size={{ xs: 12, md: 6 }}>
              <TeacherPicker
                label={t('people.columns.teacher')}
                value={f.teacherRef}
                onChange={(v) => list.setFilter('teacherRef', v)}
              />
            </Grid>
          )}
          <Grid size={{ xs: 12, sm: 6, md: isAdmin ? 3 : 8 }}>
            <SearchBox
              fullWidth
              label={t('people.studentCentre')}
              value={f.studentCentre}
              onChange={(v) => list.setFilter('studentCentre', v)}
            />
          </Grid>
          <Grid size={{ xs: 12, sm: 6, md: isAdmin ? 3 : 4 }}>
            <StateSelect
              fullWidth
              size="small"
              withAll
              label={t('fields.state')}
              value={f.state}
              onChange={(v) => list.setFilter('state', v)}
            />
          </Grid>
          <Grid size={{ xs: 12, sm: 6, md: isAdmin ? 3 : 4 }}>
            <SearchBox
              fullWidth
              label={t('fields.country')}
              value={f.country}
              onChange={(v) => list.setFilter('country', v)}
            />
          </Grid>
          {(examOptions.data?.length ?? 0) > 0 && (
            <Grid size={{ xs: 12, sm: 6, md: isAdmin ? 3 : 4 }}>
              <SelectField
                fullWidth
                size="small"
                withAll
                label={t('people.competition')}
                value={f.examId}
                onChange={(v) => list.setFilter('examId', v)}
                options={examOptions.data ?? []}
              />
            </Grid>
          )}
        </Grid>
      </Paper>
      <Paper sx={{ overflow: 'hidden' }}>
        <PagedTable
          label={t('people.students.tableLabel')}
          columns={columns}
          {...pagedTableState(list, students, count)}
          rowKey={(p) => p._id ?? p.email ?? ''}
          rowLabel={fullName}
          emptyText={t('people.students.empty')}
          selectable
          selected={selection.selected}
          onSelectedChange={selection.setSelected}
          isRowSelectable={canManage}
          selectionToolbar={
            <BulkStateBar
              count={selection.selected.length}
              busy={bulk.isPending}
              onChange={handleBulk}
            />
          }
          rowActions={(p) => (
            <>
              {isAdmin && p.county === BUCHAREST && (
                <SectorButton name={fullName(p)} onClick={() => setToPlace(p)} />
              )}
              {isAdmin && (
                <AccountTypeButton
                  name={fullName(p)}
                  to="teacher"
                  onClick={() => setToTeacher(p)}
                />
              )}
              {canManage(p) && <DeleteButton name={fullName(p)} onClick={() => setToDelete(p)} />}
            </>
          )}
        />
      </Paper>
      <DeletePersonDialog
        kind="students"
        person={toDelete}
        canAnonymise={isAdmin}
        onClose={() => setToDelete(null)}
      />
      {isAdmin && (
        <AccountTypeDialog person={toTeacher} to="teacher" onClose={() => setToTeacher(null)} />
      )}
      {isAdmin && <SectorDialog person={toPlace} onClose={() => setToPlace(null)} />}
    </Stack>
  );
}
