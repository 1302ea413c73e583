import { useState } from 'preact/hooks';
import { type Result, api } from '../api';
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

export const meta: PageMeta = { title: 'API keys', order: 20 };

type Key = Result<'/api/dashboard/keys', 'get'>['keys'][number];

function CreateKey(props: { onCreated(secret: string): void }) {
  const [name, setName] = useState('');
  const [kind, setKind] = useState<'al' | 'sw'>('sw');
  const [expires, setExpires] = useState('');
  const [errors, setErrors] = useState<{ name?: string; expires?: string }>({});
  const create = useAction(async () => {
    const res = await api('post', '/api/dashboard/keys', {
      body: {
        name: name.trim(),
        kind,
        ...(expires ? { expiresAt: new Date(`${expires}T23:59:59Z`).toISOString() } : {}),
      },
    });
    setName('');
    setExpires('');
    props.onCreated(res.secret);
  });
  const submit = (e: Event) => {
    e.preventDefault();
    const found: typeof errors = {};
    if (!name.trim()) found.name = 'Give the key a name, e.g. the application that uses it.';
    else if (name.length > 200) found.name = 'At most 200 characters.';
    if (expires && new Date(`${expires}T23:59:59Z`).getTime() <= Date.now())
      found.expires = 'The expiry must be in the future.';
    setErrors(found);
    if (Object.keys(found).length === 0) void create.run();
  };
  return (
    <form class="form" onSubmit={submit} noValidate aria-label="Create an API key">
      <h2>Create a key</h2>
      <div class="grid2">
        <Field label="Name" error={errors.name}>
          {(a) => <input {...a} value={name} onInput={(e) => setName(e.currentTarget.value)} />}
        </Field>
        <Field label="Kind">
          {(a) => (
            <select {...a} value={kind} onChange={(e) => setKind(e.currentTarget.value as 'al' | 'sw')}>
              <option value="sw">sw: protected chat and every product</option>
              <option value="al">al: detection, tokenization, network proxy</option>
            </select>
          )}
        </Field>
        <Field label="Expires on (optional)" error={errors.expires} hint="UTC end of that day">
          {(a) => (
            <input {...a} type="date" value={expires} onInput={(e) => setExpires(e.currentTarget.value)} />
          )}
        </Field>
      </div>
      <ErrorBox error={create.error} />
      <button type="submit" disabled={create.busy}>
        Create key
      </button>
    </form>
  );
}

export default function Keys() {
  const state = useLoad(() => api('get', '/api/dashboard/keys'), []);
  const [secret, setSecret] = useState<string | null>(null);
  const revoke = useAction(async (k: Key) => {
    await api('delete', '/api/dashboard/keys/{id}', { path: { id: k.id } });
    state.reload();
  });
  const manage = canManage();
  return (
    <>
      <h1>API keys</h1>
      {!manage && <ReadOnlyNote />}
      {secret && <SecretOnce label="Your new API key" secret={secret} onDone={() => setSecret(null)} />}
      {manage && !secret && (
        <CreateKey
          onCreated={(s) => {
            setSecret(s);
            state.reload();
          }}
        />
      )}
      <ErrorBox error={revoke.error} />
      <Async state={state} isEmpty={(d) => d.keys.length === 0} empty="No API keys yet.">
        {(d) => <KeyTable keys={d.keys} manage={manage} onRevoke={(k) => void revoke.run(k)} />}
      </Async>
    </>
  );
}

function KeyTable(props: { keys: Key[]; manage: boolean; onRevoke(k: Key): void }) {
  const { rows, pager } = usePages(props.keys);
  return (
    <>
      <table>
        <thead>
          <tr>
            <th>Name</th>
            <th>Kind</th>
            <th>Prefix</th>
            <th>Status</th>
            <th>Created</th>
            <th>Last used</th>
            <th>Expires</th>
            {props.manage && <th>Actions</th>}
          </tr>
        </thead>
        <tbody>
          {rows.map((k) => (
            <tr key={k.id}>
              <td>{k.name}</td>
              <td>{k.kind}</td>
              <td>
                <code>{k.prefix}…</code>
              </td>
              <td>
                <span class={`badge ${k.status}`}>{k.status}</span>
              </td>
              <td>{fmtDate(k.createdAt)}</td>
              <td>{fmtDate(k.lastUsedAt)}</td>
              <td>{fmtDate(k.expiresAt)}</td>
              {props.manage && (
                <td>
                  {k.status === 'active' && (
                    <button
                      type="button"
                      class="danger"
                      onClick={() => confirm(`Revoke ${k.name}?`) && props.onRevoke(k)}
                    >
                      Revoke<span class="visually-hidden"> {k.name}</span>
                    </button>
                  )}
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
