import DeleteOutline from '@mui/icons-material/DeleteOutline';
import Download from '@mui/icons-material/Download';
import EditLocationAlt from '@mui/icons-material/EditLocationAlt';
import GroupAdd from '@mui/icons-material/GroupAdd';
import PersonAdd from '@mui/icons-material/PersonAdd';
import School from '@mui/icons-material/School';
import { Box, Button, Grid, IconButton, Paper, Stack, Tooltip, Typography } from '@mui/material';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { BUCHAREST, type County } from '../../../../../shared/constants.js';
import type { Edition, EditionStudent, Exam } from '../../../../../shared/schemas/exams.js';
import { ConfirmDialog } from '../../../components/list/ConfirmDialog.js';
import { type Column, PagedTable, pagedTableState } from '../../../components/list/PagedTable.js';
import { StudentFilters } from '../../../components/list/StudentFilters.js';
import { studentColumns } from '../../../components/list/student-columns.js';
import { usePagedList } from '../../../components/list/use-paged-list.js';
import { useSelection } from '../../../components/list/use-selection.js';
import { andWhere, equalsWhere, nameSearchWhere } from '../../../components/list/where.js';
import {
  type SectorFilter,
  SectorSelect,
  sectorWhere,
} from '../../../components/pickers/SectorSelect.js';
import { useAuth } from '../../../lib/auth.js';
import { saveBlob } from '../../../lib/download.js';
import { useEditionStudentsCount } from '../api/count-edition-students.js';
import { useDownloadCredentials } from '../api/download-credentials.js';
import { useEnrolAllMine } from '../api/enrol-all-mine.js';
import { useEnrolForCoordinators } from '../api/enrol-for-coordinators.js';
import { useEditionStudents } from '../api/get-edition-students.js';
import { useRemoveEditionStudents } from '../api/remove-edition-students.js';
import { credentialsFileName, personName } from '../format.js';
import { canEnrol, canManage } from '../rights.js';
import { hasFailures, useReport } from '../use-report.js';
import { AddStudentsDialog } from './AddStudentsDialog.js';
import { SelectionBar } from './SelectionBar.js';
import { type StudentChange, StudentChangeDialog } from './StudentChangeDialog.js';

type Filters = {
  search: string;
  county: County | '';
  /** Only with București: one sector, or `none` for those whose sector is not set. */
  sector: SectorFilter;
  grade: number | '';
};
const NAME_FIELDS = ['familyNameNormalized', 'givenNameNormalized'];
const toWhere = (f: Filters) =>
  andWhere(
    nameSearchWhere(f.search.toLowerCase(), NAME_FIELDS),
    equalsWhere('studentCounty', f.county),
    f.county === BUCHAREST ? sectorWhere(f.sector, 'studentSector') : undefined,
    equalsWhere('studentGrade', f.grade),
  );

/**
 * The edition's students: search, county and grade filters, paging; enrolment (pick, all of
 * mine, all of the coordinators'), removal, grade and exam-location changes, and the judge
 * credentials spreadsheet.
 */
export function EditionStudents({ exam, edition }: { exam: Exam; edition: Edition }) {
  const { t } = useTranslation();
  const { user } = useAuth();
  const report = useReport();
  const ids = { examId: exam._id, editionId: edition._id };
  const list = usePagedList<Filters>({
    defaultOrder: { field: 'familyName', direction: 'asc' },
    initialFilters: { search: '', county: '', sector: '', grade: '' },
    toWhere,
  });
  const students = useEditionStudents(ids, list.filter);
  const count = useEditionStudentsCount(ids, list.where);
  const selection = useSelection(list.viewKey);
  const remove = useRemoveEditionStudents(ids);
  const allMine = useEnrolAllMine(ids);
  const forCoordinators = useEnrolForCoordinators(ids);
  const download = useDownloadCredentials(ids);
  const [adding, setAdding] = useState(false);
  const [toRemove, setToRemove] = useState<string[] | null>(null);
  const [change, setChange] = useState<StudentChange | null>(null);
  const mayEnrol = canEnrol(exam);
  const isTeacher = user?.type === 'teacher';

  const enrolMany = async (
    call: () => Promise<{ failedStudents: string[]; enrolledCount: number }>,
  ) => {
    try {
      const answer = await call();
      if (hasFailures(answer)) {
        report.failure(undefined, 'msg_add_student_to_edition_error');
      } else {
        report.success('exams.students.enrolled', { count: answer.enrolledCount });
      }
    } catch (e) {
      report.failure(e, 'msg_add_student_to_edition_error');
    }
  };

  const handleRemove = async () => {
    if (!toRemove) return;
    try {
      const answer = await remove.mutateAsync({ students: toRemove });
      if (hasFailures(answer)) {
        report.failure(undefined, 'msg_remove_student_from_edition_error');
      } else {
        report.success('msg_remove_student_from_edition_success');
      }
      selection.clear();
    } catch (e) {
      report.failure(e, 'msg_remove_student_from_edition_error');
    }
    setToRemove(null);
  };

  const handleDownload = async () => {
    try {
      saveBlob(await download.mutateAsync(), credentialsFileName());
    } catch {
      report.failure(undefined, 'msg_download_failed');
    }
  };

  const columns: Column<EditionStudent>[] = [
    ...studentColumns<EditionStudent>(
      t,
      ['familyName', 'givenName', 'county', 'grade', 'school', 'centre'],
      { schoolWidth: 160 },
    ),
  ];

  const rowActions = (s: EditionStudent) => {
    const name = personName(s);
    return (
      <>
        <Tooltip title={t('exams.students.changeGradeShort')}>
          <IconButton
            size="small"
            aria-label={t('exams.students.changeGrade', { name })}
            onClick={() => setChange({ student: s, field: 'grade' })}
          >
            <School fontSize="small" />
          </IconButton>
        </Tooltip>
        <Tooltip title={t('exams.students.changeCentreShort')}>
          <IconButton
            size="small"
            aria-label={t('exams.students.changeCentre', { name })}
            onClick={() => setChange({ student: s, field: 'studentCentre' })}
          >
            <EditLocationAlt fontSize="small" />
          </IconButton>
        </Tooltip>
        <Tooltip title={t('exams.students.removeShort')}>
          <IconButton
            size="small"
            aria-label={t('exams.students.remove', { name })}
            onClick={() => setToRemove([s.studentId])}
          >
            <DeleteOutline fontSize="small" />
          </IconButton>
        </Tooltip>
      </>
    );
  };

  return (
    <Stack spacing={2} component="section" aria-label={t('exams.students.title')}>
      <Box sx={{ display: 'flex', alignItems: 'center', gap: 1, flexWrap: 'wrap' }}>
        <Typography variant="h6" component="h2" sx={{ flex: 1, minWidth: 200 }}>
          {t('exams.students.title')}
          {count.data !== undefined && (
            <Typography component="span" color="text.secondary" sx={{ ml: 1 }}>
              ({t('exams.students.total', { count: count.data })})
            </Typography>
          )}
        </Typography>
        {mayEnrol && (
          <>
            <Button startIcon={<PersonAdd />} variant="contained" onClick={() => setAdding(true)}>
              {t('exams.students.add')}
            </Button>
            {isTeacher && (
              <Button
                startIcon={<GroupAdd />}
                variant="outlined"
                disabled={allMine.isPending}
                onClick={() => void enrolMany(() => allMine.mutateAsync())}
              >
                {t('exams.students.allMine')}
              </Button>
            )}
            {canManage(exam) && (
              <Button
                startIcon={<GroupAdd />}
                variant="outlined"
                disabled={forCoordinators.isPending}
                onClick={() => void enrolMany(() => forCoordinators.mutateAsync())}
              >
                {t('exams.students.forCoordinators')}
              </Button>
            )}
          </>
        )}
        <Button
          startIcon={<Download />}
          variant="outlined"
          disabled={download.isPending}
          onClick={() => void handleDownload()}
        >
          {t('exams.students.credentials')}
        </Button>
      </Box>
      <StudentFilters
        label={t('exams.students.filters')}
        search={{
          label: t('exams.students.search'),
          placeholder: t('exams.students.searchPlaceholder'),
          value: list.filters.search,
          onChange: (v) => list.setFilter('search', v),
        }}
        county={{ value: list.filters.county, onChange: (v) => list.setFilter('county', v) }}
        grade={{ value: list.filters.grade, onChange: (v) => list.setFilter('grade', v) }}
      >
        {list.filters.county === BUCHAREST && (
          <Grid size={{ xs: 12, sm: 4, lg: 2 }}>
            <SectorSelect
              value={list.filters.sector}
              onChange={(v) => list.setFilter('sector', v)}
            />
          </Grid>
        )}
      </StudentFilters>
      <Paper sx={{ p: { xs: 1, sm: 2 } }}>
        <PagedTable
          label={t('exams.students.title')}
          columns={columns}
          {...pagedTableState(list, students, count)}
          rowKey={(s) => s.studentId}
          rowLabel={personName}
          emptyText={t('exams.students.empty')}
          selectable={mayEnrol}
          selected={selection.selected}
          onSelectedChange={selection.setSelected}
          selectionToolbar={
            <SelectionBar count={selection.selected.length}>
              <Button
                size="small"
                variant="outlined"
                color="error"
                startIcon={<DeleteOutline />}
                onClick={() => setToRemove(selection.selected)}
              >
                {t('exams.students.removeSelected')}
              </Button>
            </SelectionBar>
          }
          rowActions={mayEnrol ? rowActions : undefined}
        />
      </Paper>
      {mayEnrol && (
        <>
          <AddStudentsDialog open={adding} ids={ids} exam={exam} onClose={() => setAdding(false)} />
          <StudentChangeDialog ids={ids} change={change} onClose={() => setChange(null)} />
          <ConfirmDialog
            open={toRemove !== null}
            title={t('exams.students.removeTitle')}
            message={t('exams.students.removeMessage', { count: toRemove?.length ?? 0 })}
            confirmLabel={t('exams.students.removeConfirm')}
            destructive
            busy={remove.isPending}
            onConfirm={() => void handleRemove()}
            onClose={() => setToRemove(null)}
          />
        </>
      )}
    </Stack>
  );
}
