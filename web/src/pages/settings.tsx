import { useState } from 'preact/hooks';
import { type Result, api } from '../api';
import { canManage } from '../session';
import { Async, Empty, ErrorBox, Field, type PageMeta, ReadOnlyNote, lines, useAction, useLoad } from '../ui';

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

function DlpForm({
  initial,
  patterns,
  readOnly,
  onSaved,
}: {
  initial: Dlp;
  patterns: Dlp['customPatterns'];
  readOnly: boolean;
  onSaved(saved: Dlp): void;
}) {
  const [types, setTypes] = useState((initial.types ?? []).join(', '));
  const [blockTypes, setBlockTypes] = useState((initial.blockTypes ?? []).join(', '));
  const [ignoreTypes, setIgnoreTypes] = useState((initial.ignoreTypes ?? []).join(', '));
  const [allowValues, setAllowValues] = useState((initial.allowValues ?? []).join('\n'));
  const [ttl, setTtl] = useState(String(initial.sessionTtlHours ?? ''));
  const [error, setError] = useState<string>();
  const [saved, setSaved] = useState(false);
  const save = useAction(async (body: Dlp) => {
    onSaved(await api('put', '/api/dashboard/dlp/settings', { body }));
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
          // the patterns as last saved (the editor below may have changed them since the page loaded)
          ...(patterns ? { customPatterns: patterns } : {}),
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

type CustomPattern = NonNullable<Dlp['customPatterns']>[number];
const DOMAINS = ['PERSONAL', 'FINANCIAL', 'IDENTITY', 'CREDENTIALS', 'CORPORATE', 'HEALTH'] as const;
// The API's own limits (src/modules/dlp/dlp.schemas.ts): checked here so a typo is named before it posts.
const PATTERN_NAME = /^[A-Za-z][A-Za-z0-9_]*$/;
const MAX_PATTERNS = 50;

/**
 * The organization's custom DLP patterns. Each change replaces the whole DLP settings with the saved ones
 * plus or minus one pattern. Whether a regular expression is safe (RE2 semantics: no lookaround, no
 * backreference, not matching the empty string, a bounded automaton) is decided by the server, which
 * compiles it with re2js and names the construct it refuses; that message is shown as it comes.
 */
function CustomPatterns({
  saved,
  readOnly,
  onSaved,
}: {
  saved: Dlp;
  readOnly: boolean;
  onSaved(saved: Dlp): void;
}) {
  const patterns = saved.customPatterns ?? [];
  const [name, setName] = useState('');
  const [domain, setDomain] = useState<string>('CORPORATE');
  const [regex, setRegex] = useState('');
  const [flags, setFlags] = useState('');
  const [errors, setErrors] = useState<Record<string, string>>({});
  const [done, setDone] = useState<string>();
  const put = useAction(async (next: CustomPattern[], message: string) => {
    setDone(undefined);
    onSaved(await api('put', '/api/dashboard/dlp/settings', { body: { ...saved, customPatterns: next } }));
    setDone(message);
    return true;
  });
  const validate = () => {
    const found: Record<string, string> = {};
    const n = name.trim();
    if (!n) found['name'] = 'Name the pattern.';
    else if (n.length > 64 || !PATTERN_NAME.test(n))
      found['name'] = 'Letters, digits and _, starting with a letter (at most 64).';
    else if (patterns.some((p) => p.name.toUpperCase() === n.toUpperCase()))
      found['name'] = `A pattern named ${n} exists already.`;
    if (!regex) found['regex'] = 'Enter a regular expression.';
    else if (regex.length > 500) found['regex'] = 'At most 500 characters.';
    if (!/^[imsu]*$/.test(flags) || flags.length > 4) found['flags'] = 'Only i, m, s and u.';
    if (patterns.length >= MAX_PATTERNS) found['name'] = `At most ${MAX_PATTERNS} patterns.`;
    return found;
  };
  return (
    <section class="form" aria-labelledby="custom-patterns">
      <h2 id="custom-patterns">Custom DLP patterns</h2>
      <p class="muted">
        Your own data types (contract numbers, internal ids…), matched with RE2 syntax in linear time. A
        pattern the engine cannot run safely is refused with the reason.
      </p>
      {patterns.length === 0 ? (
        <Empty>No custom pattern yet.</Empty>
      ) : (
        <table>
          <thead>
            <tr>
              <th>Name</th>
              <th>Domain</th>
              <th>Regular expression</th>
              <th>Flags</th>
              {!readOnly && <th>Actions</th>}
            </tr>
          </thead>
          <tbody>
            {patterns.map((p) => (
              <tr key={p.name}>
                <td>{p.name}</td>
                <td>{p.domain}</td>
                <td>
                  <code>{p.regex}</code>
                </td>
                <td>{p.flags ?? ''}</td>
                {!readOnly && (
                  <td>
                    <button
                      type="button"
                      class="danger"
                      disabled={put.busy}
                      onClick={() =>
                        confirm(`Remove the pattern ${p.name}?`) &&
                        void put.run(
                          patterns.filter((x) => x.name !== p.name),
                          `Pattern ${p.name} removed.`,
                        )
                      }
                    >
                      Remove<span class="visually-hidden"> pattern {p.name}</span>
                    </button>
                  </td>
                )}
              </tr>
            ))}
          </tbody>
        </table>
      )}
      {!readOnly && (
        <form
          noValidate
          aria-label="Add a custom pattern"
          onSubmit={async (e) => {
            e.preventDefault();
            const found = validate();
            setErrors(found);
            if (Object.keys(found).length > 0) return;
            const p: CustomPattern = {
              name: name.trim(),
              domain,
              regex,
              ...(flags ? { flags } : {}),
            };
            if (await put.run([...patterns, p], `Pattern ${p.name} saved.`)) {
              setName('');
              setRegex('');
              setFlags('');
            }
          }}
        >
          <h3>Add a pattern</h3>
          <div class="grid2">
            <Field label="Pattern name" error={errors['name']} hint="becomes the type, e.g. CONTRACT_NO">
              {(a) => <input {...a} value={name} onInput={(e) => setName(e.currentTarget.value)} />}
            </Field>
            <Field label="Data domain">
              {(a) => (
                <select {...a} value={domain} onChange={(e) => setDomain(e.currentTarget.value)}>
                  {DOMAINS.map((d) => (
                    <option key={d} value={d}>
                      {d}
                    </option>
                  ))}
                </select>
              )}
            </Field>
            <Field label="Regular expression" error={errors['regex']} hint="RE2 syntax, e.g. CT-\d{6}">
              {(a) => (
                <input
                  {...a}
                  spellcheck={false}
                  autocomplete="off"
                  value={regex}
                  onInput={(e) => setRegex(e.currentTarget.value)}
                />
              )}
            </Field>
            <Field label="Flags (optional)" error={errors['flags']} hint="i, m, s, u">
              {(a) => <input {...a} value={flags} onInput={(e) => setFlags(e.currentTarget.value)} />}
            </Field>
          </div>
          <button type="submit" disabled={put.busy}>
            Add pattern
          </button>
        </form>
      )}
      <ErrorBox error={put.error} />
      {done && (
        <p class="ok" role="status">
          {done}
        </p>
      )}
    </section>
  );
}

/** DLP settings and custom patterns share the saved settings: each form posts on top of what is stored. */
function DlpSection({ initial, readOnly }: { initial: Dlp; readOnly: boolean }) {
  const [saved, setSaved] = useState(initial);
  return (
    <>
      <DlpForm initial={initial} patterns={saved.customPatterns} readOnly={readOnly} onSaved={setSaved} />
      <CustomPatterns saved={saved} readOnly={readOnly} onSaved={setSaved} />
    </>
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
      <Async state={dlp}>{(d) => <DlpSection initial={d} readOnly={readOnly} />}</Async>
    </>
  );
}
