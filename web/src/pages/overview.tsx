import { useEffect, useRef, useState } from 'preact/hooks';
import uPlot from 'uplot';
import { type Result, api } from '../api';
import { route, setQuery } from '../router';
import { Async, type PageMeta, fmtDate, useLoad } from '../ui';

export const meta: PageMeta = { title: 'Overview', order: 10 };

type Overview = Result<'/api/dashboard/overview', 'get'>;

const PERIODS: Record<string, { label: string; days: number }> = {
  '7': { label: 'Last 7 days', days: 7 },
  '30': { label: 'Last 30 days', days: 30 },
  '90': { label: 'Last 90 days', days: 90 },
  '365': { label: 'Last 365 days', days: 365 },
};
const COLORS = ['#1849a9', '#b42318', '#1b6e33', '#8a4b00', '#6b21a8', '#0e7490', '#4a5562', '#be185d', '#3f6212', '#9a3412'];
const DAY_MS = 86_400_000;

function range(days: number): { from: string; to: string } {
  const tomorrow = new Date(Date.now() + DAY_MS).toISOString().slice(0, 10);
  const from = new Date(Date.parse(tomorrow) - days * DAY_MS).toISOString().slice(0, 10);
  return { from, to: tomorrow };
}

function EventsChart({ data }: { data: Overview }) {
  const box = useRef<HTMLDivElement>(null);
  useEffect(() => {
    const el = box.current;
    if (!el) return;
    const xs = data.days.map((d) => Date.parse(`${d}T00:00:00Z`) / 1000);
    const plot = new uPlot(
      {
        width: Math.max(320, el.clientWidth),
        height: 260,
        scales: { x: { time: true } },
        series: [{}, ...data.series.map((s, i) => ({ label: s.type, stroke: COLORS[i % COLORS.length], width: 2 }))],
        axes: [{}, { label: 'events' }],
      },
      [xs, ...data.series.map((s) => s.counts)],
      el,
    );
    return () => plot.destroy();
  }, [data]);
  return <div ref={box} class="chart" role="img" aria-label="Events per day by type" />;
}

export default function OverviewPage() {
  const period = route.value.searchParams.get('days') ?? '30';
  const days = PERIODS[period]?.days ?? 30;
  const { from, to } = range(days);
  const overview = useLoad(() => api('get', '/api/dashboard/overview', { query: { from, to } }), [from, to]);
  const usage = useLoad(() => api('get', '/api/v1/gateway/usage', { query: { from, to } }), [from, to]);
  const [periodId] = useState('period');
  return (
    <>
      <h1>Overview</h1>
      <div class="row">
        <label for={periodId}>Period</label>
        <select id={periodId} value={period} onChange={(e) => setQuery({ days: e.currentTarget.value })}>
          {Object.entries(PERIODS).map(([k, p]) => (
            <option key={k} value={k}>
              {p.label}
            </option>
          ))}
        </select>
      </div>
      <Async state={overview}>
        {(d) => (
          <>
            <h2>Quota of the current period</h2>
            <div class="cards">
              {d.quota.map((q) => (
                <div class="card" key={q.product}>
                  <div>{q.product}</div>
                  <div class="big">{q.requestsUsed.toLocaleString('en')}</div>
                  <div class="muted">
                    {q.requestsLimit < 0 ? 'unlimited plan' : `of ${q.requestsLimit.toLocaleString('en')} (${q.period})`}
                    {q.blocked > 0 ? ` · ${q.blocked} blocked` : ''}
                  </div>
                  {q.requestsLimit > 0 && (
                    <progress value={q.requestsUsed} max={q.requestsLimit} aria-label={`${q.product} quota used`} />
                  )}
                </div>
              ))}
            </div>
            <h2>Events per day</h2>
            {d.series.length === 0 ? (
              <p class="empty">No events in this period.</p>
            ) : (
              <>
                <EventsChart data={d} />
                <table>
                  <thead>
                    <tr>
                      <th>Event type</th>
                      <th>Total in the period</th>
                    </tr>
                  </thead>
                  <tbody>
                    {d.series.map((s) => (
                      <tr key={s.type}>
                        <td>{s.type}</td>
                        <td>{s.total.toLocaleString('en')}</td>
                      </tr>
                    ))}
                  </tbody>
                </table>
              </>
            )}
            <h2>Recent high-severity events</h2>
            {d.recent.length === 0 ? (
              <p class="empty">No high-severity detection or DLP block yet.</p>
            ) : (
              <table>
                <thead>
                  <tr>
                    <th>When</th>
                    <th>Type</th>
                    <th>Summary</th>
                  </tr>
                </thead>
                <tbody>
                  {d.recent.map((e) => (
                    <tr key={e.id}>
                      <td>{fmtDate(e.created)}</td>
                      <td>{e.type}</td>
                      <td>{e.summary}</td>
                    </tr>
                  ))}
                </tbody>
              </table>
            )}
          </>
        )}
      </Async>
      <h2>Provider use of the protected chat and proxy</h2>
      <Async state={usage} isEmpty={(u) => u.requests === 0} empty="No provider calls in this period.">
        {(u) => (
          <table>
            <thead>
              <tr>
                <th>Model</th>
                <th>Calls</th>
                <th>Prompt tokens</th>
                <th>Completion tokens</th>
                <th>Cost (USD)</th>
              </tr>
            </thead>
            <tbody>
              {u.byModel.map((m) => (
                <tr key={`${m.provider}/${m.model}`}>
                  <td>{m.model.startsWith(`${m.provider}/`) ? m.model : `${m.provider}/${m.model}`}</td>
                  <td>{m.requests}</td>
                  <td>{m.promptTokens}</td>
                  <td>{m.completionTokens}</td>
                  <td>{m.cost.toFixed(4)}</td>
                </tr>
              ))}
            </tbody>
          </table>
        )}
      </Async>
    </>
  );
}
