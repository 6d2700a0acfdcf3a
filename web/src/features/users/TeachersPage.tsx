import { Chip, FormControlLabel, Grid, Paper, Stack, Switch } from '@mui/material';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useSearchParams } from 'react-router';
import { type County, DISCIPLINES, type UserState } from '../../../../shared/constants.js';
import { type Person, TEACHERS_DOWNLOAD_NAME } from '../../../../shared/schemas/people.js';
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
import { SelectField } from '../../components/pickers/select-field.js';
import { useAuth } from '../../lib/auth.js';
import { saveBlob } from '../../lib/download.js';
import { useSnackbar } from '../../lib/snackbar.js';
import { useTeachersCount } from './api/count-teachers.js';
import { useDownloadTeachers } from './api/download-teachers.js';
import { useTeachers } from './api/get-teachers.js';
import { AccountTypeButton } from './components/AccountTypeButton.js';
import { AccountTypeDialog } from './components/AccountTypeDialog.js';
import { BulkStateBar } from './components/BulkStateBar.js';
import { DeleteButton } from './components/DeleteButton.js';
import { DeletePersonDialog } from './components/DeletePersonDialog.js';
import { EmailText } from './components/EmailText.js';
import { ListHeader } from './components/ListHeader.js';
import { OnePersonNotice, PERSON_PARAM, useOnePerson } from './components/OnePersonNotice.js';
import { StateChip } from './components/StateChip.js';
import { StateSelect } from './components/StateSelect.js';
import { useBulkState } from './use-bulk-state.js';

type TeacherFilters = {
  /** One person alone: a search hit opened for them (`?persoana=`). */
  only: string;
  search: string;
  county: County | '';
  country: string;
  discipline: string;
  state: UserState | '';
  staffOnly: boolean;
  adminOnly: boolean;
};

const INITIAL_FILTERS: TeacherFilters = {
  only: '',
  search: '',
  county: '',
  country: '',
  discipline: '',
  state: '',
  staffOnly: false,
  adminOnly: false,
};

const toWhere = (f: TeacherFilters) =>
  andWhere(
    equalsWhere('_id', f.only),
    nameSearchWhere(f.search),
    equalsWhere('county', f.county),
    containsWhere('country', f.country),
    equalsWhere('discipline', f.discipline),
    equalsWhere('state', f.state),
    f.staffOnly && { isStaff: true },
    f.adminOnly && { isExamAdmin: true },
  );

const fullName = (p: Person) => [p.familyName, p.givenName].filter(Boolean).join(' ');

/**
 * /profesori: teachers, with search, filters (staff only / admin only), paging and download.
 * Changing a teacher's state and deleting are for admins only (the server refuses others).
 */
export function TeachersPage() {
  const { t } = useTranslation();
  const { user } = useAuth();
  const { notify } = useSnackbar();
  const isAdmin = user?.type === 'admin';
  const [params] = useSearchParams();
  const [onlyAtStart] = useState(() => params.get(PERSON_PARAM) ?? '');
  const list = usePagedList<TeacherFilters>({
    defaultOrder: { field: 'familyName', direction: 'asc' },
    initialFilters: { ...INITIAL_FILTERS, only: onlyAtStart },
    toWhere,
  });
  const onePerson = useOnePerson(list.setFilter);
  const teachers = useTeachers(list.filter);
  const count = useTeachersCount(list.where);
  const selection = useSelection(list.viewKey);
  const bulk = useBulkState('teachers');
  const download = useDownloadTeachers();
  const [toDelete, setToDelete] = useState<Person | null>(null);
  const [toStudent, setToStudent] = useState<Person | null>(null);

  const rows = teachers.data;
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
      saveBlob(blob, TEACHERS_DOWNLOAD_NAME);
    } catch {
      notify('people.teachers.downloadError', 'error');
    }
  };

  const roles = (p: Person) => (
    <Stack direction="row" spacing={0.5} useFlexGap sx={{ flexWrap: 'wrap' }}>
      {p.isExamAdmin && <Chip size="small" color="primary" label={t('people.roles.examAdmin')} />}
      {p.isStaff && <Chip size="small" variant="outlined" label={t('people.roles.staff')} />}
    </Stack>
  );

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
    { id: 'county', label: t('fields.county'), sortField: 'county', render: (p) => p.county },
    {
      id: 'school',
      label: t('fields.school'),
      sortField: 'school',
      maxWidth: 150,
      title: (p) => p.school,
      render: (p) => p.school,
    },
    {
      id: 'teacherCode',
      label: t('fields.teacherCode'),
      sortField: 'teacherCode',
      noWrap: true,
      render: (p) => p.teacherCode,
    },
    { id: 'roles', label: t('people.columns.roles'), render: roles },
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
        title={t('people.teachers.title')}
        subtitle={
          count.data === undefined ? undefined : t('people.teachers.total', { count: count.data })
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
          <Grid size={{ xs: 12, md: 6 }}>
            <SearchBox
              fullWidth
              label={t('people.search')}
              placeholder={t('people.searchPlaceholder')}
              value={f.search}
              onChange={(v) => list.setFilter('search', v)}
            />
          </Grid>
          <Grid size={{ xs: 12, sm: 6, md: 3 }}>
            <CountySelect
              fullWidth
              size="small"
              withAll
              label={t('fields.county')}
              value={f.county}
              onChange={(v) => list.setFilter('county', v)}
            />
          </Grid>
          <Grid size={{ xs: 12, sm: 6, md: 3 }}>
            <StateSelect
              fullWidth
              size="small"
              withAll
              label={t('fields.state')}
              value={f.state}
              onChange={(v) => list.setFilter('state', v)}
            />
          </Grid>
          <Grid size={{ xs: 12, sm: 6, md: 3 }}>
            <SearchBox
              fullWidth
              label={t('fields.country')}
              value={f.country}
              onChange={(v) => list.setFilter('country', v)}
            />
          </Grid>
          <Grid size={{ xs: 12, sm: 6, md: 3 }}>
            <SelectField
              fullWidth
              size="small"
              withAll
              label={t('fields.discipline')}
              value={f.discipline}
              onChange={(v) => list.setFilter('discipline', v)}
              options={DISCIPLINES.map((d) => ({ value: d, label: t(`disciplines.${d}`) }))}
            />
          </Grid>
          <Grid size={{ xs: 12, md: 6 }} sx={{ display: 'flex', flexWrap: 'wrap', columnGap: 3 }}>
            <FormControlLabel
              control={
                <Switch
                  checked={f.staffOnly}
                  onChange={(e) => list.setFilter('staffOnly', e.target.checked)}
                />
              }
              label={t('people.staffOnly')}
            />
            <FormControlLabel
              control={
                <Switch
                  checked={f.adminOnly}
                  onChange={(e) => list.setFilter('adminOnly', e.target.checked)}
                />
              }
              label={t('people.adminOnly')}
            />
          </Grid>
        </Grid>
      </Paper>
      <Paper sx={{ overflow: 'hidden' }}>
        <PagedTable
          label={t('people.teachers.tableLabel')}
          columns={columns}
          {...pagedTableState(list, teachers, count)}
          rowKey={(p) => p._id ?? p.email ?? ''}
          rowLabel={fullName}
          emptyText={t('people.teachers.empty')}
          selectable={isAdmin}
          selected={selection.selected}
          onSelectedChange={selection.setSelected}
          selectionToolbar={
            <BulkStateBar
              count={selection.selected.length}
              busy={bulk.isPending}
              onChange={handleBulk}
            />
          }
          rowActions={
            isAdmin
              ? (p) => (
                  <>
                    <AccountTypeButton
                      name={fullName(p)}
                      to="student"
                      onClick={() => setToStudent(p)}
                    />
                    <DeleteButton name={fullName(p)} onClick={() => setToDelete(p)} />
                  </>
                )
              : undefined
          }
        />
      </Paper>
      {isAdmin && (
        <DeletePersonDialog
          kind="teachers"
          person={toDelete}
          canAnonymise
          onClose={() => setToDelete(null)}
        />
      )}
      {isAdmin && (
        <AccountTypeDialog person={toStudent} to="student" onClose={() => setToStudent(null)} />
      )}
    </Stack>
  );
}
