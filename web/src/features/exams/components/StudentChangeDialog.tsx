import { TextField } from '@mui/material';
import { type FormEvent, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { MAX_TEXT_LENGTH } from '../../../../../shared/constants.js';
import type { EditionStudent } from '../../../../../shared/schemas/exams.js';
import { GradeSelect } from '../../../components/pickers/GradeSelect.js';
import { useChangeEditionStudents } from '../api/change-edition-students.js';
import type { EditionIds } from '../api/keys.js';
import { personName } from '../format.js';
import { hasFailures, useReport } from '../use-report.js';
import { FormDialog } from './FormDialog.js';

export type StudentChange = { student: EditionStudent; field: 'grade' | 'studentCentre' };

const MESSAGES = {
  grade: 'msg_change_student_grade',
  studentCentre: 'msg_change_student_exam_location',
} as const;

type Props = { ids: EditionIds; change: StudentChange | null; onClose: () => void };

/** Changes one enrolled student's grade or exam location (PUT …/students). */
export function StudentChangeDialog({ ids, change, onClose }: Props) {
  const { t } = useTranslation();
  const report = useReport();
  const save = useChangeEditionStudents(ids);
  const [grade, setGrade] = useState<number | ''>('');
  const [centre, setCentre] = useState('');
  const [shownFor, setShownFor] = useState<StudentChange | null>(null);
  // A new student chosen: start from their current values (React's derived-state pattern).
  if (change !== shownFor) {
    setShownFor(change);
    setGrade(change?.student.studentGrade ?? '');
    setCentre(change?.student.studentCentre ?? '');
  }
  if (!change) return null;
  const { student, field } = change;
  const key = MESSAGES[field];
  const isGrade = field === 'grade';

  const handleSubmit = async (e: FormEvent<HTMLFormElement>) => {
    e.preventDefault();
    if (isGrade && grade === '') return;
    const entry = isGrade
      ? { studentId: student.studentId, grade: grade as number }
      : { studentId: student.studentId, studentCentre: centre.trim() || null };
    try {
      const answer = await save.mutateAsync({ students: [entry] });
      if (hasFailures(answer)) {
        report.failure(undefined, `${key}_error`);
      } else {
        report.success(`${key}_success`);
        onClose();
      }
    } catch (err) {
      report.failure(err, `${key}_error`);
    }
  };

  return (
    <FormDialog
      open
      title={t(isGrade ? 'exams.students.changeGrade' : 'exams.students.changeCentre', {
        name: personName(student),
      })}
      submitLabel={t('common.save')}
      busy={save.isPending}
      onSubmit={(e) => void handleSubmit(e)}
      onClose={onClose}
    >
      {isGrade ? (
        <GradeSelect
          fullWidth
          required
          label={t('fields.grade')}
          value={grade}
          onChange={setGrade}
        />
      ) : (
        <TextField
          fullWidth
          autoFocus
          label={t('exams.students.centre')}
          value={centre}
          onChange={(e) => setCentre(e.target.value)}
          slotProps={{ htmlInput: { maxLength: MAX_TEXT_LENGTH } }}
        />
      )}
    </FormDialog>
  );
}
