// Languages the OCR reads. Tesseract's trained data for English, French, German and Italian ships inside
// the extension (npm @tesseract.js-data/eng, fra, deu, ita); the user's browser languages choose which are
// loaded besides English, so an English-only user does not pay for four models on every image.

/** Tesseract's name of each shipped language, by the browser's language code. */
export const OCR_LANGUAGES: Readonly<Record<string, string>> = { en: 'eng', fr: 'fra', de: 'deu', it: 'ita' };

/** Tesseract's language string for the browser's languages: the shipped ones among them, then English. */
export function ocrLanguages(preferred: readonly string[] = []): string {
  const out: string[] = [];
  for (const l of preferred) {
    const t = OCR_LANGUAGES[l.toLowerCase().split('-')[0] ?? ''];
    if (t && t !== 'eng' && !out.includes(t)) out.push(t);
  }
  return [...out, 'eng'].join('+');
}
