import { AUDIT_EVENT_TYPES, EVENT_TYPES } from '../events/index.js';
import { SIEM_CATEGORIES } from './formats/types.js';

/** Every event type a SIEM can receive: the webhook types, the audit types and the connection test's. */
const KNOWN_TYPES: ReadonlySet<string> = new Set([
  ...Object.keys(EVENT_TYPES),
  ...AUDIT_EVENT_TYPES,
  'audit.siem_test',
]);
/** `dlp.*`, `audit.*`, …: the part before the first dot of a known type. */
const KNOWN_PREFIXES: ReadonlySet<string> = new Set([...KNOWN_TYPES].map((t) => t.slice(0, t.indexOf('.'))));
const CATEGORIES: ReadonlySet<string> = new Set(SIEM_CATEGORIES);

function isKnownEntry(entry: string): boolean {
  const e = entry.trim();
  if (CATEGORIES.has(e.toUpperCase())) return true;
  const lower = e.toLowerCase();
  if (lower.endsWith('.*')) return KNOWN_PREFIXES.has(lower.slice(0, -2));
  return KNOWN_TYPES.has(lower);
}

/**
 * Why an integration's `eventTypes` would forward something other than meant, or null. An entry the filter
 * never matches (a misspelt type, `dlp.blockd`) would silently forward nothing of it, so it is refused
 * with its name.
 */
export function eventTypesProblem(entries: readonly string[] | undefined): string | null {
  if (entries === undefined) return null;
  const unknown = entries.filter((e) => !isKnownEntry(e));
  if (unknown.length === 0) return null;
  return `eventTypes: unknown ${unknown.map((e) => JSON.stringify(e)).join(', ')}; an entry is a category (${[...CATEGORIES].join(', ')}), an event type (dlp.blocked, audit.login, …) or a prefix of one (dlp.*, audit.*)`;
}
