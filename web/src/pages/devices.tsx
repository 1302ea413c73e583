import { useState } from 'preact/hooks';
import { type Result, api } from '../api';
import { route, setQuery } from '../router';
import { canManage } from '../session';
import {
  Async,
  ConfirmButton,
  ErrorBox,
  FilterSelect,
  Field,
  type PageMeta,
  QueryPager,
  PeriodSelect,
  ReadOnlyNote,
  fmtDate,
  useAction,
  useLoad,
} from '../ui';

export const meta: PageMeta = { title: 'Endpoint devices', order: 80 };

type Device = Result<'/api/dashboard/endpoint', 'get'>['devices']['items'][number];
type Stats = Result<'/api/saas/endpoint/stats', 'get'>;
type Settings = Result<'/api/dashboard/endpoint/settings', 'get'>;
const STATUSES = ['active', 'offline', 'revoked'] as const;
const PERIODS = { '24h': 'Last 24 hours', '7d': 'Last 7 days', '30d': 'Last 30 days' };
const PER_PAGE = 20;

function StatsView({ s }: { s: Stats }) {
  const services = Object.entries(s.interactions.byService).sort((a, b) => b[1] - a[1]);
  return (
    <>
      <div class="cards">
        <div class="card">
          <div>Endpoints</div>
          <div class="big">{s.endpoints.total}</div>
          <div class="muted">
            {s.endpoints.active} active · {s.endpoints.offline} offline
          </div>
        </div>
        <div class="card">
          <div>AI interactions</div>
          <div class="big">{s.interactions.total.toLocaleString('en')}</div>
        </div>
        <div class="card">
          <div>Blocked</div>
          <div class="big">{s.blocked.total.toLocaleString('en')}</div>
          <div class="muted">
            {s.blocked.byReason.unapproved_service} unapproved service · {s.blocked.byReason.dlp_violation}{' '}
            DLP · {s.blocked.byReason.policy_violation} policy
          </div>
        </div>
      </div>
      <div class="breakdowns">
        <section class="breakdown" aria-label="Interactions by service">
          <h3>Interactions by service</h3>
          {services.length === 0 ? (
            <p class="empty">No interactions reported.</p>
          ) : (
            <table>
              <tbody>
                {services.slice(0, 10).map(([service, n]) => (
                  <tr key={service}>
                    <th scope="row">{service}</th>
                    <td class="num">{n.toLocaleString('en')}</td>
                  </tr>
                ))}
              </tbody>
            </table>
          )}
        </section>
        <section class="breakdown" aria-label="Top users">
          <h3>Top users</h3>
          {s.topUsers.length === 0 ? (
            <p class="empty">No user bound to an active device yet.</p>
          ) : (
            <table>
              <thead>
                <tr>
                  <th>User</th>
                  <th>Interactions</th>
                  <th>Blocked</th>
                </tr>
              </thead>
              <tbody>
                {s.topUsers.map((u) => (
                  <tr key={u.userId}>
                    <td>{u.userId}</td>
                    <td class="num">{u.interactions}</td>
                    <td class="num">{u.blocked}</td>
                  </tr>
                ))}
              </tbody>
            </table>
          )}
        </section>
      </div>
    </>
  );
}

function DeviceTable(props: { devices: Device[]; manage: boolean; onRevoke(d: Device): void }) {
  return (
    <table>
      <thead>
        <tr>
          <th>Device</th>
          <th>Status</th>
          <th>Last seen</th>
          <th>Extension</th>
          <th>Browser / OS</th>
          <th>User</th>
          {props.manage && <th>Actions</th>}
        </tr>
      </thead>
      <tbody>
        {props.devices.map((d) => (
          <tr key={d.id}>
            <td>
              {d.name}
              <div class="muted">
                <code>{d.id}</code>
              </div>
            </td>
            <td>
              <span class={`badge ${d.status}`}>{d.status}</span>
            </td>
            <td>{fmtDate(d.lastSeenAt)}</td>
            <td>{d.extensionVersion ?? '—'}</td>
            <td>{[d.browser, d.os].filter(Boolean).join(' / ') || '—'}</td>
            <td>{d.userId ?? '—'}</td>
            {props.manage && (
              <td>
                {d.status !== 'revoked' && (
                  <ConfirmButton label="Revoke" name={d.name} onConfirm={() => props.onRevoke(d)} />
                )}
              </td>
            )}
          </tr>
        ))}
      </tbody>
    </table>
  );
}

function SettingsForm(props: { settings: Settings; manage: boolean; onSaved(): void }) {
  const s = props.settings;
  const [enforcement, setEnforcement] = useState(s.defaultEnforcement);
  const [heartbeat, setHeartbeat] = useState(String(s.heartbeatIntervalSeconds));
  const [offline, setOffline] = useState(String(s.offlineAfterMinutes));
  const [versions, setVersions] = useState(s.allowedExtensionVersions.join(', '));
  const [binding, setBinding] = useState(s.requireUserBinding);
  const [userUnenroll, setUserUnenroll] = useState(s.allowUserUnenroll);
  const [errors, setErrors] = useState<{ heartbeat?: string; offline?: string; versions?: string }>({});
  const save = useAction(async () => {
    await api('post', '/api/dashboard/endpoint/settings', {
      body: {
        defaultEnforcement: enforcement as 'block' | 'warn' | 'log',
        heartbeatIntervalSeconds: Number(heartbeat),
        offlineAfterMinutes: Number(offline),
        allowedExtensionVersions: versions
          .split(',')
          .map((v) => v.trim())
          .filter(Boolean),
        requireUserBinding: binding,
        allowUserUnenroll: userUnenroll,
      },
    });
    props.onSaved();
  });
  const submit = (e: Event) => {
    e.preventDefault();
    const found: typeof errors = {};
    const hb = Number(heartbeat);
    if (!Number.isInteger(hb) || hb < 30 || hb > 3600)
      found.heartbeat = 'A whole number of seconds from 30 to 3600.';
    const off = Number(offline);
    if (!Number.isInteger(off) || off < 2 || off > 10080)
      found.offline = 'A whole number of minutes from 2 to 10080.';
    const bad = versions
      .split(',')
      .map((v) => v.trim())
      .filter(Boolean)
      .find((v) => !/^\d+(\.(\d+|\*)){0,2}$/.test(v));
    if (bad) found.versions = `"${bad}" is not a version such as 1.4 or 1.4.* or 2.`;
    setErrors(found);
    if (Object.keys(found).length === 0) void save.run();
  };
  return (
    <form class="form" onSubmit={submit} noValidate aria-label="Endpoint settings">
      <h2>Settings</h2>
      <p class="muted">
        Configuration version {s.configVersion}: devices fetch their configuration again when it changes.
      </p>
      <fieldset disabled={!props.manage}>
        <div class="grid2">
          <Field label="Default enforcement" hint="where no policy says otherwise">
            {(a) => (
              <select {...a} value={enforcement} onChange={(e) => setEnforcement(e.currentTarget.value)}>
                <option value="block">block</option>
                <option value="warn">warn</option>
                <option value="log">log</option>
              </select>
            )}
          </Field>
          <Field label="Heartbeat interval (seconds)" error={errors.heartbeat}>
            {(a) => (
              <input
                {...a}
                inputMode="numeric"
                value={heartbeat}
                onInput={(e) => setHeartbeat(e.currentTarget.value)}
              />
            )}
          </Field>
          <Field label="Offline after (minutes without a heartbeat)" error={errors.offline}>
            {(a) => (
              <input
                {...a}
                inputMode="numeric"
                value={offline}
                onInput={(e) => setOffline(e.currentTarget.value)}
              />
            )}
          </Field>
          <Field
            label="Allowed extension versions"
            error={errors.versions}
            hint="comma-separated, e.g. 1.4.*, 2; empty allows every version"
          >
            {(a) => <input {...a} value={versions} onInput={(e) => setVersions(e.currentTarget.value)} />}
          </Field>
        </div>
        <label class="check">
          <input type="checkbox" checked={binding} onChange={(e) => setBinding(e.currentTarget.checked)} />{' '}
          Devices must be bound to a user
        </label>
        <label class="check">
          <input
            type="checkbox"
            checked={userUnenroll}
            onChange={(e) => setUserUnenroll(e.currentTarget.checked)}
          />{' '}
          Users may unenroll their own devices (devices deployed by policy never can)
        </label>
        <ErrorBox error={save.error} />
        {props.manage && (
          <button type="submit" disabled={save.busy}>
            Save settings
          </button>
        )}
      </fieldset>
    </form>
  );
}

export default function Devices() {
  const q = route.value.searchParams;
  const status = q.get('status') ?? '';
  const page = Math.max(1, Number(q.get('page') ?? '1') || 1);
  const period = (q.get('period') ?? '24h') as keyof typeof PERIODS;
  const list = useLoad(
    () =>
      api('get', '/api/dashboard/endpoint', {
        query: {
          page,
          perPage: PER_PAGE,
          ...(status ? { status: status as (typeof STATUSES)[number] } : {}),
        },
      }),
    [status, page],
  );
  const stats = useLoad(() => api('get', '/api/saas/endpoint/stats', { query: { period } }), [period]);
  const settings = useLoad(() => api('get', '/api/dashboard/endpoint/settings'), []);
  const revoke = useAction(async (d: Device) => {
    await api('delete', '/api/dashboard/endpoint/devices/{id}', { path: { id: d.id } });
    list.reload();
  });
  const manage = canManage();
  return (
    <>
      <h1>Endpoint devices</h1>
      {!manage && <ReadOnlyNote />}
      <h2>Statistics</h2>
      <PeriodSelect
        id="endpoint-period"
        value={period}
        options={PERIODS}
        onChange={(v) => setQuery({ period: v })}
      />
      <Async state={stats}>{(s) => <StatsView s={s} />}</Async>
      <h2>Devices</h2>
      <div class="row">
        <FilterSelect id="device-status" label="Status" param="status" value={status} options={STATUSES} />
      </div>
      <ErrorBox error={revoke.error} />
      <Async
        state={list}
        isEmpty={(d) => d.devices.items.length === 0}
        empty="No device has enrolled yet: create an enrollment link and install the extension."
      >
        {(d) => (
          <>
            <DeviceTable devices={d.devices.items} manage={manage} onRevoke={(x) => void revoke.run(x)} />
            <QueryPager pagination={d.devices} />
            <h2>Licences</h2>
            {d.licenses.length === 0 ? (
              <p class="empty">No endpoint licence issued to this organization.</p>
            ) : (
              <table>
                <thead>
                  <tr>
                    <th>Licence</th>
                    <th>Plan</th>
                    <th>Seats</th>
                    <th>Products</th>
                    <th>Status</th>
                    <th>Expires</th>
                  </tr>
                </thead>
                <tbody>
                  {d.licenses.map((l) => (
                    <tr key={l.id}>
                      <td>
                        <code>{l.id}</code>
                      </td>
                      <td>{l.plan}</td>
                      <td class="num">{l.seats}</td>
                      <td>{l.products.join(', ')}</td>
                      <td>
                        <span class={`badge ${l.status}`}>{l.status}</span>
                      </td>
                      <td>{fmtDate(l.expiresAt)}</td>
                    </tr>
                  ))}
                </tbody>
              </table>
            )}
          </>
        )}
      </Async>
      <Async state={settings}>
        {(s) => <SettingsForm settings={s} manage={manage} onSaved={settings.reload} />}
      </Async>
    </>
  );
}
