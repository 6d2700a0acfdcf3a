import type {
  LoginInput,
  RegisterStudentInput,
  RegisterTeacherInput,
  Session,
  SignupInput,
} from '../../../../../shared/schemas/auth.js';
import type { User } from '../../../../../shared/schemas/users.js';
import { api } from '../../../api/client.js';

// The auth service of SPEC.md §7, one function per call.
const base = '/auth-service/auth';

export const login = (body: LoginInput) =>
  api<Session>(`${base}/login`, { method: 'POST', body, quiet401: true, device: true });

export const signup = (body: SignupInput) =>
  api<{ ok: true }>(`${base}/signup`, { method: 'POST', body });

export const forgotPassword = (body: { email: string; locale?: string }) =>
  api<{ ok: true }>(`${base}/password/forgot`, { method: 'POST', body });

export const resetPassword = (body: { uid: string; code: string; password: string }) =>
  api<Session>(`${base}/password/reset`, { method: 'POST', body, device: true });

export const register = (body: RegisterStudentInput | RegisterTeacherInput) =>
  api<User>(`${base}/register`, { method: 'POST', body });

export const oidcInfo = () => api<{ enabled: boolean; label: string }>(`${base}/oidc`);

export const oidcStartUrl = (type: 'student' | 'teacher') =>
  `/api/v1${base}/oidc/start?type=${type}`;
