import { useState } from 'preact/hooks';
import { type Result, api } from '../api';
import { canManage } from '../session';
import {
  Async,
  ErrorBox,
  Field,
  type PageMeta,
  ReadOnlyNote,
  fmtDate,
  useAction,
  useLoad,
  usePages,
} from '../ui';

export const meta: PageMeta = { title: 'SIEM integrations', order: 70 };

type Integration = Result<'/api/saas/siem/integrations', 'get'>['integrations'][number];
type CreateBody = NonNullable<Parameters<typeof api<'/api/saas/siem/integrations', 'post'>>[2]>['body'];

interface FieldSpec {
  /** dotted path in the create body */
  path: string;
  label: string;
  required?: boolean;
  kind?: 'url' | 'password' | 'number' | 'textarea';
  options?: string[];
}

interface PlatformForm {
  label: string;
  /** SPLUNK…WEBHOOK name the platform in `platform`; the reseller shapes in `type` */
  key: 'platform' | 'type';
  value: string;
  fields: FieldSpec[];
}

// One form per platform shape of the API (src/modules/siem/siem.schemas.ts).
const FORMS: PlatformForm[] = [
  {
    label: 'Splunk (HEC)',
    key: 'platform',
    value: 'SPLUNK',
    fields: [
      { path: 'config.hecUrl', label: 'HEC URL', required: true, kind: 'url' },
      { path: 'config.hecToken', label: 'HEC token', required: true, kind: 'password' },
      { path: 'config.index', label: 'Index' },
      { path: 'config.sourcetype', label: 'Source type' },
    ],
  },
  {
    label: 'Elastic (Cloud ID)',
    key: 'platform',
    value: 'ELASTIC',
    fields: [
      { path: 'config.cloudId', label: 'Cloud ID', required: true },
      { path: 'config.apiKey', label: 'API key', required: true, kind: 'password' },
      { path: 'config.index', label: 'Index' },
    ],
  },
  {
    label: 'Elastic (cluster URL)',
    key: 'platform',
    value: 'ELASTIC',
    fields: [
      { path: 'config.url', label: 'Cluster URL', required: true, kind: 'url' },
      { path: 'config.username', label: 'User name', required: true },
      { path: 'config.password', label: 'Password', required: true, kind: 'password' },
      { path: 'config.index', label: 'Index' },
    ],
  },
  {
    label: 'Datadog',
    key: 'platform',
    value: 'DATADOG',
    fields: [
      { path: 'config.apiKey', label: 'API key', required: true, kind: 'password' },
      { path: 'config.site', label: 'Site (datadoghq.com, datadoghq.eu…)' },
      { path: 'config.service', label: 'Service' },
    ],
  },
  {
    label: 'Syslog',
    key: 'platform',
    value: 'SYSLOG',
    fields: [
      { path: 'config.host', label: 'Host', required: true },
      { path: 'config.port', label: 'Port', required: true, kind: 'number' },
      { path: 'config.protocol', label: 'Protocol', required: true, options: ['TCP', 'UDP', 'TLS'] },
      { path: 'config.format', label: 'Format', options: ['RFC5424', 'RFC3164', 'CEF'] },
      { path: 'config.tlsCa', label: 'CA certificate (PEM, TLS only)', kind: 'textarea' },
    ],
  },
  {
    label: 'Webhook (JSON)',
    key: 'platform',
    value: 'WEBHOOK',
    fields: [
      { path: 'config.url', label: 'Endpoint URL', required: true, kind: 'url' },
      { path: 'config.secret', label: 'Signing secret (16+ characters)', kind: 'password' },
    ],
  },
  {
    label: 'Prelude (IDMEF)',
    key: 'type',
    value: 'PRELUDE',
    fields: [
      { path: 'endpoint', label: 'Endpoint (https:// or prelude://manager:4690)', required: true },
      { path: 'credentials.apiKey', label: 'API key (https collectors)', kind: 'password' },
      { path: 'credentials.agentId', label: 'Sensor profile (prelude://)' },
    ],
  },
  {
    label: 'Wazuh indexer',
    key: 'type',
    value: 'WAZUH',
    fields: [
      { path: 'endpoint', label: 'Indexer URL', required: true, kind: 'url' },
      { path: 'credentials.username', label: 'User name', required: true },
      { path: 'credentials.password', label: 'Password', required: true, kind: 'password' },
      { path: 'credentials.index', label: 'Index' },
    ],
  },
  {
    label: 'OpenSearch',
    key: 'type',
    value: 'OPENSEARCH',
    fields: [
      { path: 'endpoint', label: 'Cluster URL', required: true, kind: 'url' },
      { path: 'credentials.username', label: 'User name', required: true },
      { path: 'credentials.password', label: 'Password', required: true, kind: 'password' },
      { path: 'credentials.index', label: 'Index' },
    ],
  },
];
const CATEGORIES = ['DETECTION', 'DLP', 'AUTHENTICATION', 'AUDIT'];
const SEVERITIES = ['LOW', 'MEDIUM', 'HIGH', 'CRITICAL'];

function setPath(target: Record<string, unknown>, path: string, value: unknown): void {
  const [head, ...rest] = path.split('.');
  if (!head) return;
  if (rest.length === 0) target[head] = value;
  else {
    target[head] ??= {};
    setPath(target[head] as Record<string, unknown>, rest.join('.'), value);
  }
}

function CreateIntegration(props: { onCreated(): void }) {
  const [formIndex, setFormIndex] = useState(0);
  const form = FORMS[formIndex]!;
  const [name, setName] = useState('');
  const [values, setValues] = useState<Record<string, string>>({});
  const [categories, setCategories] = useState<string[]>(['DETECTION', 'DLP']);
  const [minSeverity, setMinSeverity] = useState('LOW');
  const [errors, setErrors] = useState<Record<string, string>>({});
  const create = useAction(async (body: CreateBody) => {
    await api('post', '/api/saas/siem/integrations', { body });
    setValues({});
    setName('');
    props.onCreated();
  });
  const validate = () => {
    const found: Record<string, string> = {};
    if (!name.trim()) found['name'] = 'Name the integration.';
    for (const f of form.fields) {
      const v = (values[f.path] ?? '').trim();
      if (f.required && !v) found[f.path] = `${f.label} is required.`;
      else if (v && f.kind === 'url' && !/^https?:\/\/\S+$/.test(v)) found[f.path] = 'An http(s):// URL.';
      else if (
        v &&
        f.kind === 'number' &&
        !(Number.isInteger(Number(v)) && Number(v) >= 1 && Number(v) <= 65535)
      )
        found[f.path] = 'A port from 1 to 65535.';
    }
    if (categories.length === 0) found['categories'] = 'Forward at least one category.';
    return found;
  };
  return (
    <form
      class="form"
      noValidate
      aria-label="Add a SIEM integration"
      onSubmit={(e) => {
        e.preventDefault();
        const found = validate();
        setErrors(found);
        if (Object.keys(found).length > 0) return;
        const body: Record<string, unknown> = {
          name: name.trim(),
          [form.key]: form.value,
          eventTypes: categories,
          minSeverity,
        };
        if (form.key === 'type') body['credentials'] = {};
        for (const f of form.fields) {
          const v = (values[f.path] ?? '').trim();
          if (v) setPath(body, f.path, f.kind === 'number' ? Number(v) : v);
        }
        void create.run(body as CreateBody);
      }}
    >
      <h2>Add an integration</h2>
      <div class="grid2">
        <Field label="Platform">
          {(a) => (
            <select
              {...a}
              value={String(formIndex)}
              onChange={(e) => {
                setFormIndex(Number(e.currentTarget.value));
                setValues({});
                setErrors({});
              }}
            >
              {FORMS.map((f, i) => (
                <option key={f.label} value={String(i)}>
                  {f.label}
                </option>
              ))}
            </select>
          )}
        </Field>
        <Field label="Name" error={errors['name']}>
          {(a) => <input {...a} value={name} onInput={(e) => setName(e.currentTarget.value)} />}
        </Field>
        {form.fields.map((f) => (
          <Field
            key={`${formIndex}-${f.path}`}
            label={f.required ? f.label : `${f.label} (optional)`}
            error={errors[f.path]}
          >
            {(a) => {
              const value = values[f.path] ?? '';
              const set = (v: string) => setValues({ ...values, [f.path]: v });
              if (f.options)
                return (
                  <select {...a} value={value} onChange={(e) => set(e.currentTarget.value)}>
                    <option value="">{f.required ? 'choose' : 'default'}</option>
                    {f.options.map((o) => (
                      <option key={o} value={o}>
                        {o}
                      </option>
                    ))}
                  </select>
                );
              if (f.kind === 'textarea')
                return <textarea {...a} value={value} onInput={(e) => set(e.currentTarget.value)} />;
              if (f.kind === 'password')
                return (
                  <input
                    {...a}
                    type="password"
                    autocomplete="off"
                    value={value}
                    onInput={(e) => set(e.currentTarget.value)}
                  />
                );
              if (f.kind === 'url')
                return (
                  <input
                    {...a}
                    type="url"
                    autocomplete="off"
                    value={value}
                    onInput={(e) => set(e.currentTarget.value)}
                  />
                );
              return (
                <input
                  {...a}
                  inputMode={f.kind === 'number' ? 'numeric' : 'text'}
                  autocomplete="off"
                  value={value}
                  onInput={(e) => set(e.currentTarget.value)}
                />
              );
            }}
          </Field>
        ))}
        <Field label="Minimum severity">
          {(a) => (
            <select {...a} value={minSeverity} onChange={(e) => setMinSeverity(e.currentTarget.value)}>
              {SEVERITIES.map((s) => (
                <option key={s} value={s}>
                  {s}
                </option>
              ))}
            </select>
          )}
        </Field>
      </div>
      <fieldset>
        <legend>Categories to forward</legend>
        <div class="checks">
          {CATEGORIES.map((c) => (
            <label key={c}>
              <input
                type="checkbox"
                checked={categories.includes(c)}
                onChange={(e) =>
                  setCategories(
                    e.currentTarget.checked ? [...categories, c] : categories.filter((x) => x !== c),
                  )
                }
              />{' '}
              {c}
            </label>
          ))}
        </div>
        {errors['categories'] && <span class="field-error">{errors['categories']}</span>}
      </fieldset>
      <p class="muted">Secrets are sealed at rest and never shown again.</p>
      <ErrorBox error={create.error} />
      <button type="submit" disabled={create.busy}>
        Add integration
      </button>
    </form>
  );
}

export default function Siem() {
  const state = useLoad(() => api('get', '/api/saas/siem/integrations'), []);
  const [result, setResult] = useState<string>();
  const manage = canManage();
  const act = useAction(async (what: 'test' | 'toggle' | 'retry' | 'delete', i: Integration) => {
    setResult(undefined);
    const path = { id: i.id };
    if (what === 'test') {
      const r = await api('post', '/api/saas/siem/integrations/{id}/test', { path });
      setResult(
        r.success
          ? `${i.name}: accepted (${r.responseCode ?? 'ok'}) in ${r.responseTimeMs} ms.`
          : `${i.name}: refused: ${r.error ?? r.reason ?? r.responseCode}.`,
      );
    } else if (what === 'toggle')
      await api('patch', '/api/saas/siem/integrations/{id}', { path, body: { enabled: !i.enabled } });
    else if (what === 'retry') {
      const r = await api('post', '/api/saas/siem/integrations/{id}/dead-letters/retry', { path });
      setResult(`${r.requeued} dead-lettered event(s) queued again.`);
    } else await api('delete', '/api/saas/siem/integrations/{id}', { path });
    state.reload();
  });
  return (
    <>
      <h1>SIEM integrations</h1>
      {!manage && <ReadOnlyNote />}
      {manage && <CreateIntegration onCreated={state.reload} />}
      <ErrorBox error={act.error} />
      {result && <p role="status">{result}</p>}
      <Async state={state} isEmpty={(d) => d.integrations.length === 0} empty="No SIEM integration yet.">
        {(d) => (
          <IntegrationTable
            rows={d.integrations}
            manage={manage}
            busy={act.busy}
            onAct={(w, i) => void act.run(w, i)}
          />
        )}
      </Async>
    </>
  );
}

function IntegrationTable(props: {
  rows: Integration[];
  manage: boolean;
  busy: boolean;
  onAct(what: 'test' | 'toggle' | 'retry' | 'delete', i: Integration): void;
}) {
  const { rows, pager } = usePages(props.rows);
  return (
    <>
      <table>
        <thead>
          <tr>
            <th>Name</th>
            <th>Platform</th>
            <th>Circuit breaker</th>
            <th>Queue</th>
            <th>Delivered</th>
            <th>Last success / error</th>
            {props.manage && <th>Actions</th>}
          </tr>
        </thead>
        <tbody>
          {rows.map((i) => (
            <tr key={i.id}>
              <td>
                {i.name}
                {i.enabled ? '' : ' (disabled)'}
              </td>
              <td>{i.type ?? i.platform}</td>
              <td>
                <span class={`badge ${i.status.circuit}`}>{i.status.circuit.replace('_', ' ')}</span>
                {i.status.consecutiveFailures > 0 ? ` · ${i.status.consecutiveFailures} failures` : ''}
                {i.status.circuit !== 'closed' && i.status.nextAttemptAt
                  ? ` · retry ${fmtDate(i.status.nextAttemptAt)}`
                  : ''}
              </td>
              <td>
                {i.status.queued} / {i.status.queueLimit}
                {i.status.deadLettered > 0 ? ` · ${i.status.deadLettered} dead` : ''}
              </td>
              <td>{i.status.delivered}</td>
              <td>
                {fmtDate(i.status.lastSuccessAt)}
                {i.status.lastError ? <div class="bad">{i.status.lastError}</div> : null}
              </td>
              {props.manage && (
                <td class="row">
                  <button
                    type="button"
                    class="secondary"
                    disabled={props.busy}
                    onClick={() => props.onAct('test', i)}
                  >
                    Test<span class="visually-hidden"> {i.name}</span>
                  </button>
                  <button
                    type="button"
                    class="secondary"
                    disabled={props.busy}
                    onClick={() => props.onAct('toggle', i)}
                  >
                    {i.enabled ? 'Disable' : 'Enable'}
                    <span class="visually-hidden"> {i.name}</span>
                  </button>
                  {i.status.deadLettered > 0 && (
                    <button
                      type="button"
                      class="secondary"
                      disabled={props.busy}
                      onClick={() => props.onAct('retry', i)}
                    >
                      Retry dead letters<span class="visually-hidden"> of {i.name}</span>
                    </button>
                  )}
                  <button
                    type="button"
                    class="danger"
                    disabled={props.busy}
                    onClick={() => confirm(`Delete ${i.name}?`) && props.onAct('delete', i)}
                  >
                    Delete<span class="visually-hidden"> {i.name}</span>
                  </button>
                </td>
              )}
            </tr>
          ))}
        </tbody>
      </table>
      {pager}
    </>
  );
}
