import { useState } from 'preact/hooks';
import { type Result, api } from '../api';
import { canManage } from '../session';
import { Async, ErrorBox, Field, type PageMeta, ReadOnlyNote, lines, useAction, useLoad } from '../ui';

export const meta: PageMeta = { title: 'Detection and DLP', order: 40 };

type Detection = Result<'/api/dashboard/detection/settings', 'get'>;
type Dlp = Result<'/api/dashboard/dlp/settings', 'get'>;

function DetectionForm({ initial, readOnly }: { initial: Detection; readOnly: boolean }) {
  const t = initial.thresholds ?? {};
  const [log, setLog] = useState(String(t.log ?? ''));
  const [warn, setWarn] = useState(String(t.warn ?? ''));
  const [block, setBlock] = useState(String(t.block ?? ''));
  const [phrases, setPhrases] = useState((initial.allowPhrases ?? []).join('\n'));
  const [error, setError] = useState<string>();
  const [saved, setSaved] = useState(false);
  const save = useAction(async (body: Detection) => {
    await api('put', '/api/dashboard/detection/settings', { body });
    setSaved(true);
  });
  const num = (v: string) => (v.trim() === '' ? undefined : Number(v));
  return (
    <form
      class="form"
      noValidate
      aria-label="Detection settings"
      onSubmit={(e) => {
        e.preventDefault();
        setSaved(false);
        const values = { log: num(log), warn: num(warn), block: num(block) };
        const given = Object.values(values).filter((v): v is number => v !== undefined);
        let bad: string | undefined;
        if (given.some((v) => !Number.isInteger(v) || v < 0 || v > 100))
          bad = 'Thresholds are whole numbers from 0 to 100.';
        else if (given.some((v, i) => i > 0 && v < (given[i - 1] ?? 0)))
          bad = 'Thresholds must rise: log ≤ warn ≤ block.';
        setError(bad);
        if (bad) return;
        const thresholds = Object.fromEntries(Object.entries(values).filter(([, v]) => v !== undefined));
        void save.run({ thresholds, allowPhrases: lines(phrases) });
      }}
    >
      <h2>Prompt-injection detection</h2>
      <fieldset disabled={readOnly}>
        <legend>Risk score thresholds (0–100)</legend>
        <div class="grid2">
          <Field label="Log from" error={error}>
            {(a) => (
              <input {...a} inputMode="numeric" value={log} onInput={(e) => setLog(e.currentTarget.value)} />
            )}
          </Field>
          <Field label="Warn from">
            {(a) => (
              <input
                {...a}
                inputMode="numeric"
                value={warn}
                onInput={(e) => setWarn(e.currentTarget.value)}
              />
            )}
          </Field>
          <Field label="Block from">
            {(a) => (
              <input
                {...a}
                inputMode="numeric"
                value={block}
                onInput={(e) => setBlock(e.currentTarget.value)}
              />
            )}
          </Field>
        </div>
        <Field label="Allowed phrases (one per line)" hint="never flagged, e.g. your own prompt templates">
          {(a) => <textarea {...a} value={phrases} onInput={(e) => setPhrases(e.currentTarget.value)} />}
        </Field>
      </fieldset>
      <ErrorBox error={save.error} />
      {saved && (
        <p class="ok" role="status">
          Saved.
        </p>
      )}
      {!readOnly && (
        <button type="submit" disabled={save.busy}>
          Save detection settings
        </button>
      )}
    </form>
  );
}

function DlpForm({ initial, readOnly }: { initial: Dlp; readOnly: boolean }) {
  const [types, setTypes] = useState((initial.types ?? []).join(', '));
  const [blockTypes, setBlockTypes] = useState((initial.blockTypes ?? []).join(', '));
  const [ignoreTypes, setIgnoreTypes] = useState((initial.ignoreTypes ?? []).join(', '));
  const [allowValues, setAllowValues] = useState((initial.allowValues ?? []).join('\n'));
  const [ttl, setTtl] = useState(String(initial.sessionTtlHours ?? ''));
  const [error, setError] = useState<string>();
  const [saved, setSaved] = useState(false);
  const save = useAction(async (body: Dlp) => {
    await api('put', '/api/dashboard/dlp/settings', { body });
    setSaved(true);
  });
  const list = (v: string) =>
    v
      .split(',')
      .map((s) => s.trim())
      .filter(Boolean);
  return (
    <form
      class="form"
      noValidate
      aria-label="DLP settings"
      onSubmit={(e) => {
        e.preventDefault();
        setSaved(false);
        const hours = ttl.trim() === '' ? undefined : Number(ttl);
        const bad =
          hours !== undefined && (!Number.isInteger(hours) || hours < 1)
            ? 'A whole number of hours, at least 1.'
            : undefined;
        setError(bad);
        if (bad) return;
        void save.run({
          ...(types.trim() ? { types: list(types) } : {}),
          blockTypes: list(blockTypes),
          ignoreTypes: list(ignoreTypes),
          allowValues: lines(allowValues),
          ...(hours !== undefined ? { sessionTtlHours: hours } : {}),
          ...(initial.customPatterns ? { customPatterns: initial.customPatterns } : {}),
        });
      }}
    >
      <h2>Personal data (DLP)</h2>
      <fieldset disabled={readOnly}>
        <legend>Tokenization</legend>
        <Field label="Types to tokenize (comma-separated; empty: all)">
          {(a) => <input {...a} value={types} onInput={(e) => setTypes(e.currentTarget.value)} />}
        </Field>
        <Field label="Types that block the request">
          {(a) => <input {...a} value={blockTypes} onInput={(e) => setBlockTypes(e.currentTarget.value)} />}
        </Field>
        <Field label="Types to ignore">
          {(a) => <input {...a} value={ignoreTypes} onInput={(e) => setIgnoreTypes(e.currentTarget.value)} />}
        </Field>
        <Field label="Values never tokenized (one per line)">
          {(a) => (
            <textarea {...a} value={allowValues} onInput={(e) => setAllowValues(e.currentTarget.value)} />
          )}
        </Field>
        <Field label="Vault session lifetime (hours)" error={error}>
          {(a) => (
            <input {...a} inputMode="numeric" value={ttl} onInput={(e) => setTtl(e.currentTarget.value)} />
          )}
        </Field>
        {initial.customPatterns && initial.customPatterns.length > 0 && (
          <p class="muted">{initial.customPatterns.length} custom pattern(s) kept as they are.</p>
        )}
      </fieldset>
      <ErrorBox error={save.error} />
      {saved && (
        <p class="ok" role="status">
          Saved.
        </p>
      )}
      {!readOnly && (
        <button type="submit" disabled={save.busy}>
          Save DLP settings
        </button>
      )}
    </form>
  );
}

export default function Settings() {
  const detection = useLoad(() => api('get', '/api/dashboard/detection/settings'), []);
  const dlp = useLoad(() => api('get', '/api/dashboard/dlp/settings'), []);
  const readOnly = !canManage();
  return (
    <>
      <h1>Detection and DLP settings</h1>
      {readOnly && <ReadOnlyNote />}
      <Async state={detection}>{(d) => <DetectionForm initial={d} readOnly={readOnly} />}</Async>
      <Async state={dlp}>{(d) => <DlpForm initial={d} readOnly={readOnly} />}</Async>
    </>
  );
}
