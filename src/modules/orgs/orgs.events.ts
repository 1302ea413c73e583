import type { Role } from '../plans/index.js';

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
