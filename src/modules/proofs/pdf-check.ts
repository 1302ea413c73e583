import { PDFDocument } from 'pdf-lib';
import { AppError } from '../../platform/errors/index.js';

const MAGIC = '%PDF-';
const EOF_WINDOW = 1024;

/**
 * A proof must be a PDF: it starts with `%PDF-`, ends with `%%EOF` (within the last KiB, where writers put
 * it), and pdf-lib parses its cross-reference table and trailer into a document with at least one page.
 * Encrypted PDFs are refused: a proof is meant to be read by the administrators it is uploaded for.
 */
export async function checkPdf(bytes: Uint8Array): Promise<{ pages: number }> {
  const head = Buffer.from(bytes.subarray(0, MAGIC.length)).toString('latin1');
  if (head !== MAGIC)
    throw new AppError('invalid_request', "The part 'file' is not a PDF (it does not start with %PDF-).");
  const tail = Buffer.from(bytes.subarray(Math.max(0, bytes.length - EOF_WINDOW))).toString('latin1');
  if (!tail.includes('%%EOF'))
    throw new AppError('invalid_request', "The part 'file' is not a complete PDF (no %%EOF trailer).");
  let pages: number;
  try {
    const doc = await PDFDocument.load(bytes, { updateMetadata: false, throwOnInvalidObject: true });
    // A trailer without a document catalog loads, and fails here.
    pages = doc.getPageCount();
  } catch (err) {
    const encrypted = (err as Error).name === 'EncryptedPDFError';
    throw new AppError(
      'invalid_request',
      encrypted
        ? "The part 'file' is an encrypted PDF; upload it unencrypted."
        : "The part 'file' is not a readable PDF.",
    );
  }
  if (pages < 1) throw new AppError('invalid_request', "The part 'file' is a PDF without pages.");
  return { pages };
}
