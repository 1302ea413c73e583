import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { describe, it } from 'node:test';
import { API_TYPES_FILE, generateApiTypes } from '../../scripts/web-api-types.js';

describe('dashboard API types', () => {
  it('web/src/api-schema.ts is what the server OpenAPI document generates (npm run gen:web-types)', async () => {
    const generated = await generateApiTypes();
    assert.ok(generated.includes('"/api/dashboard/overview"'));
    assert.equal(
      readFileSync(API_TYPES_FILE, 'utf8'),
      generated,
      'run npm run gen:web-types and commit the result',
    );
  });
});
