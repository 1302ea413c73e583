import { useState } from 'preact/hooks';
// a pure constant shared with the extension (no server code): the editor starts where the device does
import { DEFAULT_WARN_BEFORE_SUBMIT } from '../../../src/engines/risk/warn-before-submit';
import { type Result, api } from '../api';
import { canManage } from '../session';
import {
  Async,
  ConfirmButton,
  ErrorBox,
  Field,
  type PageMeta,
  ReadOnlyNote,
  HOST_NAME,
  fmtDate,
  lines,
  useAction,
  useLoad,
} from '../ui';

export const meta: PageMeta = { title: 'Endpoint policies', order: 82 };

type Policy = Result<'/api/dashboard/endpoint/policies', 'get'>['policies'][number];
type Group = Result<'/api/dashboard/endpoint/groups', 'get'>['groups'][number];
type User = Result<'/api/dashboard/users', 'get'>['users'][number];
type ScopeType = 'organization' | 'group' | 'user';
type Enforcement = 'block' | 'warn' | 'log';

/** The closed list of copy-paste patterns the server accepts (endpoint.schemas.ts PASTE_PATTERNS). */
const PASTE_PATTERNS = ['CREDIT_CARD', 'SSN', 'API_KEY', 'PASSWORD', 'IBAN', 'EMAIL', 'PHONE'] as const;
type PastePattern = (typeof PASTE_PATTERNS)[number];

/** The editor's state: the spec's policy body flattened into form fields. */
interface Draft {
  name: string;
  scopeType: ScopeType;
  targets: string[];
  enforcement: Enforcement;
  enabled: boolean;
  aiMode: 'none' | 'allowlist' | 'blocklist';
  allowed: string;
  blocked: string;
  requireDlp: boolean;
  pasteEnabled: boolean;
  patterns: PastePattern[];
  warnEnabled: boolean;
  threshold: string;
  preventScreenshot: boolean;
  logAll: boolean;
  logBlocked: boolean;
  retentionDays: string;
}

interface Rules {
  aiServices?: {
    mode: 'allowlist' | 'blocklist';
    allowed?: { domain: string; conditions?: { requireDlp?: boolean } }[];
    blocked?: { domain: string }[];
  };
  dataProtection?: {
    blockCopyPaste?: { enabled: boolean; patterns: PastePattern[] };
    warnBeforeSubmit?: { enabled: boolean; threshold: number };
    preventScreenshot?: boolean;
  };
  logging?: { logAllInteractions?: boolean; logBlockedAttempts?: boolean; retentionDays: number };
}

function draftOf(p: Policy | null, orgId: string): Draft {
  const r = (p?.rules ?? {}) as Rules;
  const allowed = r.aiServices?.allowed ?? [];
  return {
    name: p?.name ?? '',
    scopeType: (p?.scope.type as ScopeType | undefined) ?? 'organization',
    targets: p?.scope.targets ?? [orgId],
    enforcement: (p?.enforcement as Enforcement | undefined) ?? 'warn',
    enabled: p?.enabled ?? true,
    aiMode: r.aiServices?.mode ?? 'none',
    allowed: allowed.map((a) => a.domain).join('\n'),
    blocked: (r.aiServices?.blocked ?? []).map((b) => b.domain).join('\n'),
    requireDlp: allowed.some((a) => a.conditions?.requireDlp === true),
    pasteEnabled: r.dataProtection?.blockCopyPaste?.enabled ?? false,
    patterns: r.dataProtection?.blockCopyPaste?.patterns ?? [],
    // A policy without the rule (new, or created by API without it) gets the extension's built-in one:
    // saving it untouched must not leave devices less strict than before enrollment.
    warnEnabled: r.dataProtection?.warnBeforeSubmit?.enabled ?? DEFAULT_WARN_BEFORE_SUBMIT.enabled,
    threshold: String(r.dataProtection?.warnBeforeSubmit?.threshold ?? DEFAULT_WARN_BEFORE_SUBMIT.threshold),
    preventScreenshot: r.dataProtection?.preventScreenshot ?? false,
    logAll: r.logging?.logAllInteractions ?? false,
    logBlocked: r.logging?.logBlockedAttempts ?? true,
    retentionDays: String(r.logging?.retentionDays ?? 90),
  };
}

function rulesOf(d: Draft): Rules {
  const rules: Rules = {};
  if (d.aiMode !== 'none') {
    rules.aiServices = {
      mode: d.aiMode,
      allowed: lines(d.allowed).map((domain) => ({
        domain,
        ...(d.requireDlp ? { conditions: { requireDlp: true } } : {}),
      })),
      blocked: lines(d.blocked).map((domain) => ({ domain })),
    };
  }
  rules.dataProtection = {
    blockCopyPaste: { enabled: d.pasteEnabled, patterns: d.patterns },
    warnBeforeSubmit: { enabled: d.warnEnabled, threshold: Number(d.threshold) },
    preventScreenshot: d.preventScreenshot,
  };
  rules.logging = {
    logAllInteractions: d.logAll,
    logBlockedAttempts: d.logBlocked,
    retentionDays: Number(d.retentionDays),
  };
  return rules;
}

type Errors = Partial<
  Record<'name' | 'targets' | 'allowed' | 'blocked' | 'threshold' | 'retentionDays', string>
>;

function validate(d: Draft): Errors {
  const e: Errors = {};
  if (!d.name.trim()) e.name = 'Give the policy a name.';
  else if (d.name.length > 200) e.name = 'At most 200 characters.';
  if (d.targets.length === 0) e.targets = `Choose at least one ${d.scopeType}.`;
  for (const [field, text] of [
    ['allowed', d.allowed],
    ['blocked', d.blocked],
  ] as const) {
    const bad = lines(text).find((x) => !HOST_NAME.test(x));
    if (bad) e[field] = `"${bad}" is not a host name; a wildcard may only lead, as in *.example.com.`;
  }
  const t = Number(d.threshold);
  if (d.warnEnabled && (!Number.isInteger(t) || t < 0 || t > 100))
    e.threshold = 'A whole number from 0 to 100.';
  const r = Number(d.retentionDays);
  if (!Number.isInteger(r) || r < 1 || r > 3650) e.retentionDays = 'A whole number of days from 1 to 3650.';
  return e;
}

function TargetPicker(props: {
  type: ScopeType;
  orgId: string;
  groups: Group[];
  users: User[];
  value: string[];
  error?: string | undefined;
  onChange(v: string[]): void;
}) {
  if (props.type === 'organization') return <p class="muted">Applies to every device of the organization.</p>;
  const options =
    props.type === 'group'
      ? props.groups.map((g) => ({ id: g.id, label: g.name }))
      : props.users.map((u) => ({ id: u.id, label: u.email }));
  if (options.length === 0) {
    return (
      <p class="empty">
        {props.type === 'group' ? 'No groups yet: create one on the enrollment page.' : 'No users.'}
      </p>
    );
  }
  const toggle = (id: string, on: boolean) =>
    props.onChange(on ? [...props.value.filter((x) => x !== id), id] : props.value.filter((x) => x !== id));
  return (
    <fieldset aria-describedby={props.error ? 'targets-err' : undefined}>
      <legend>{props.type === 'group' ? 'Groups' : 'Users'}</legend>
      {options.map((o) => (
        <label class="check" key={o.id}>
          <input
            type="checkbox"
            checked={props.value.includes(o.id)}
            onChange={(e) => toggle(o.id, e.currentTarget.checked)}
          />{' '}
          {o.label}
        </label>
      ))}
      {props.error && (
        <span class="field-error" id="targets-err">
          {props.error}
        </span>
      )}
    </fieldset>
  );
}

function Editor(props: {
  policy: Policy | null;
  orgId: string;
  groups: Group[];
  users: User[];
  onDone(): void;
}) {
  const [d, setD] = useState<Draft>(() => draftOf(props.policy, props.orgId));
  const [errors, setErrors] = useState<Errors>({});
  const set = <K extends keyof Draft>(k: K, v: Draft[K]) => setD((x) => ({ ...x, [k]: v }));
  const save = useAction(async () => {
    const body = {
      name: d.name.trim(),
      scope: { type: d.scopeType, targets: d.targets },
      rules: rulesOf(d),
      enforcement: d.enforcement,
      enabled: d.enabled,
    };
    if (props.policy)
      await api('patch', '/api/dashboard/endpoint/policies/{id}', { path: { id: props.policy.id }, body });
    else await api('post', '/api/dashboard/endpoint/policies', { body });
    props.onDone();
  });
  const submit = (e: Event) => {
    e.preventDefault();
    const found = validate(d);
    setErrors(found);
    if (Object.keys(found).length === 0) void save.run();
  };
  return (
    <form
      class="form"
      onSubmit={submit}
      noValidate
      aria-label={props.policy ? `Edit ${props.policy.name}` : 'Create a policy'}
    >
      <h2>{props.policy ? `Edit ${props.policy.name}` : 'Create a policy'}</h2>
      <div class="grid2">
        <Field label="Name" error={errors.name}>
          {(a) => <input {...a} value={d.name} onInput={(e) => set('name', e.currentTarget.value)} />}
        </Field>
        <Field label="Applies to">
          {(a) => (
            <select
              {...a}
              value={d.scopeType}
              onChange={(e) => {
                const t = e.currentTarget.value as ScopeType;
                setD((x) => ({ ...x, scopeType: t, targets: t === 'organization' ? [props.orgId] : [] }));
              }}
            >
              <option value="organization">the organization</option>
              <option value="group">groups</option>
              <option value="user">users</option>
            </select>
          )}
        </Field>
        <Field label="Enforcement" hint="block stops the action, warn asks the user, log only records">
          {(a) => (
            <select
              {...a}
              value={d.enforcement}
              onChange={(e) => set('enforcement', e.currentTarget.value as Enforcement)}
            >
              <option value="block">block</option>
              <option value="warn">warn</option>
              <option value="log">log</option>
            </select>
          )}
        </Field>
      </div>
      <TargetPicker
        type={d.scopeType}
        orgId={props.orgId}
        groups={props.groups}
        users={props.users}
        value={d.targets}
        error={errors.targets}
        onChange={(v) => set('targets', v)}
      />
      <fieldset>
        <legend>AI services</legend>
        <Field label="Mode">
          {(a) => (
            <select
              {...a}
              value={d.aiMode}
              onChange={(e) => set('aiMode', e.currentTarget.value as Draft['aiMode'])}
            >
              <option value="none">no rule (the catalog's decisions apply)</option>
              <option value="allowlist">allow list: only the services below</option>
              <option value="blocklist">block list: every service but those below</option>
            </select>
          )}
        </Field>
        {d.aiMode !== 'none' && (
          <div class="grid2">
            <Field
              label="Allowed services (one host per line)"
              error={errors.allowed}
              hint="*.example.com covers its subdomains"
            >
              {(a) => (
                <textarea
                  {...a}
                  rows={5}
                  value={d.allowed}
                  onInput={(e) => set('allowed', e.currentTarget.value)}
                />
              )}
            </Field>
            <Field label="Blocked services (one host per line)" error={errors.blocked}>
              {(a) => (
                <textarea
                  {...a}
                  rows={5}
                  value={d.blocked}
                  onInput={(e) => set('blocked', e.currentTarget.value)}
                />
              )}
            </Field>
          </div>
        )}
        {d.aiMode !== 'none' && (
          <label class="check">
            <input
              type="checkbox"
              checked={d.requireDlp}
              onChange={(e) => set('requireDlp', e.currentTarget.checked)}
            />{' '}
            Allowed services need tokenization before sending
          </label>
        )}
      </fieldset>
      <fieldset>
        <legend>Data protection</legend>
        <label class="check">
          <input
            type="checkbox"
            checked={d.pasteEnabled}
            onChange={(e) => set('pasteEnabled', e.currentTarget.checked)}
          />{' '}
          Block pasting these kinds of data into AI services:
        </label>
        <div class="checks">
          {PASTE_PATTERNS.map((p) => (
            <label class="check" key={p}>
              <input
                type="checkbox"
                checked={d.patterns.includes(p)}
                onChange={(e) =>
                  set(
                    'patterns',
                    e.currentTarget.checked ? [...d.patterns, p] : d.patterns.filter((x) => x !== p),
                  )
                }
              />{' '}
              {p}
            </label>
          ))}
        </div>
        <div class="grid2">
          <label class="check">
            <input
              type="checkbox"
              checked={d.warnEnabled}
              onChange={(e) => set('warnEnabled', e.currentTarget.checked)}
            />{' '}
            Warn before sending a prompt whose risk score reaches
          </label>
          <Field label="Risk threshold (0–100)" error={errors.threshold}>
            {(a) => (
              <input
                {...a}
                inputMode="numeric"
                value={d.threshold}
                onInput={(e) => set('threshold', e.currentTarget.value)}
              />
            )}
          </Field>
        </div>
        <label class="check">
          <input
            type="checkbox"
            checked={d.preventScreenshot}
            onChange={(e) => set('preventScreenshot', e.currentTarget.checked)}
          />{' '}
          Discourage screenshots of AI answers (what a browser allows: docs/extension.md)
        </label>
      </fieldset>
      <fieldset>
        <legend>Logging</legend>
        <label class="check">
          <input
            type="checkbox"
            checked={d.logAll}
            onChange={(e) => set('logAll', e.currentTarget.checked)}
          />{' '}
          Log every AI interaction
        </label>
        <label class="check">
          <input
            type="checkbox"
            checked={d.logBlocked}
            onChange={(e) => set('logBlocked', e.currentTarget.checked)}
          />{' '}
          Log blocked attempts
        </label>
        <Field label="Keep logs for (days)" error={errors.retentionDays}>
          {(a) => (
            <input
              {...a}
              inputMode="numeric"
              value={d.retentionDays}
              onInput={(e) => set('retentionDays', e.currentTarget.value)}
            />
          )}
        </Field>
      </fieldset>
      <label class="check">
        <input
          type="checkbox"
          checked={d.enabled}
          onChange={(e) => set('enabled', e.currentTarget.checked)}
        />{' '}
        Enabled
      </label>
      <ErrorBox error={save.error} />
      <div class="row">
        <button type="submit" disabled={save.busy}>
          {props.policy ? 'Save policy' : 'Create policy'}
        </button>
        <button type="button" class="secondary" onClick={props.onDone}>
          Cancel
        </button>
      </div>
    </form>
  );
}

export default function Policies() {
  const policies = useLoad(() => api('get', '/api/dashboard/endpoint/policies'), []);
  const groups = useLoad(() => api('get', '/api/dashboard/endpoint/groups'), []);
  const users = useLoad(() => api('get', '/api/dashboard/users'), []);
  const org = useLoad(() => api('get', '/api/dashboard/organization'), []);
  const [editing, setEditing] = useState<Policy | null | 'new'>(null);
  const remove = useAction(async (p: Policy) => {
    await api('delete', '/api/dashboard/endpoint/policies/{id}', { path: { id: p.id } });
    policies.reload();
  });
  const manage = canManage();
  const orgId = org.data?.id ?? '';
  return (
    <>
      <h1>Endpoint policies</h1>
      <p class="muted">
        Precedence: a user's policy over a group's over the organization's; the most specific enabled policy
        decides each rule (docs/endpoint.md). Every change raises the configuration version that devices
        fetch.
      </p>
      {!manage && <ReadOnlyNote />}
      {manage && editing === null && (
        <button type="button" onClick={() => setEditing('new')} disabled={!orgId}>
          New policy
        </button>
      )}
      {editing !== null && orgId && (
        <Editor
          key={editing === 'new' ? 'new' : editing.id}
          policy={editing === 'new' ? null : editing}
          orgId={orgId}
          groups={groups.data?.groups ?? []}
          users={users.data?.users ?? []}
          onDone={() => {
            setEditing(null);
            policies.reload();
          }}
        />
      )}
      <ErrorBox error={remove.error} />
      <Async
        state={policies}
        isEmpty={(d) => d.policies.length === 0}
        empty="No policy yet: devices use the organization's settings."
      >
        {(d) => (
          <table>
            <thead>
              <tr>
                <th>Name</th>
                <th>Applies to</th>
                <th>Enforcement</th>
                <th>Status</th>
                <th>Updated</th>
                {manage && <th>Actions</th>}
              </tr>
            </thead>
            <tbody>
              {d.policies.map((p) => (
                <tr key={p.id}>
                  <td>{p.name}</td>
                  <td>
                    {p.scope.type}
                    {p.scope.type !== 'organization' && (
                      <span class="muted"> ({p.scope.targets.length})</span>
                    )}
                  </td>
                  <td>{p.enforcement}</td>
                  <td>
                    <span class={`badge ${p.enabled ? 'active' : 'revoked'}`}>
                      {p.enabled ? 'enabled' : 'disabled'}
                    </span>
                  </td>
                  <td>{fmtDate(p.updatedAt)}</td>
                  {manage && (
                    <td class="actions">
                      <button type="button" class="secondary" onClick={() => setEditing(p)}>
                        Edit<span class="visually-hidden"> {p.name}</span>
                      </button>
                      <ConfirmButton label="Delete" name={p.name} onConfirm={() => void remove.run(p)} />
                    </td>
                  )}
                </tr>
              ))}
            </tbody>
          </table>
        )}
      </Async>
    </>
  );
}
