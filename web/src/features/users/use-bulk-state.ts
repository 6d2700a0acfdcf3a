import type { UserState } from '../../../../shared/constants.js';
import type { Person } from '../../../../shared/schemas/people.js';
import { useSnackbar } from '../../lib/snackbar.js';
import { useSetStudentsState } from './api/set-students-state.js';
import { useSetTeachersState } from './api/set-teachers-state.js';

export type PeopleKind = 'students' | 'teachers';

/**
 * Bulk activate / inactivate with the messages of SPEC.md §4 and §8: success only when the
 * server answers an empty list of failures (singular or plural message); otherwise says
 * which e-mails were not changed. Resolves true when everything was done.
 */
export function useBulkState(kind: PeopleKind) {
  const { notify, notifyError } = useSnackbar();
  const students = useSetStudentsState();
  const teachers = useSetTeachersState();
  const isPending = kind === 'students' ? students.isPending : teachers.isPending;

  const run = async (people: Person[], state: UserState): Promise<boolean> => {
    const changes = people.flatMap((p) => (p.email ? [{ email: p.email, state }] : []));
    if (changes.length === 0) return false;
    try {
      const failures =
        kind === 'students'
          ? await students.mutateAsync({ students: changes })
          : await teachers.mutateAsync({ teachers: changes });
      if (failures.length === 0) {
        const done = state === 'active' ? 'activated' : 'inactivated';
        notify(`people.${kind}.${done}`, 'success', { count: changes.length });
        return true;
      }
      notify('people.stateFailed', 'warning', {
        count: failures.length,
        emails: failures.map((f) => f.email).join(', '),
      });
      return false;
    } catch (e) {
      notifyError(e, 'msg_change_error');
      return false;
    }
  };

  return { run, isPending };
}
