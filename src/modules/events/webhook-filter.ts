/**
 * Whether a webhook subscribed to `subscribed` receives an event of `type`. Entries are exact types, "*" for
 * every type, or a prefix wildcard such as "dlp.*".
 */
export function webhookWants(subscribed: readonly string[], type: string): boolean {
  for (const s of subscribed) {
    if (s === '*' || s === type) return true;
    if (s.endsWith('.*') && type.startsWith(s.slice(0, -1))) return true;
  }
  return false;
}
