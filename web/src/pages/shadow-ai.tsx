import { useState } from 'preact/hooks';
import { type Result, api } from '../api';
import { route, setQuery } from '../router';
import { canManage } from '../session';
import {
  Async,
  ErrorBox,
  FilterSelect,
  type PageMeta,
  QueryPager,
  PeriodSelect,
  ReadOnlyNote,
  fmtDate,
  useAction,
  useLoad,
} from '../ui';

export const meta: PageMeta = { title: 'Shadow-AI radar', order: 84 };

type Service = Result<'/api/dashboard/shadow-ai/services', 'get'>['services'][number];
type Entry = Result<'/api/dashboard/shadow-ai/catalog', 'get'>['entries'][number];
type Stats = Result<'/api/dashboard/shadow-ai/stats', 'get'>;
const STATUSES = ['discovered', 'monitored', 'approved', 'blocked'] as const;
const TARGETS = ['approved', 'monitored', 'blocked'] as const;
const RISKS = ['high', 'medium', 'low', 'unknown'] as const;
const DAYS = { '7': 'Last 7 days', '30': 'Last 30 days', '90': 'Last 90 days' };
const CATALOG_STATUSES = ['approved', 'review', 'blocked'] as const;

/**
 * Who used a service: users, and apart from them devices bound to no user (the radar cannot tell who is at
 * those, so they are not users: "by 1 users" used to stand for one unbound device).
 */
function byWhom(x: { users: number; unboundDevices: number }): string {
  const n = (count: number, one: string, many: string) => `${count} ${count === 1 ? one : many}`;
  const users = n(x.users, 'user', 'users');
  return x.unboundDevices > 0
    ? `${users} · ${n(x.unboundDevices, 'device', 'devices')} without a user`
    : users;
}

function Usage({ s }: { s: Stats }) {
  const max = s.byService.reduce((m, x) => Math.max(m, x.usage), 0);
  return (
    <>
      <div class="cards">
        <div class="card">
          <div>AI services in use</div>
          <div class="big">{s.totals.services}</div>
        </div>
        <div class="card">
          <div>Interactions</div>
          <div class="big">{s.totals.usage.toLocaleString('en')}</div>
          <div class="muted">by {byWhom(s.totals)}</div>
        </div>
        <div class="card">
          <div>New discoveries</div>
          <div class="big">{s.totals.newDiscoveries}</div>
          <div class="muted">
            {s.from} – {s.to}
          </div>
        </div>
      </div>
      <div class="breakdowns">
        <section class="breakdown" aria-label="Use per service">
          <h3>Use per service</h3>
          {s.byService.length === 0 ? (
            <p class="empty">No use reported in this period.</p>
          ) : (
            <table>
              <tbody>
                {s.byService.slice(0, 10).map((x) => (
                  <tr key={x.serviceId}>
                    <th scope="row">{x.domain}</th>
                    <td>
                      <progress value={x.usage} max={max} aria-label={`${x.domain}: ${x.usage}`} />
                    </td>
                    <td class="num">{x.usage.toLocaleString('en')}</td>
                  </tr>
                ))}
              </tbody>
            </table>
          )}
        </section>
        <section class="breakdown" aria-label="New discoveries">
          <h3>New discoveries</h3>
          {s.newDiscoveries.length === 0 ? (
            <p class="empty">Nothing new in this period.</p>
          ) : (
            <ul>
              {s.newDiscoveries.slice(0, 10).map((d) => (
                <li key={d.id}>
                  <strong>{d.domain}</strong>{' '}
                  <span class="muted">
                    {fmtDate(d.firstSeen)} · {d.heuristicSignals.join(', ')}
                  </span>
                </li>
              ))}
            </ul>
          )}
        </section>
      </div>
    </>
  );
}

function Services(props: { manage: boolean }) {
  const q = route.value.searchParams;
  const status = q.get('status') ?? '';
  const risk = q.get('risk') ?? '';
  const search = q.get('q') ?? '';
  const page = Math.max(1, Number(q.get('page') ?? '1') || 1);
  const [typed, setTyped] = useState(search);
  const list = useLoad(
    () =>
      api('get', '/api/dashboard/shadow-ai/services', {
        query: {
          page,
          perPage: 20,
          ...(status ? { status: status as (typeof STATUSES)[number] } : {}),
          ...(risk ? { risk: risk as (typeof RISKS)[number] } : {}),
          ...(search ? { search } : {}),
        },
      }),
    [status, risk, search, page],
  );
  const change = useAction(async (s: Service, to: (typeof TARGETS)[number]) => {
    await api('patch', '/api/dashboard/shadow-ai/services/{id}', {
      path: { id: s.id },
      body: { status: to },
    });
    list.reload();
  });
  return (
    <>
      <form
        class="row"
        aria-label="Filter services"
        onSubmit={(e) => {
          e.preventDefault();
          setQuery({ q: typed.trim(), page: undefined });
        }}
      >
        <FilterSelect id="svc-status" label="Status" param="status" value={status} options={STATUSES} />
        <FilterSelect id="svc-risk" label="Risk" param="risk" value={risk} options={RISKS} />
        <label for="svc-search">Search</label>
        <input
          id="svc-search"
          value={typed}
          maxLength={100}
          onInput={(e) => setTyped(e.currentTarget.value)}
        />
        <button type="submit" class="secondary">
          Filter
        </button>
      </form>
      <ErrorBox error={change.error} />
      <Async state={list}>
        {(d) => (
          <>
            <p class="muted">
              {d.stats.totalServices} services: {d.stats.approved} approved, {d.stats.blocked} blocked,{' '}
              {d.stats.monitored} monitored, {d.stats.discovered} discovered
              {d.stats.hiddenByPlan > 0 &&
                ` · ${d.stats.hiddenByPlan} more hidden by the plan's limit of ${d.stats.planLimit}`}
            </p>
            {d.services.length === 0 ? (
              <p class="empty">
                No AI service reported by the extension yet
                {status || risk || search ? ' with these filters' : ''}.
              </p>
            ) : (
              <table>
                <thead>
                  <tr>
                    <th>Service</th>
                    <th>Status</th>
                    <th>Risk</th>
                    <th>Use</th>
                    <th>Last seen</th>
                    <th>Detected by</th>
                    {props.manage && <th>Decision</th>}
                  </tr>
                </thead>
                <tbody>
                  {d.services.map((s) => (
                    <tr key={s.id}>
                      <td>
                        {s.name}
                        <div class="muted">{s.domain}</div>
                      </td>
                      <td>
                        <span class={`badge ${s.status}`}>{s.status}</span>
                      </td>
                      <td>{s.riskLevel}</td>
                      <td class="num">
                        {s.usageCount} · {byWhom({ users: s.uniqueUsers, unboundDevices: s.unboundDevices })}
                      </td>
                      <td>{fmtDate(s.lastSeen)}</td>
                      <td>
                        {s.detectedBy}
                        {s.heuristicSignals.length > 0 && (
                          <div class="muted">{s.heuristicSignals.join(', ')}</div>
                        )}
                      </td>
                      {props.manage && (
                        <td class="actions">
                          {TARGETS.filter((t) => t !== s.status).map((t) => (
                            <button
                              key={t}
                              type="button"
                              class={t === 'blocked' ? 'danger' : 'secondary'}
                              onClick={() => void change.run(s, t)}
                            >
                              {t === 'approved' ? 'Approve' : t === 'blocked' ? 'Block' : 'Monitor'}
                              <span class="visually-hidden"> {s.domain}</span>
                            </button>
                          ))}
                        </td>
                      )}
                    </tr>
                  ))}
                </tbody>
              </table>
            )}
            <QueryPager pagination={d.pagination} />
          </>
        )}
      </Async>
    </>
  );
}

function Catalog(props: { manage: boolean }) {
  const [search, setSearch] = useState('');
  const catalog = useLoad(
    () => api('get', '/api/dashboard/shadow-ai/catalog', { query: search ? { search } : {} }),
    [search],
  );
  const [typed, setTyped] = useState('');
  const change = useAction(async (e: Entry, status: (typeof CATALOG_STATUSES)[number]) => {
    await api('patch', '/api/dashboard/shadow-ai/catalog/{id}', { path: { id: e.id }, body: { status } });
    catalog.reload();
  });
  return (
    <>
      <form
        class="row"
        aria-label="Catalog filter"
        onSubmit={(e) => {
          e.preventDefault();
          setSearch(typed.trim());
        }}
      >
        <label for="cat-search">Search the catalog</label>
        <input
          id="cat-search"
          value={typed}
          maxLength={100}
          onInput={(e) => setTyped(e.currentTarget.value)}
        />
        <button type="submit" class="secondary">
          Search
        </button>
      </form>
      <ErrorBox error={change.error} />
      <Async state={catalog}>
        {(c) => (
          <>
            <p class="muted">
              Catalog version {c.version} ({c.released}), {c.total} entries. Devices enforce the
              organization's decisions.
            </p>
            <table>
              <thead>
                <tr>
                  <th>Service</th>
                  <th>Category</th>
                  <th>Residency / GDPR</th>
                  <th>Status</th>
                </tr>
              </thead>
              <tbody>
                {c.entries.slice(0, 50).map((e) => (
                  <tr key={e.id}>
                    <td>
                      {e.name}
                      <div class="muted">{e.domains.slice(0, 3).join(', ')}</div>
                    </td>
                    <td>{e.category}</td>
                    <td>
                      {e.dataResidency} / {e.gdprStatus}
                    </td>
                    <td>
                      {props.manage ? (
                        <select
                          aria-label={`Status of ${e.name}`}
                          value={e.status}
                          onChange={(ev) =>
                            void change.run(e, ev.currentTarget.value as (typeof CATALOG_STATUSES)[number])
                          }
                        >
                          {CATALOG_STATUSES.map((s) => (
                            <option key={s} value={s}>
                              {s}
                            </option>
                          ))}
                        </select>
                      ) : (
                        e.status
                      )}
                      {e.overridden && <span class="muted"> (changed)</span>}
                    </td>
                  </tr>
                ))}
              </tbody>
            </table>
            {c.entries.length > 50 && (
              <p class="muted">The first 50 of {c.entries.length}; search to find others.</p>
            )}
          </>
        )}
      </Async>
    </>
  );
}

export default function ShadowAi() {
  const days = route.value.searchParams.get('days') ?? '30';
  const stats = useLoad(
    () => api('get', '/api/dashboard/shadow-ai/stats', { query: { days: Number(days) } }),
    [days],
  );
  const manage = canManage();
  return (
    <>
      <h1>Shadow-AI radar</h1>
      <p>
        AI services the browser extension saw employees use: those of the catalog, and unknown ones that
        behave like AI chat.
      </p>
      {!manage && <ReadOnlyNote />}
      <h2>Usage</h2>
      <PeriodSelect id="radar-period" value={days} options={DAYS} onChange={(v) => setQuery({ days: v })} />
      <Async state={stats}>{(s) => <Usage s={s} />}</Async>
      <h2>Services</h2>
      <Services manage={manage} />
      <h2>AI service catalog</h2>
      <Catalog manage={manage} />
    </>
  );
}
