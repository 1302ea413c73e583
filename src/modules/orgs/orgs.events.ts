import type { Role } from '../plans/index.js';

/**
 * A user joined the organization (PRO and above, webhooks and SIEM): the new user's id and role. No e-mail
 * address or name: events leave the service for receivers the organization chose, and carry no personal
 * data; a receiver that needs the address reads the user by id (GET /api/dashboard/users).
 */
export function userJoinedEvent(input: { userId: string; role: string }): Record<string, unknown> {
  return { userId: input.userId, role: input.role };
}

/** A user was removed from the organization (PRO and above): the id only, as for user.joined. */
export function userRemovedEvent(userId: string): Record<string, unknown> {
  return { userId };
}

/**
 * A user's role was changed (AUDIT, SIEM only): who, from what to what, and by whom. MEDIUM, like a force-mode
 * switch, because a role decides who may change keys, settings and users; ids and roles only, no e-mail.
 */
export function roleChangedEvent(input: {
  userId: string;
  previousRole: Role;
  role: Role;
  byUserId: string;
}): Record<string, unknown> {
  return {
    action: 'role_changed',
    targetType: 'user',
    targetId: input.userId,
    previousRole: input.previousRole,
    role: input.role,
    actor: { userId: input.byUserId },
    severity: 'MEDIUM',
  };
}

/**
 * The AUTHENTICATION audit events of one user's sign-in and credentials (SIEM only). The user's id, the client
 * address and the user agent are added by the publisher; never the e-mail typed or any password.
 */
export function loginEvent(role: string): UserAuditData {
  return { action: 'login', role, severity: 'LOW' };
}

/** A known user's login refused for a wrong password. */
export function loginFailedEvent(): UserAuditData {
  return { action: 'login_failed', reason: 'wrong_password', severity: 'MEDIUM' };
}

/** A user changed their own password; `otherSessionsEnded`: how many of their other sessions it ended. */
export function passwordChangedEvent(otherSessionsEnded: number): UserAuditData {
  return { action: 'password_changed', otherSessionsEnded, severity: 'MEDIUM' };
}

/**
 * A signed-in user's own password change refused because the current password was wrong: someone at an open
 * session guessing the password (a stolen cookie, an unlocked screen) is what a SIEM wants to see. MEDIUM,
 * like a failed login. Nothing typed is recorded, neither the password tried nor the new one.
 */
export function passwordChangeFailedEvent(): UserAuditData {
  return { action: 'password_change_failed', reason: 'wrong_current_password', severity: 'MEDIUM' };
}

export type UserAuditData = { action: string; severity: 'LOW' | 'MEDIUM' } & Record<string, unknown>;
