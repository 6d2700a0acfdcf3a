import PersonAdd from '@mui/icons-material/PersonAdd';
import {
  Button,
  Chip,
  Grid,
  Paper,
  Stack,
  Typography,
  useMediaQuery,
  useTheme,
} from '@mui/material';
import { useTranslation } from 'react-i18next';
import { USER_STATES, type UserState } from '../../../../../shared/constants.js';
import type { Person } from '../../../../../shared/schemas/people.js';
import { type Column, PagedTable, pagedTableState } from '../../../components/list/PagedTable.js';
import { SearchBox } from '../../../components/list/SearchBox.js';
import { usePagedList } from '../../../components/list/use-paged-list.js';
import { andWhere, equalsWhere, nameSearchWhere } from '../../../components/list/where.js';
import { SelectField } from '../../../components/pickers/select-field.js';
import { useTeachersCount } from '../api/count-teachers.js';
import { useTeachers } from '../api/get-teachers.js';
import {
  type QuestionTeacherRole,
  type QuestionTeachers,
  whyNotQuestionTeacher,
} from '../question-teachers.js';
import { AppealRoleLabel } from './AppealRoleLabel.js';

type PickerFilters = { search: string; state: UserState | '' };

// SPEC.md §9: the teacher state filter of the question pages starts on 'active'.
const INITIAL: PickerFilters = { search: '', state: 'active' };
const toWhere = (f: PickerFilters) =>
  andWhere(nameSearchWhere(f.search), equalsWhere('state', f.state));
export const MARKER_FIELDS = ['_id', 'familyName', 'givenName', 'email', 'county', 'state'];

export const teacherName = (p: Person) =>
  [p.familyName, p.givenName].filter(Boolean).join(' ') || p.email || '';

type Props = {
  questionTeacherRole: QuestionTeacherRole;
  question: QuestionTeachers;
  /** A call is running: every choice waits. */
  disabled: boolean;
  onPick: (teacherId: string) => void;
};

/**
 * Teachers to choose a question's mediator or reviewers from: name search, state filter
 * (active by default), server paging. Teachers already in a role are shown but not offered.
 */
export function QuestionTeacherPicker({
  questionTeacherRole: role,
  question,
  disabled,
  onPick,
}: Props) {
  const { t } = useTranslation();
  const theme = useTheme();
  const isPhone = useMediaQuery(theme.breakpoints.down('sm'));
  const list = usePagedList<PickerFilters>({
    defaultOrder: { field: 'familyName', direction: 'asc' },
    initialFilters: INITIAL,
    toWhere,
  });
  const teachers = useTeachers({ ...list.filter, fields: MARKER_FIELDS });
  const count = useTeachersCount(list.where);
  const title =
    role === 'mediator'
      ? t('questions.questionTeachers.pickMediator')
      : t('questions.questionTeachers.pickReviewer');

  const action = (p: Person) => {
    const why = whyNotQuestionTeacher(question, role, p);
    const name = teacherName(p);
    if (why) {
      return (
        <Chip
          size="small"
          variant="outlined"
          label={t(`questions.questionTeachers.why_${why}_${role}`)}
          sx={{ my: 0.5 }}
        />
      );
    }
    return (
      <Button
        size="small"
        startIcon={<PersonAdd />}
        disabled={disabled}
        onClick={() => p._id && onPick(p._id)}
        aria-label={
          role === 'mediator'
            ? t('questions.questionTeachers.setMediatorNamed', { name })
            : t('questions.questionTeachers.addReviewerNamed', { name })
        }
      >
        {role === 'mediator'
          ? t('questions.questionTeachers.setMediator')
          : t('questions.questionTeachers.addReviewer')}
      </Button>
    );
  };

  const columns: Column<Person>[] = [
    {
      id: 'name',
      label: t('questions.questionTeachers.teacher'),
      sortField: 'familyName',
      render: teacherName,
    },
    ...(isPhone
      ? []
      : [
          {
            id: 'email',
            label: t('fields.email'),
            sortField: 'email',
            render: (p: Person) => p.email,
          },
          {
            id: 'county',
            label: t('fields.county'),
            sortField: 'county',
            render: (p: Person) => p.county,
          },
          {
            id: 'state',
            label: t('fields.state'),
            sortField: 'state',
            render: (p: Person) => (p.state ? t(`states.${p.state}`) : ''),
          },
        ]),
  ];

  return (
    <Paper component="section" aria-label={title} sx={{ overflow: 'hidden' }}>
      <Stack spacing={2} sx={{ p: 2, pb: 0 }}>
        <div>
          <Typography variant="h6" component="h2">
            {title}
          </Typography>
          <AppealRoleLabel role={role} />
        </div>
        <Grid container spacing={2}>
          <Grid size={{ xs: 12, sm: 8 }}>
            <SearchBox
              fullWidth
              label={t('questions.questionTeachers.search')}
              placeholder={t('questions.questionTeachers.searchPlaceholder')}
              value={list.filters.search}
              onChange={(v) => list.setFilter('search', v)}
            />
          </Grid>
          <Grid size={{ xs: 12, sm: 4 }}>
            <SelectField
              fullWidth
              size="small"
              withAll
              label={t('fields.state')}
              options={USER_STATES.map((s) => ({ value: s, label: t(`states.${s}`) }))}
              value={list.filters.state}
              onChange={(v) => list.setFilter('state', v)}
            />
          </Grid>
        </Grid>
      </Stack>
      <PagedTable
        label={t('questions.questionTeachers.teachersTable')}
        columns={columns}
        {...pagedTableState(list, teachers, count)}
        rowKey={(p) => p._id ?? p.email ?? ''}
        emptyText={t('questions.questionTeachers.noTeachers')}
        rowActions={action}
      />
    </Paper>
  );
}
