import { signal } from '@preact/signals';
import { type Result, api } from './api';

export type Session = Result<'/api/dashboard/auth/me', 'get'>;

/** undefined: not known yet; null: signed out. */
export const session = signal<Session | null | undefined>(undefined);

export const MANAGER_ROLES = ['owner', 'admin'];

/** The page where a user changes their own password; the only one open while a change is due. */
export const ACCOUNT_PATH = '/account';

/** The change that was due is done: the other pages open again (the server reads the flag per request). */
export function passwordChanged(): void {
  const s = session.value;
  if (s) session.value = { ...s, user: { ...s.user, mustChangePassword: false } };
}

export function canManage(): boolean {
  return MANAGER_ROLES.includes(session.value?.user.role ?? '');
}

export async function loadSession(): Promise<void> {
  try {
    session.value = await api('get', '/api/dashboard/auth/me');
  } catch {
    session.value = null;
  }
}
