import {
  Alert,
  AlertTitle,
  Box,
  Button,
  Dialog,
  DialogActions,
  DialogContent,
  DialogTitle,
  Grid,
  Typography,
} from '@mui/material';
import { useCallback, useId, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import type { AddStudentsResult, Exam } from '../../../../../shared/schemas/exams.js';
import type { Person } from '../../../../../shared/schemas/people.js';
import { type Column, PagedTable } from '../../../components/list/PagedTable.js';
import { SearchBox } from '../../../components/list/SearchBox.js';
import { usePagedList } from '../../../components/list/use-paged-list.js';
import { andWhere, equalsWhere, nameSearchWhere } from '../../../components/list/where.js';
import { GradeSelect } from '../../../components/pickers/GradeSelect.js';
import { useAuth } from '../../../lib/auth.js';
import { useAddEditionStudents } from '../api/add-edition-students.js';
import { useStudentsToEnrolCount } from '../api/count-students.js';
import { useStudentsToEnrol } from '../api/get-students.js';
import type { EditionIds } from '../api/keys.js';
import { personName } from '../format.js';
import { canManage } from '../rights.js';
import { useReport } from '../use-report.js';

type Filters = { search: string; grade: number | '' };
const FIELDS = ['_id', 'familyName', 'givenName', 'email', 'county', 'grade', 'school'];

type Props = {
  open: boolean;
  ids: EditionIds;
  exam: Pick<Exam, 'grades' | 'myRole'>;
  onClose: () => void;
};

/**
 * Picks students to enrol in the edition among those the server would enrol (the rules of
 * enrolment.service.ts): active, registered, of one of the competition's grades, and for staff
 * and coordinators their own; those already enrolled show as such and cannot be picked again.
 * Whoever the server still refuses (changed meanwhile) is listed with why, and the dialog stays.
 */
export function AddStudentsDialog({ open, ids, exam, onClose }: Props) {
  const { t } = useTranslation();
  const { user } = useAuth();
  const titleId = useId();
  const report = useReport();
  const add = useAddEditionStudents(ids);
  const [chosen, setChosen] = useState<string[]>([]);
  const [refused, setRefused] = useState<AddStudentsResult['failures']>([]);
  /** Names of the students seen in the picker, to say who was not enrolled. */
  const names = useRef(new Map<string, string>());
  const ownOnly = !canManage(exam);
  const me = user?._id;
  const toWhere = useCallback(
    (f: Filters) =>
      andWhere(
        nameSearchWhere(f.search),
        f.grade === '' ? { grade: { inq: exam.grades } } : equalsWhere('grade', f.grade),
        { state: 'active' },
        { registered: true },
        ownOnly && me ? { teacherRef: me } : undefined,
      ),
    [exam.grades, ownOnly, me],
  );
  const list = usePagedList<Filters>({
    defaultOrder: { field: 'familyName', direction: 'asc' },
    initialFilters: { search: '', grade: '' },
    toWhere,
  });
  const students = useStudentsToEnrol(
    { ...list.filter, fields: FIELDS, include: 'studentEditions' },
    open,
  );
  const count = useStudentsToEnrolCount(list.where, open);
  const isEnrolled = (p: Person) =>
    (p.studentEditions ?? []).some((e) => e.editionId === ids.editionId);
  const rows = students.data;
  for (const p of rows ?? []) if (p._id) names.current.set(p._id, personName(p));

  const close = () => {
    setChosen([]);
    setRefused([]);
    onClose();
  };

  const handleAdd = async () => {
    try {
      const answer = await add.mutateAsync({ students: chosen });
      const enrolled = chosen.length - answer.failures.length;
      setChosen([]);
      if (answer.failures.length > 0) {
        // The dialog stays open on who was not enrolled and why.
        setRefused(answer.failures);
        if (enrolled > 0) report.success('exams.students.enrolled', { count: enrolled });
      } else {
        report.success('msg_add_student_to_edition_success');
        close();
      }
    } catch (e) {
      report.failure(e, 'msg_add_student_to_edition_error');
    }
  };

  const columns: Column<Person>[] = [
    { id: 'name', label: t('exams.students.name'), render: personName },
    { id: 'email', label: t('fields.email'), render: (p) => p.email },
    { id: 'county', label: t('fields.county'), render: (p) => p.county },
    {
      id: 'grade',
      label: t('fields.grade'),
      noWrap: true,
      render: (p) => (p.grade === null || p.grade === undefined ? '' : t(`grades.${p.grade}`)),
    },
    {
      id: 'enrolled',
      label: t('exams.students.inEdition'),
      render: (p) => (isEnrolled(p) ? t('common.yes') : ''),
    },
  ];

  // Rows already enrolled cannot be chosen: the selection keeps only the others.
  const selectable = (rows ?? []).filter((p) => !isEnrolled(p)).map((p) => p._id ?? '');
  const onSelectedChange = (keys: string[]) => {
    const onPage = new Set(rows?.map((p) => p._id ?? ''));
    const kept = chosen.filter((k) => !onPage.has(k));
    setChosen([...kept, ...keys.filter((k) => selectable.includes(k))]);
  };

  return (
    <Dialog open={open} onClose={close} aria-labelledby={titleId} maxWidth="md" fullWidth>
      <DialogTitle id={titleId}>{t('exams.students.addTitle')}</DialogTitle>
      <DialogContent dividers>
        {refused.length > 0 && (
          <Alert severity="warning" sx={{ mb: 2 }} data-testid="not-enrolled">
            <AlertTitle>{t('exams.students.notEnrolled', { count: refused.length })}</AlertTitle>
            <Box component="ul" sx={{ m: 0, pl: 2 }}>
              {refused.map((f) => (
                <li key={f.studentId}>
                  {t('exams.students.notEnrolledRow', {
                    name: names.current.get(f.studentId) ?? f.studentId,
                    reason: t(`exams.students.enrolFailures.${f.reason}`),
                  })}
                </li>
              ))}
            </Box>
          </Alert>
        )}
        <Typography variant="body2" color="text.secondary" sx={{ mb: 1.5 }}>
          {ownOnly ? t('exams.students.eligibleOwn') : t('exams.students.eligible')}
        </Typography>
        <Grid container spacing={2} sx={{ mb: 1 }}>
          <Grid size={{ xs: 12, sm: 8 }}>
            <SearchBox
              fullWidth
              autoFocus
              label={t('exams.students.search')}
              placeholder={t('exams.students.searchPlaceholder')}
              value={list.filters.search}
              onChange={(v) => list.setFilter('search', v)}
            />
          </Grid>
          <Grid size={{ xs: 12, sm: 4 }}>
            <GradeSelect
              fullWidth
              size="small"
              withAll
              grades={exam.grades}
              label={t('fields.grade')}
              value={list.filters.grade}
              onChange={(v) => list.setFilter('grade', v)}
            />
          </Grid>
        </Grid>
        <PagedTable
          label={t('exams.students.addTitle')}
          columns={columns}
          rows={rows}
          rowKey={(p) => p._id ?? ''}
          rowLabel={personName}
          total={count.data}
          page={list.page}
          pageSize={list.pageSize}
          onPageChange={list.setPage}
          order={list.order}
          onSort={list.sortBy}
          loading={students.isFetching}
          error={students.isError}
          selectable
          selected={chosen}
          onSelectedChange={onSelectedChange}
          emptyText={t('exams.students.emptyPicker')}
        />
      </DialogContent>
      <DialogActions>
        <Box sx={{ flex: 1, pl: 2, color: 'text.secondary' }} role="status">
          {t('exams.students.selected', { count: chosen.length })}
        </Box>
        <Button onClick={close} disabled={add.isPending}>
          {t('common.cancel')}
        </Button>
        <Button
          variant="contained"
          disabled={chosen.length === 0 || add.isPending}
          onClick={() => void handleAdd()}
        >
          {t('exams.students.addChosen', { count: chosen.length })}
        </Button>
      </DialogActions>
    </Dialog>
  );
}
