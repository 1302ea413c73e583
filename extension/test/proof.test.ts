import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { getDocument } from 'pdfjs-dist/legacy/build/pdf.mjs';
import { buildProof, canonicalJson } from '../src/shared/proof-pdf.js';

describe('proof document', () => {
  const input = {
    platform: 'ChatGPT',
    tokenizedPrompt: 'Write to TKN_NAME_0a1b2c3g about TKN_IBAN_9f8e7d6h, thanks.',
    tokens: [
      { token: 'TKN_NAME_0a1b2c3g', type: 'NAME', domain: 'PERSONAL' },
      { token: 'TKN_IBAN_9f8e7d6h', type: 'IBAN', domain: 'FINANCIAL' },
    ],
    riskScore: 53,
    processingMs: 4,
  };
  const meta = {
    timestamp: '2026-11-26T10:00:00.000Z',
    extensionVersion: '0.1.0',
    tier: 'business',
    deviceId: 'dev_1',
  };

  it('is an A4 PDF whose file hash and printed evidence hash both verify', async () => {
    const { pdf, contentHash, fileHash } = await buildProof(input, meta);
    assert.equal(Buffer.from(pdf.subarray(0, 5)).toString(), '%PDF-');
    assert.equal(fileHash, createHash('sha256').update(pdf).digest('hex'));
    const evidence = {
      timestamp: meta.timestamp,
      platform: 'ChatGPT',
      prompt: input.tokenizedPrompt,
      tokens: [
        { token: 'TKN_NAME_0a1b2c3g', type: 'NAME', category: 'PERSONAL' },
        { token: 'TKN_IBAN_9f8e7d6h', type: 'IBAN', category: 'FINANCIAL' },
      ],
      riskScore: 53,
      extensionVersion: '0.1.0',
      tier: 'business',
      deviceId: 'dev_1',
      processingMs: 4,
    };
    assert.equal(contentHash, createHash('sha256').update(canonicalJson(evidence)).digest('hex'));
    const doc = await getDocument({
      data: new Uint8Array(pdf),
      isEvalSupported: false,
      standardFontDataUrl: `${join(import.meta.dirname, '..', '..', 'node_modules', 'pdfjs-dist', 'standard_fonts')}/`,
    }).promise;
    const page = await doc.getPage(1);
    assert.deepEqual(
      page.view.map((v) => Math.round(v)),
      [0, 0, 595, 842],
    );
    const text = (await page.getTextContent()).items.map((i) => ('str' in i ? i.str : '')).join(' ');
    for (const s of [
      meta.timestamp,
      contentHash,
      'TKN_IBAN_9f8e7d6h',
      'FINANCIAL',
      '53 / 100',
      'dev_1',
      'ChatGPT',
    ])
      assert.ok(text.includes(s), `${s} missing from the PDF`);
    await doc.destroy();
  });
});
