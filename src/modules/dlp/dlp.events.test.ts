import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { detectEntities } from '../../engines/dlp/index.js';
import { detectOptionsOf } from './dlp.settings.js';
import { dlpPreview } from './dlp.events.js';

const PHONE = '+41 79 123 45 67';
const IBAN = 'DE89 3704 0044 0532 0130 00';

describe('dlpPreview', () => {
  it('replaces every type, also those the settings leave untokenized (types, ignoreTypes)', () => {
    const text = `Call ${PHONE} or pay ${IBAN}.`;
    for (const settings of [{ types: ['IBAN'] }, { ignoreTypes: ['PHONE'] }]) {
      const found = detectEntities(text, detectOptionsOf(settings));
      assert.ok(!found.some((e) => e.type === 'PHONE'), 'the tokenization does not find the phone');
      const preview = dlpPreview([text], [found], settings);
      assert.equal(preview, 'Call [PHONE] or pay [IBAN].');
    }
  });

  it('reads past the first head when its values leave the preview short (a text of long values)', () => {
    // 15 addresses of 76 characters each shrink to "[EMAIL] " (8): the first kilobyte gives less than 160
    // characters, so the preview reads on into the rest of the head, where the phone is.
    const email = `${'a'.repeat(64)}@example.org`;
    const text = `${`${email} `.repeat(15)}${PHONE} and more`;
    assert.ok(text.indexOf(PHONE) > 1024);
    const settings = { types: ['EMAIL'] };
    const preview = dlpPreview([text], [detectEntities(text, detectOptionsOf(settings))], settings);
    assert.equal(preview, `${'[EMAIL] '.repeat(15)}[PHONE] and more`);
  });
});
