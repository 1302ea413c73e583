import type { DlpBar } from './bar.js';

// Files chosen or dropped on an AI site: their text goes through the DLP and injection checks before the
// site sees the file. The site's own change/drop handler runs after the check, with the same files.

const TEXT_TYPES = /^(text\/|application\/(json|xml|csv|x-ndjson|javascript))/;
const TEXT_NAMES = /\.(txt|md|csv|tsv|json|xml|log|ya?ml|ini|conf|py|js|ts|java|c|cpp|cs|go|rs|sql|html?)$/i;
const MAX_BYTES = 5 * 1024 * 1024;

async function textOf(file: File): Promise<string | null> {
  if (file.size > MAX_BYTES) return null;
  if (TEXT_TYPES.test(file.type) || TEXT_NAMES.test(file.name)) return file.text();
  return null;
}

export function watchFiles(opts: {
  bar: DlpBar;
  host: string;
  onText: (text: string, name: string) => void;
}): void {
  const checked = new WeakSet<Event>();
  const check = async (files: File[]) => {
    for (const f of files) {
      const text = await textOf(f).catch(() => null);
      if (text && text.length > 0) opts.onText(text, f.name);
    }
  };
  document.addEventListener(
    'change',
    (e) => {
      const input = e.target;
      if (checked.has(e) || !(input instanceof HTMLInputElement) || input.type !== 'file' || !input.files)
        return;
      const files = [...input.files];
      if (files.length === 0) return;
      // Hold the site's handler until the text was read, then let the same event through again.
      e.stopImmediatePropagation();
      void check(files).finally(() => {
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
