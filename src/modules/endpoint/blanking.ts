import type { Compute } from '../../platform/compute/index.js';
import { blankPersonalData, dlpSettingsOf } from '../dlp/index.js';
import type { LogEntry } from './endpoint.schemas.js';

/**
 * Devices send redacted previews and logs, but a value can still slip through (an e-mail address the
 * page's policy did not tokenize, a number typed into a log detail). Whatever the device sent, the free
 * text of alerts and logs is stored and published with personal data replaced by its type (`[EMAIL]`,
 * `[AVS]`, `[PHONE]`, `[CARD]`, `[IBAN]`, …; the DLP module's event redaction, every type plus the
 * organization's own patterns), so no webhook, SIEM or database reader ever receives the value. The alert
 * or log itself is kept: refusing it made the extension drop it, and the security team lost the event.
 */
export async function blankPreview(
  compute: Compute,
  settings: Record<string, unknown>,
  preview: string,
): Promise<string> {
  const [out] = await blankPersonalData(compute, [preview], dlpSettingsOf(settings));
  return out ?? '';
}

type Detail = NonNullable<LogEntry['detail']>;

/**
 * The details of a batch with personal data blanked in field names and values, in one detection pass. A
 * number is looked at as its digits (a card number sent as a number is still one) and becomes the blanked
 * text when it held something; booleans carry nothing.
 */
export async function blankDetails(
  compute: Compute,
  settings: Record<string, unknown>,
  details: ReadonlyArray<Detail | undefined>,
): Promise<Array<Detail | undefined>> {
  const texts: string[] = [];
  for (const d of details) {
    for (const [k, v] of Object.entries(d ?? {})) texts.push(k, typeof v === 'boolean' ? '' : String(v));
  }
  const out = await blankPersonalData(compute, texts, dlpSettingsOf(settings));
  let i = 0;
  return details.map((d) => {
    if (!d) return d;
    const next: Detail = {};
    for (const [k, v] of Object.entries(d)) {
      const name = out[i++] ?? k;
      const text = out[i++] ?? '';
      next[freeName(next, name)] = typeof v === 'boolean' || text === String(v) ? v : text;
    }
    return next;
  });
}

// Two names blanked to the same text ("a@x.ch" and "b@y.ch" both "[EMAIL]") keep both values.
function freeName(taken: Detail, name: string): string {
  if (!Object.hasOwn(taken, name)) return name;
  let n = 2;
  while (Object.hasOwn(taken, `${name}_${n}`)) n++;
  return `${name}_${n}`;
}
