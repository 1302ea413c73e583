import { Fragment } from 'preact';
import { useState } from 'preact/hooks';
import { type Result, api } from '../api';
import { route, setQuery } from '../router';
import { canManage } from '../session';
import {
  Async,
  ErrorBox,
  Field,
  type PageMeta,
  ReadOnlyNote,
  SecretOnce,
  fmtDate,
  useAction,
  useLoad,
  usePages,
} from '../ui';

export const meta: PageMeta = { title: 'Webhooks', order: 60 };

type Webhook = Result<'/api/webhooks', 'get'>['webhooks'][number];
type Delivery = Result<'/api/webhooks/{id}/deliveries', 'get'>['deliveries'][number];

const EVENT_TYPES = [
  'detection.created',
  'detection.high_severity',
  'dlp.violation',
  'dlp.blocked',
  'api_key.created',
  'api_key.revoked',
  'quota.warning',
  'quota.exceeded',
  'user.joined',
  'user.removed',
] as const;
type EventType = (typeof EVENT_TYPES)[number];

function WebhookForm(props: { editing?: Webhook; onSaved(secret?: string): void; onCancel?(): void }) {
  const [url, setUrl] = useState(props.editing?.url ?? '');
  const [events, setEvents] = useState<string[]>(props.editing?.events ?? ['detection.high_severity']);
  const [enabled, setEnabled] = useState(props.editing?.enabled ?? true);
  const [errors, setErrors] = useState<{ url?: string; events?: string }>({});
  const save = useAction(async () => {
    if (props.editing) {
      await api('patch', '/api/webhooks/{id}', {
        path: { id: props.editing.id },
        body: { url: url.trim(), events, enabled },
      });
      props.onSaved();
    } else {
      const res = await api('post', '/api/webhooks', { body: { url: url.trim(), events, enabled } });
      props.onSaved(res.secret);
    }
  });
  return (
    <form
      class="form"
      noValidate
      aria-label={props.editing ? 'Edit the webhook' : 'Create a webhook'}
      onSubmit={(e) => {
        e.preventDefault();
        const found: typeof errors = {};
        try {
          const u = new URL(url.trim());
          if (u.protocol !== 'https:' && u.protocol !== 'http:') found.url = 'An https:// URL.';
        } catch {
          found.url = 'Enter the full URL of your endpoint, e.g. https://example.com/hooks/parapet.';
        }
        if (events.length === 0) found.events = 'Choose at least one event type.';
        setErrors(found);
        if (Object.keys(found).length === 0) void save.run();
      }}
    >
      <h2>{props.editing ? 'Edit the webhook' : 'Create a webhook'}</h2>
      <Field label="Endpoint URL" error={errors.url}>
        {(a) => <input {...a} type="url" value={url} onInput={(e) => setUrl(e.currentTarget.value)} />}
      </Field>
      <fieldset>
        <legend>Event types</legend>
        <div class="checks">
          {EVENT_TYPES.map((t) => (
            <label key={t}>
              <input
                type="checkbox"
                checked={events.includes(t)}
                onChange={(e) =>
                  setEvents(e.currentTarget.checked ? [...events, t] : events.filter((x) => x !== t))
                }
              />{' '}
              {t}
            </label>
          ))}
        </div>
        {errors.events && <span class="field-error">{errors.events}</span>}
      </fieldset>
      <label>
        <input type="checkbox" checked={enabled} onChange={(e) => setEnabled(e.currentTarget.checked)} />{' '}
        Enabled
      </label>
      <ErrorBox error={save.error} />
      <div class="row">
        <button type="submit" disabled={save.busy}>
          {props.editing ? 'Save' : 'Create webhook'}
        </button>
        {props.onCancel && (
          <button type="button" class="secondary" onClick={props.onCancel}>
            Cancel
          </button>
        )}
      </div>
    </form>
  );
}

function Deliveries({ hook, manage }: { hook: Webhook; manage: boolean }) {
  const q = route.value.searchParams;
  const status = q.get('status') ?? '';
  const eventType = q.get('eventType') ?? '';
  // keyset pages: the cursors of the pages seen so far, so "Newer" can go back
  const [cursors, setCursors] = useState<string[]>([]);
  const cursor = cursors[cursors.length - 1];
  const state = useLoad(
    () =>
      api('get', '/api/webhooks/{id}/deliveries', {
        path: { id: hook.id },
        query: {
          perPage: 20,
          ...(status ? { status: status as Delivery['status'] } : {}),
          ...(eventType ? { eventType } : {}),
          ...(cursor ? { cursor } : {}),
        },
      }),
    [hook.id, status, eventType, cursor],
  );
  const [open, setOpen] = useState<string | null>(null);
  const redeliver = useAction(async (d: Delivery) => {
    await api('post', '/api/webhooks/{id}/deliveries/{deliveryId}/redeliver', {
      path: { id: hook.id, deliveryId: d.id },
    });
    state.reload();
  });
  const filter = (k: string, v: string) => {
    setCursors([]);
    setQuery({ [k]: v });
  };
  return (
    <section aria-label="Delivery log">
      <h2>Delivery log of {hook.url}</h2>
      <div class="row">
        <label for="flt-status">Status</label>
        <select id="flt-status" value={status} onChange={(e) => filter('status', e.currentTarget.value)}>
          <option value="">any</option>
          <option value="pending">pending</option>
          <option value="delivered">delivered</option>
          <option value="failed">failed</option>
        </select>
        <label for="flt-type">Event type</label>
        <select id="flt-type" value={eventType} onChange={(e) => filter('eventType', e.currentTarget.value)}>
          <option value="">any</option>
          {EVENT_TYPES.map((t) => (
            <option key={t} value={t}>
              {t}
            </option>
          ))}
        </select>
        <button type="button" class="secondary" onClick={state.reload}>
          Refresh
        </button>
      </div>
      <ErrorBox error={redeliver.error} />
      <Async state={state} isEmpty={(d) => d.deliveries.length === 0} empty="No deliveries match.">
        {(d) => (
          <>
            <table data-testid="deliveries">
              <thead>
                <tr>
                  <th>Created</th>
                  <th>Event</th>
                  <th>Status</th>
                  <th>Response</th>
                  <th>Attempts</th>
                  <th>Actions</th>
                </tr>
              </thead>
              <tbody>
                {d.deliveries.map((x) => (
                  <Fragment key={x.id}>
                    <tr>
                      <td>{fmtDate(x.createdAt)}</td>
                      <td>
                        {x.eventType}
                        {x.test ? ' (test)' : ''}
                      </td>
                      <td>
                        <span class={`badge ${x.status}`}>{x.status}</span>
                      </td>
                      <td>
                        {x.responseCode ?? '—'}
                        {x.responseTimeMs !== null ? ` in ${x.responseTimeMs} ms` : ''}
                        {x.error ? ` · ${x.error}` : ''}
                      </td>
                      <td>{x.attempts}</td>
                      <td class="row">
                        <button
                          type="button"
                          class="secondary"
                          aria-expanded={open === x.id}
                          onClick={() => setOpen(open === x.id ? null : x.id)}
                        >
                          Attempts
                        </button>
                        {/* A test send's event is not stored (it is no activity), so it cannot be sent again:
                            the server answers 409; "Send test" makes a new one. */}
                        {manage && x.status !== 'pending' && !x.test && (
                          <button
                            type="button"
                            class="secondary"
                            disabled={redeliver.busy}
                            onClick={() => void redeliver.run(x)}
                          >
                            Redeliver
                          </button>
                        )}
                      </td>
                    </tr>
                    {open === x.id && (
                      <tr>
                        <td colSpan={6}>
                          <Attempts hook={hook.id} delivery={x.id} />
                        </td>
                      </tr>
                    )}
                  </Fragment>
                ))}
              </tbody>
            </table>
            <nav class="pager" aria-label="Delivery pages">
              <button
                type="button"
                disabled={cursors.length === 0}
                onClick={() => setCursors(cursors.slice(0, -1))}
              >
                Newer
              </button>
              <span>
                {d.pagination.total.toLocaleString('en')}
                {d.pagination.totalIsLowerBound ? '+' : ''} in all
              </span>
              <button
                type="button"
                disabled={!d.pagination.nextCursor}
                onClick={() => d.pagination.nextCursor && setCursors([...cursors, d.pagination.nextCursor])}
              >
                Older
              </button>
            </nav>
          </>
        )}
      </Async>
    </section>
  );
}

function Attempts({ hook, delivery }: { hook: string; delivery: string }) {
  const state = useLoad(
    () =>
      api('get', '/api/webhooks/{id}/deliveries/{deliveryId}', { path: { id: hook, deliveryId: delivery } }),
    [hook, delivery],
  );
  return (
    <Async state={state} isEmpty={(d) => d.attempts.length === 0} empty="No attempt yet.">
      {(d) => (
        <ul>
          {d.attempts.map((a) => (
            <li key={a.attempt}>
              #{a.attempt} at {fmtDate(a.at)}: {a.responseCode ?? a.errorClass ?? 'ok'} in {a.latencyMs} ms
              {a.error ? ` · ${a.error}` : ''}
            </li>
          ))}
        </ul>
      )}
    </Async>
  );
}

export default function Webhooks() {
  const state = useLoad(() => api('get', '/api/webhooks'), []);
  const selected = route.value.searchParams.get('id');
  const [secret, setSecret] = useState<string>();
  const [editing, setEditing] = useState<Webhook | null>(null);
  const [testType, setTestType] = useState<EventType>('detection.high_severity');
  const [testResult, setTestResult] = useState<string>();
  const manage = canManage();
  const act = useAction(async (what: 'test' | 'rotate' | 'delete', w: Webhook) => {
    setTestResult(undefined);
    if (what === 'test') {
      const r = await api('post', '/api/webhooks/{id}/test', {
        path: { id: w.id },
        body: { eventType: testType },
      });
      setTestResult(
        r.success
          ? `Test delivered: ${r.responseCode} in ${r.responseTimeMs} ms.`
          : `Test failed: ${r.error ?? r.responseCode}.`,
      );
      setQuery({ id: w.id });
    } else if (what === 'rotate') {
      const r = await api('post', '/api/webhooks/{id}/rotate-secret', { path: { id: w.id }, body: {} });
      setSecret(r.secret);
    } else {
      await api('delete', '/api/webhooks/{id}', { path: { id: w.id } });
      if (selected === w.id) setQuery({ id: undefined });
    }
    state.reload();
  });
  return (
    <>
      <h1>Webhooks</h1>
      {!manage && <ReadOnlyNote />}
      {secret && (
        <SecretOnce
          label="Signing secret of the webhook"
          secret={secret}
          onDone={() => setSecret(undefined)}
        />
      )}
      {manage && !editing && (
        <WebhookForm
          onSaved={(s) => {
            setSecret(s);
            state.reload();
          }}
        />
      )}
      {manage && editing && (
        <WebhookForm
          key={editing.id}
          editing={editing}
          onCancel={() => setEditing(null)}
          onSaved={() => {
            setEditing(null);
            state.reload();
          }}
        />
      )}
      {manage && (
        <div class="row">
          <label for="test-type">Test event type</label>
          <select
            id="test-type"
            value={testType}
            onChange={(e) => setTestType(e.currentTarget.value as typeof testType)}
          >
            {EVENT_TYPES.map((t) => (
              <option key={t} value={t}>
                {t}
              </option>
            ))}
          </select>
        </div>
      )}
      <ErrorBox error={act.error} />
      {testResult && (
        <p role="status" data-testid="test-result">
          {testResult}
        </p>
      )}
      <Async state={state} isEmpty={(d) => d.webhooks.length === 0} empty="No webhooks yet.">
        {(d) => (
          <WebhookTable
            hooks={d.webhooks}
            manage={manage}
            busy={act.busy}
            onAct={(what, w) => (what === 'edit' ? setEditing(w) : void act.run(what, w))}
          />
        )}
      </Async>
      {selected &&
        state.data &&
        (() => {
          const hook = state.data.webhooks.find((w) => w.id === selected);
          return hook ? <Deliveries hook={hook} manage={manage} /> : null;
        })()}
    </>
  );
}

function WebhookTable(props: {
  hooks: Webhook[];
  manage: boolean;
  busy: boolean;
  onAct(what: 'test' | 'rotate' | 'delete' | 'edit', w: Webhook): void;
}) {
  const { rows, pager } = usePages(props.hooks);
  return (
    <>
      <table>
        <thead>
          <tr>
            <th>URL</th>
            <th>Events</th>
            <th>State</th>
            <th>Created</th>
            <th>Actions</th>
          </tr>
        </thead>
        <tbody>
          {rows.map((w) => (
            <tr key={w.id}>
              <td>{w.url}</td>
              <td>{w.events.join(', ')}</td>
              <td>{w.enabled ? 'enabled' : `disabled${w.disabledReason ? ` (${w.disabledReason})` : ''}`}</td>
              <td>{fmtDate(w.createdAt)}</td>
              <td class="row">
                <button
                  type="button"
                  class="secondary"
                  onClick={() => setQuery({ id: w.id, status: undefined, eventType: undefined })}
                >
                  Deliveries
                </button>
                {props.manage && (
                  <>
                    <button
                      type="button"
                      class="secondary"
                      disabled={props.busy}
                      onClick={() => props.onAct('test', w)}
                    >
                      Send test
                    </button>
                    <button type="button" class="secondary" onClick={() => props.onAct('edit', w)}>
                      Edit
                    </button>
                    <button
                      type="button"
                      class="secondary"
                      disabled={props.busy}
                      onClick={() => confirm('Rotate the signing secret?') && props.onAct('rotate', w)}
                    >
                      Rotate secret
                    </button>
                    <button
                      type="button"
                      class="danger"
                      disabled={props.busy}
                      onClick={() => confirm(`Delete ${w.url}?`) && props.onAct('delete', w)}
                    >
                      Delete
                    </button>
                  </>
                )}
              </td>
            </tr>
          ))}
        </tbody>
      </table>
      {pager}
    </>
  );
}
