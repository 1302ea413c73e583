import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import JSZip from 'jszip';
import { MAX_PART_CHARS, officeText, xmlText } from '../src/extract/ooxml.js';
import { makePptx, makeXlsx } from './fixtures/office.js';

// The Excel and PowerPoint reader of the extractor (extension/src/extract/ooxml.ts), on files written as
// Office writes them; the end-to-end suite reads the same kinds of files in Chromium.

describe('Excel and PowerPoint text', () => {
  it('Excel: shared and inline strings and numbers, row by row, every sheet, entities resolved', async () => {
    const xlsx = await makeXlsx([
      [
        ['Name', 'IBAN', 'Amount'],
        ['Anna Schmidt', 'inline:DE89 3704 0044 0532 0130 00', 1200.5],
      ],
      [['Notes'], ['Call R&D <Zurich> on +41 79 123 45 67']],
    ]);
    const text = await officeText(xlsx, 'xlsx');
    assert.equal(
      text,
      'Name\tIBAN\tAmount\nAnna Schmidt\tDE89 3704 0044 0532 0130 00\t1200.5\n\nNotes\nCall R&D <Zurich> on +41 79 123 45 67',
    );
  });

  it('PowerPoint: slides in their order (2 before 10), paragraphs on lines, then the speaker notes', async () => {
    const slides = Array.from({ length: 10 }, (_, i) => [`Slide ${i + 1}`]);
    slides[1] = ['Quarterly review', 'Contact: anna.schmidt@example.com'];
    const pptx = await makePptx(slides, { 2: 'Say hello to Marco Rossi' });
    const text = await officeText(pptx, 'pptx');
    const parts = text.split('\n\n');
    assert.equal(parts[1], 'Quarterly review\nContact: anna.schmidt@example.com');
    assert.equal(parts[9], 'Slide 10');
    assert.equal(parts[10], 'Say hello to Marco Rossi');
  });

  it('refuses what is not such a file, and a part that inflates past the limit (a zip bomb)', async () => {
    await assert.rejects(officeText(new TextEncoder().encode('just text'), 'xlsx'), /not a zip/);
    await assert.rejects(officeText(await makeXlsx([[['a']]]), 'pptx'), /not a PowerPoint/);
    const bomb = new JSZip();
    bomb.file('ppt/presentation.xml', '<p:presentation/>');
    bomb.file('ppt/slides/slide1.xml', `<a:p><a:t>${'A'.repeat(MAX_PART_CHARS + 1024)}</a:t></a:p>`);
    const bytes = await bomb.generateAsync({ type: 'uint8array', compression: 'DEFLATE' });
    assert.ok(bytes.length < 100_000, 'the archive itself is small');
    await assert.rejects(officeText(bytes, 'pptx'), /too large once uncompressed/);
  });

  it('resolves character references and leaves unknown entities as written', () => {
    assert.equal(xmlText('&lt;a&gt; &amp; &#233;&#x20AC; &nbsp;'), '<a> & é€ &nbsp;');
  });
});
