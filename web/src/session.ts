import { signal } from '@preact/signals';
import { type Result, api } from './api';

export type Session = Result<'/api/dashboard/auth/me', 'get'>;

/** undefined: not known yet; null: signed out. */
export const session = signal<Session | null | undefined>(undefined);

export const MANAGER_ROLES = ['owner', 'admin'];

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
