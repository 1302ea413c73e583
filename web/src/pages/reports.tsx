import { useEffect, useState } from 'preact/hooks';
import { type Result, api } from '../api';
import { session } from '../session';
import { Async, ErrorBox, Field, type PageMeta, fmtDate, useAction, useLoad } from '../ui';

export const meta: PageMeta = { title: 'Reports', order: 90 };

type Report = Result<'/api/v1/report', 'get'>['reports'][number];
type Period = '24h' | '7d' | '30d' | '90d' | '365d';
const PERIODS: Record<Period, string> = {
  '24h': 'Last 24 hours',
  '7d': 'Last 7 days',
  '30d': 'Last 30 days',
  '90d': 'Last 90 days',
  '365d': 'Last 365 days',
};
const FORMATS = ['pdf', 'csv', 'json'] as const;
const POLL_MS = 1500;

function CreateReport(props: { onCreated(): void }) {
  const [mode, setMode] = useState<'period' | 'range'>('period');
  const [period, setPeriod] = useState<Period>('30d');
  const [from, setFrom] = useState('');
  const [to, setTo] = useState('');
  const [errors, setErrors] = useState<{ from?: string; to?: string }>({});
  const create = useAction(async () => {
    await api('post', '/api/v1/report', {
      body:
        mode === 'period'
          ? { period }
          : {
              from: new Date(`${from}T00:00:00Z`).toISOString(),
              to: new Date(`${to}T00:00:00Z`).toISOString(),
            },
    });
    props.onCreated();
  });
  const submit = (e: Event) => {
    e.preventDefault();
    const found: typeof errors = {};
    if (mode === 'range') {
      if (!from) found.from = 'Choose the first day.';
      if (!to) found.to = 'Choose the day after the last one.';
      else if (from && to <= from) found.to = 'The end must come after the start.';
    }
    setErrors(found);
    if (Object.keys(found).length === 0) void create.run();
  };
  return (
    <form class="form" onSubmit={submit} noValidate aria-label="Generate a report">
      <h2>Generate a report</h2>
      <p class="muted">
        Detections by category and severity, personal data by type, blocked requests, top users and keys,
        quota use and claim checks. Long periods are built in the background.
      </p>
      <div class="grid2">
        <Field label="Period">
          {(a) => (
            <select
              {...a}
              value={mode === 'range' ? 'range' : period}
              onChange={(e) => {
                const v = e.currentTarget.value;
                if (v === 'range') setMode('range');
                else {
                  setMode('period');
                  setPeriod(v as Period);
                }
              }}
            >
              {Object.entries(PERIODS).map(([k, label]) => (
                <option key={k} value={k}>
                  {label}
                </option>
              ))}
              <option value="range">Dates…</option>
            </select>
          )}
        </Field>
        {mode === 'range' && (
          <>
            <Field label="From (UTC day)" error={errors.from}>
              {(a) => (
                <input {...a} type="date" value={from} onInput={(e) => setFrom(e.currentTarget.value)} />
              )}
            </Field>
            <Field label="To (UTC day, exclusive)" error={errors.to}>
              {(a) => <input {...a} type="date" value={to} onInput={(e) => setTo(e.currentTarget.value)} />}
            </Field>
          </>
        )}
      </div>
      <ErrorBox error={create.error} />
      <button type="submit" disabled={create.busy}>
        Generate
      </button>
    </form>
  );
}

function ReportRow({ r }: { r: Report }) {
  return (
    <tr>
      <td>
        {fmtDate(r.period.from)} – {fmtDate(r.period.to)}
      </td>
      <td>
        {r.status === 'running' ? (
          <>
            <progress value={r.progress} max={100} aria-label={`Report ${r.id} progress`} /> {r.progress} %
          </>
        ) : (
          <span class={`badge ${r.status === 'ready' ? 'active' : 'revoked'}`}>{r.status}</span>
        )}
        {r.error && <div class="field-error">{r.error}</div>}
      </td>
      <td>{fmtDate(r.createdAt)}</td>
      <td class="actions">
        {r.status === 'ready' &&
          FORMATS.map((f) => (
            <a key={f} class="button secondary" href={`${r.links.download}?format=${f}`} download>
              {f.toUpperCase()}
              <span class="visually-hidden"> of report {r.id}</span>
            </a>
          ))}
      </td>
    </tr>
  );
}

export default function Reports() {
  const [cursor, setCursor] = useState<string | undefined>(undefined);
  const list = useLoad(
    () => api('get', '/api/v1/report', { query: { perPage: 20, ...(cursor ? { cursor } : {}) } }),
    [cursor],
  );
  const running = list.data?.reports.some((r) => r.status === 'running') ?? false;
  // A report still being built is polled until it is ready, so its progress and links appear by themselves.
  useEffect(() => {
    if (!running) return;
    const t = setTimeout(list.reload, POLL_MS);
    return () => clearTimeout(t);
  }, [running, list.data]);
  return (
    <>
      <h1>Reports</h1>
      {session.value?.user.role === 'viewer' ? (
        <p class="note">A viewer reads the reports; an owner, admin or member generates them.</p>
      ) : (
        <CreateReport onCreated={() => (cursor ? setCursor(undefined) : list.reload())} />
      )}
      <h2>Reports</h2>
      <Async state={list} isEmpty={(d) => d.reports.length === 0 && !cursor} empty="No report yet.">
        {(d) => (
          <>
            <table>
              <thead>
                <tr>
                  <th>Period</th>
                  <th>Status</th>
                  <th>Requested</th>
                  <th>Download</th>
                </tr>
              </thead>
              <tbody>
                {d.reports.map((r) => (
                  <ReportRow key={r.id} r={r} />
                ))}
              </tbody>
            </table>
            <nav class="pager" aria-label="Pages">
              <button type="button" disabled={!cursor} onClick={() => setCursor(undefined)}>
                Newest
              </button>
              <button
                type="button"
                disabled={!d.nextCursor}
                onClick={() => d.nextCursor && setCursor(d.nextCursor)}
              >
                Older
              </button>
            </nav>
          </>
        )}
      </Async>
    </>
  );
}
