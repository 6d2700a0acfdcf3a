import type { TeacherCodeBody } from '../../../../../shared/schemas/people.js';
import type { User } from '../../../../../shared/schemas/users.js';
import { api } from '../../../api/client.js';

/**
 * PUT /user-mgmt/users/{email}/teacher-codes: a teacher's new team code (must be unused:
 * CLIENT_ERROR `{teacherCode: ['code_exists']}`); their students stay linked.
 */
export const changeTeacherCode = (email: string, body: TeacherCodeBody) =>
  api<User>(`/user-mgmt/users/${encodeURIComponent(email)}/teacher-codes`, {
    method: 'PUT',
    body,
  });
