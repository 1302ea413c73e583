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
const COLORS = [
  '#1849a9',
  '#b42318',
  '#1b6e33',
  '#8a4b00',
  '#6b21a8',
  '#0e7490',
  '#4a5562',
  '#be185d',
  '#3f6212',
  '#9a3412',
];
const DAY_MS = 86_400_000;

function range(days: number): { from: string; to: string } {
  const tomorrow = new Date(Date.now() + DAY_MS).toISOString().slice(0, 10);
  const from = new Date(Date.parse(tomorrow) - days * DAY_MS).toISOString().slice(0, 10);
  return { from, to: tomorrow };
}

/** A line per series over the period's days (uPlot draws on a canvas: no inline style for the CSP to refuse). */
function DailyChart(props: {
  days: string[];
  series: { label: string; values: number[] }[];
  unit: string;
  label: string;
}) {
  const box = useRef<HTMLDivElement>(null);
  // The series are new arrays at every render; redraw only when what they hold changed.
  const drawn = JSON.stringify([props.days, props.series]);
  useEffect(() => {
    const el = box.current;
    if (!el) return;
    const xs = props.days.map((d) => Date.parse(`${d}T00:00:00Z`) / 1000);
    const plot = new uPlot(
      {
        width: Math.max(320, el.clientWidth),
        height: 260,
        scales: { x: { time: true } },
        series: [
          {},
          ...props.series.map((s, i) => ({ label: s.label, stroke: COLORS[i % COLORS.length], width: 2 })),
        ],
        axes: [{}, { label: props.unit }],
      },
      [xs, ...props.series.map((s) => s.values)],
      el,
    );
    return () => plot.destroy();
  }, [drawn]);
  return <div ref={box} class="chart" role="img" aria-label={props.label} />;
}

/** One breakdown as a ranked list of bars (progress elements: accessible, and styled by the style sheet). */
function Breakdown(props: { title: string; rows: { value: string; count: number }[]; empty: string }) {
  const max = props.rows.reduce((m, r) => Math.max(m, r.count), 0);
  return (
    <section class="breakdown" aria-label={props.title}>
      <h3>{props.title}</h3>
      {props.rows.length === 0 ? (
        <p class="empty">{props.empty}</p>
      ) : (
        <table>
          <tbody>
            {props.rows.slice(0, 8).map((r) => (
              <tr key={r.value}>
                <th scope="row">{r.value}</th>
                <td>
                  <progress value={r.count} max={max} aria-label={`${r.value}: ${r.count}`} />
                </td>
                <td class="num">{r.count.toLocaleString('en')}</td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
    </section>
  );
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
                    {q.requestsLimit < 0
                      ? 'unlimited plan'
                      : `of ${q.requestsLimit.toLocaleString('en')} (${q.period})`}
                    {q.blocked > 0 ? ` · ${q.blocked} blocked` : ''}
                  </div>
                  {q.requestsLimit > 0 && (
                    <progress
                      value={q.requestsUsed}
                      max={q.requestsLimit}
                      aria-label={`${q.product} quota used`}
                    />
                  )}
                </div>
              ))}
            </div>
            <h2>Requests per day by product</h2>
            {d.requests.length === 0 ? (
              <p class="empty">No requests in this period.</p>
            ) : (
              <>
                <DailyChart
                  days={d.days}
                  series={d.requests.map((r) => ({ label: r.product, values: r.counts }))}
                  unit="requests"
                  label="Requests per day by product"
                />
                <table>
                  <thead>
                    <tr>
                      <th>Product</th>
                      <th>Requests</th>
                      <th>Blocked</th>
                    </tr>
                  </thead>
                  <tbody>
                    {d.requests.map((r) => (
                      <tr key={r.product}>
                        <td>{r.product}</td>
                        <td>{r.total.toLocaleString('en')}</td>
                        <td>{r.blockedTotal.toLocaleString('en')}</td>
                      </tr>
                    ))}
                  </tbody>
                </table>
              </>
            )}
            <h2>Detections and personal data</h2>
            <div class="breakdowns">
              <Breakdown
                title="Detections by severity"
                rows={d.breakdowns.detectionSeverity}
                empty="No detections."
              />
              <Breakdown
                title="Detections by category"
                rows={d.breakdowns.detectionCategory}
                empty="No detections."
              />
              <Breakdown
                title="DLP findings by type"
                rows={d.breakdowns.dlpType}
                empty="No personal data found."
              />
              <Breakdown
                title="DLP events by severity"
                rows={d.breakdowns.dlpSeverity}
                empty="No DLP events."
              />
            </div>
            <h2>Events per day</h2>
            {d.series.length === 0 ? (
              <p class="empty">No events in this period.</p>
            ) : (
              <>
                <DailyChart
                  days={d.days}
                  series={d.series.map((x) => ({ label: x.type, values: x.counts }))}
                  unit="events"
                  label="Events per day by type"
                />
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
