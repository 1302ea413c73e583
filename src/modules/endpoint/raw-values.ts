import { detectEntities } from '../../engines/dlp/index.js';
import { AppError } from '../../platform/errors/index.js';

/**
 * Devices must send redacted previews only. A text that still carries a checksum-valid card number or
 * IBAN is an original value that escaped redaction: the request is refused (and nothing of it stored)
 * rather than keeping personal data the server promised never to hold.
 */
const RAW_TYPES = ['CARD', 'IBAN'];

export function assertNoRawValues(fields: ReadonlyArray<readonly [string, unknown]>): void {
  for (const [name, value] of fields) {
    if (typeof value !== 'string' || value.length < 12) continue;
    const found = detectEntities(value, { types: RAW_TYPES });
    if (found.length > 0) {
      throw new AppError(
        'invalid_request',
        `${name} carries an unredacted ${found[0]?.type === 'IBAN' ? 'IBAN' : 'card number'}; send the redacted preview (tokens such as [CARD_1]) only.`,
      );
    }
  }
}
