import type { ExtractResult, ToBackground } from '../shared/messages.js';

// Files chosen or dropped on an AI site: their text goes through the DLP and injection checks before the
// site sees the file. Text files are read here; images (OCR), PDFs and Word, Excel and PowerPoint documents are extracted by the
// extension's extractor document, on the device. The site's own change handler runs after the check, with
// the same files, unless the check refuses them.

const TEXT_TYPES = /^(text\/|application\/(json|xml|csv|x-ndjson|javascript))/;
const TEXT_NAMES = /\.(txt|md|csv|tsv|json|xml|log|ya?ml|ini|conf|py|js|ts|java|c|cpp|cs|go|rs|sql|html?)$/i;
const IMAGE_TYPES = /^image\/(png|jpeg|webp|bmp|gif)$/;
/** Word, Excel and PowerPoint (Office Open XML; the macro-enabled variants are the same format). */
const OFFICE = /\.(docx|xls[xm]|ppt[xm])$/i;
const MAX_BYTES = 10 * 1024 * 1024;

async function base64Of(file: File): Promise<string> {
  const bytes = new Uint8Array(await file.arrayBuffer());
  let bin = '';
  for (let i = 0; i < bytes.length; i += 0x8000) bin += String.fromCharCode(...bytes.subarray(i, i + 0x8000));
  return btoa(bin);
}

/** The file's text, '' when it holds none, or null when its kind is not read. Throws when reading failed. */
export async function textOf(file: File): Promise<{ text: string; method: string } | null> {
  if (file.size > MAX_BYTES) throw new Error('too large to check');
  if (TEXT_TYPES.test(file.type) || TEXT_NAMES.test(file.name))
    return { text: await file.text(), method: 'text' };
  const binary =
    IMAGE_TYPES.test(file.type) ||
    file.type === 'application/pdf' ||
    /\.pdf$/i.test(file.name) ||
    OFFICE.test(file.name);
  if (!binary) return null;
  const msg: ToBackground = {
    kind: 'extract',
    request: {
      name: file.name,
      mime: file.type || 'application/octet-stream',
      base64: await base64Of(file),
      languages: [...navigator.languages],
    },
  };
  const r = (await chrome.runtime.sendMessage(msg)) as ExtractResult | { error: string } | undefined;
  if (!r || 'error' in r) throw new Error(r?.error ?? 'the extractor did not answer');
  return { text: r.text, method: r.method };
}

export function watchFiles(opts: {
  /** may the upload proceed? */
  onText: (text: string, name: string, method: string) => boolean;
  onFailure: (name: string, reason: string) => boolean;
  onChecking: (names: string[]) => void;
}): void {
  const checked = new WeakSet<Event>();
  const check = async (files: File[]): Promise<boolean> => {
    let ok = true;
    for (const f of files) {
      try {
        const r = await textOf(f);
        if (r && r.text.trim().length > 0) ok = opts.onText(r.text, f.name, r.method) && ok;
      } catch (err) {
        ok = opts.onFailure(f.name, err instanceof Error ? err.message : String(err)) && ok;
      }
    }
    return ok;
  };
  document.addEventListener(
    'change',
    (e) => {
      const input = e.target;
      if (checked.has(e) || !(input instanceof HTMLInputElement) || input.type !== 'file' || !input.files)
        return;
      const files = [...input.files];
      if (files.length === 0) return;
      // Hold the site's handler until the text was checked, then let the same event through again.
      e.stopImmediatePropagation();
      opts.onChecking(files.map((f) => f.name));
      void check(files).then((ok) => {
        if (!ok) {
          input.value = '';
          return;
        }
        const again = new Event('change', { bubbles: true });
        checked.add(again);
        input.dispatchEvent(again);
      });
    },
    true,
  );
  document.addEventListener(
    'drop',
    (e) => {
      const files = [...(e.dataTransfer?.files ?? [])];
      if (files.length > 0) void check(files);
    },
    true,
  );
}
