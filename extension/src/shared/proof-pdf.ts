import { PDFDocument, type PDFFont, rgb, StandardFonts } from 'pdf-lib';
import { RISK_WEIGHTS } from '../../../src/engines/risk/index.js';
import type { ProofInput } from './messages.js';

// The spec's proof document, built on the device: A4; header with title, ISO 8601 timestamp and the
// SHA-256 of the evidence; token mapping; the prompt as sent (tokens highlighted, never an original);
// risk score; metadata. The hash covers a canonical JSON of the evidence, so anyone holding the evidence
// can recompute it; the upload's metadata.hash is the SHA-256 of the PDF file itself (the server checks it).

const A4: [number, number] = [595.28, 841.89];
const MARGIN = 50;

export interface ProofMeta {
  timestamp: string;
  extensionVersion: string;
  tier: string;
  deviceId: string;
}

export async function sha256Hex(data: Uint8Array | string): Promise<string> {
  const bytes = typeof data === 'string' ? new TextEncoder().encode(data) : data;
  const digest = await crypto.subtle.digest('SHA-256', bytes as BufferSource);
  return [...new Uint8Array(digest)].map((b) => b.toString(16).padStart(2, '0')).join('');
}

/** Keys sorted at every level: the same evidence always hashes the same. */
export function canonicalJson(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(canonicalJson).join(',')}]`;
  if (value !== null && typeof value === 'object') {
    const o = value as Record<string, unknown>;
    return `{${Object.keys(o)
      .sort()
      .filter((k) => o[k] !== undefined)
      .map((k) => `${JSON.stringify(k)}:${canonicalJson(o[k])}`)
      .join(',')}}`;
  }
  return JSON.stringify(value);
}

// The standard PDF fonts encode WinAnsi only; other characters print as '?' (the hash covers the exact text).
function winAnsi(text: string): string {
  return text.replace(/[^\x20-\x7e\xa0-\xff\u20ac\u2018\u2019\u201c\u201d\u2013\u2014\u2026]/g, (c) =>
    c === '\n' || c === '\t' ? c : '?',
  );
}

export async function buildProof(
  input: ProofInput,
  meta: ProofMeta,
): Promise<{ pdf: Uint8Array; contentHash: string; fileHash: string }> {
  const evidence = {
    timestamp: meta.timestamp,
    platform: input.platform,
    prompt: input.tokenizedPrompt,
    tokens: input.tokens.map((t) => ({ token: t.token, type: t.type, category: t.domain })),
    riskScore: input.riskScore,
    extensionVersion: meta.extensionVersion,
    tier: meta.tier,
    deviceId: meta.deviceId,
    processingMs: input.processingMs,
  };
  const contentHash = await sha256Hex(canonicalJson(evidence));

  const doc = await PDFDocument.create();
  doc.setTitle('Parapet proof of a protected prompt');
  doc.setSubject(`sha256:${contentHash}`);
  doc.setProducer(`Parapet extension ${meta.extensionVersion}`);
  doc.setCreationDate(new Date(meta.timestamp));
  const font = await doc.embedFont(StandardFonts.Helvetica);
  const bold = await doc.embedFont(StandardFonts.HelveticaBold);
  const mono = await doc.embedFont(StandardFonts.Courier);
  let page = doc.addPage(A4);
  let y = A4[1] - MARGIN;
  const newLine = (h: number) => {
    y -= h;
    if (y < MARGIN) {
      page = doc.addPage(A4);
      y = A4[1] - MARGIN;
    }
  };
  const line = (text: string, f: PDFFont = font, size = 10) => {
    page.drawText(winAnsi(text), { x: MARGIN, y, size, font: f });
    newLine(size + 5);
  };

  line('Proof of a protected prompt', bold, 18);
  line(`Timestamp: ${meta.timestamp}`);
  line('SHA-256 of the evidence:', font, 10);
  line(contentHash, mono, 9);
  newLine(8);

  line('Token mapping', bold, 13);
  if (input.tokens.length === 0) line('No token.');
  const seen = new Set<string>();
  for (const t of input.tokens) {
    if (seen.has(t.token)) continue;
    seen.add(t.token);
    line(`${t.token}  ->  ${t.type} (${t.domain})`, mono, 9);
  }
  newLine(8);

  line('Prompt as sent (sensitive items replaced by tokens)', bold, 13);
  const size = 10;
  const width = A4[0] - 2 * MARGIN;
  const tokenSet = new Set(input.tokens.map((t) => t.token));
  for (const paragraph of winAnsi(input.tokenizedPrompt).split('\n')) {
    let x = MARGIN;
    for (const word of paragraph.split(/(\s+)/)) {
      if (word.length === 0) continue;
      const w = font.widthOfTextAtSize(word.replace(/\t/g, ' '), size);
      if (x + w > MARGIN + width && x > MARGIN) {
        newLine(size + 4);
        x = MARGIN;
        if (/^\s+$/.test(word)) continue;
      }
      const bare = word.replace(/[^A-Za-z0-9_]+$/, '').replace(/^[^A-Za-z0-9_]+/, '');
      if (tokenSet.has(bare))
        page.drawRectangle({
          x: x - 1,
          y: y - 2,
          width: w + 2,
          height: size + 3,
          color: rgb(1, 0.9, 0.4),
          opacity: 0.7,
        });
      page.drawText(word.replace(/\t/g, ' '), { x, y, size, font });
      x += w;
    }
    newLine(size + 4);
  }
  newLine(8);

  line('Risk score', bold, 13);
  const types = [...new Set(input.tokens.map((t) => t.type))];
  line(`${input.riskScore} / 100`, bold, 12);
  line(
    `Types: ${types.map((t) => `${t} (${RISK_WEIGHTS[t] ?? 5})`).join(', ') || 'none'}; multiplier x${types.length >= 3 ? '2.0' : types.length === 2 ? '1.5' : '1.0'}, capped at 100.`,
    font,
    9,
  );
  newLine(8);

  line('Metadata', bold, 13);
  line(`LLM platform: ${input.platform}`);
  line(`Extension version: ${meta.extensionVersion}`);
  line(`Tier: ${meta.tier}`);
  line(`Device: ${meta.deviceId}`);
  line(`Processing duration: ${input.processingMs} ms`);

  const pdf = await doc.save({ useObjectStreams: false });
  return { pdf, contentHash, fileHash: await sha256Hex(pdf) };
}
