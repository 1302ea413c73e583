import { targetUrlProblem } from '../../platform/net/index.js';

/**
 * Null when `raw` may be a webhook URL, else the reason naming the field: the outbound policy shared by
 * every user-supplied target (https; plain http only to loopback when private targets are allowed). What
 * a name resolves to is checked again at connect time by the outbound client.
 */
export function webhookUrlProblem(raw: string, allowPrivate: boolean): string | null {
  return targetUrlProblem(raw, { kind: 'webhook', field: 'url', allowPrivate });
}
