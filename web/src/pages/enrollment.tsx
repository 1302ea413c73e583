import { useState } from 'preact/hooks';
import { type Result, api } from '../api';
import { canManage } from '../session';
import {
  Async,
  ConfirmButton,
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

export const meta: PageMeta = { title: 'Enrollment links', order: 81 };

type Link = Result<'/api/dashboard/endpoint/enrollment', 'get'>['links'][number];
type Group = Result<'/api/dashboard/endpoint/groups', 'get'>['groups'][number];

function CreateLink(props: { groups: Group[]; onCreated(code: string): void }) {
  const [name, setName] = useState('');
  const [uses, setUses] = useState('1');
  const [hours, setHours] = useState('72');
  const [groupId, setGroupId] = useState('');
  const [errors, setErrors] = useState<{ name?: string; uses?: string; hours?: string }>({});
  const create = useAction(async () => {
    const res = await api('post', '/api/dashboard/endpoint/enrollment', {
      body: {
        ...(name.trim() ? { name: name.trim() } : {}),
        maxUses: Number(uses),
        expiresInHours: Number(hours),
        ...(groupId ? { groupId } : {}),
      },
    });
    setName('');
    props.onCreated(res.code);
  });
  const submit = (e: Event) => {
    e.preventDefault();
    const found: typeof errors = {};
    if (name.length > 200) found.name = 'At most 200 characters.';
    const u = Number(uses);
    if (!Number.isInteger(u) || u < 1 || u > 100_000) found.uses = 'A whole number from 1 to 100,000.';
    const h = Number(hours);
    if (!Number.isInteger(h) || h < 1 || h > 8760)
      found.hours = 'A whole number of hours from 1 to 8,760 (a year).';
    setErrors(found);
    if (Object.keys(found).length === 0) void create.run();
  };
  return (
    <form class="form" onSubmit={submit} noValidate aria-label="Create an enrollment link">
      <h2>Create an enrollment link</h2>
      <div class="grid2">
        <Field label="Name (optional)" error={errors.name} hint="e.g. the team or the rollout wave">
          {(a) => <input {...a} value={name} onInput={(e) => setName(e.currentTarget.value)} />}
        </Field>
        <Field label="Uses" error={errors.uses} hint="1 for a single device">
          {(a) => (
            <input {...a} inputMode="numeric" value={uses} onInput={(e) => setUses(e.currentTarget.value)} />
          )}
        </Field>
        <Field label="Valid for (hours)" error={errors.hours}>
          {(a) => (
            <input
              {...a}
              inputMode="numeric"
              value={hours}
              onInput={(e) => setHours(e.currentTarget.value)}
            />
          )}
        </Field>
        <Field label="Group (optional)" hint="devices enrolled with it join this group">
          {(a) => (
            <select {...a} value={groupId} onChange={(e) => setGroupId(e.currentTarget.value)}>
              <option value="">none</option>
              {props.groups.map((g) => (
                <option key={g.id} value={g.id}>
                  {g.name}
                </option>
              ))}
            </select>
          )}
        </Field>
      </div>
      <ErrorBox error={create.error} />
      <button type="submit" disabled={create.busy}>
        Create link
      </button>
    </form>
  );
}

function LinkTable(props: { links: Link[]; groups: Group[]; manage: boolean; onRevoke(l: Link): void }) {
  const { rows, pager } = usePages(props.links);
  const groupName = (id: string | null) => (id ? (props.groups.find((g) => g.id === id)?.name ?? id) : '—');
  return (
    <>
      <table>
        <thead>
          <tr>
            <th>Name</th>
            <th>Code</th>
            <th>Uses</th>
            <th>Status</th>
            <th>Group</th>
            <th>Expires</th>
            <th>Created</th>
            {props.manage && <th>Actions</th>}
          </tr>
        </thead>
        <tbody>
          {rows.map((l) => (
            <tr key={l.id}>
              <td>{l.name || '—'}</td>
              <td>
                <code>{l.codePrefix}…</code>
              </td>
              <td class="num">
                {l.uses} / {l.maxUses}
              </td>
              <td>
                <span class={`badge ${l.status}`}>{l.status.replace('_', ' ')}</span>
              </td>
              <td>{groupName(l.groupId)}</td>
              <td>{fmtDate(l.expiresAt)}</td>
              <td>{fmtDate(l.createdAt)}</td>
              {props.manage && (
                <td>
                  {l.status === 'active' && (
                    <ConfirmButton
                      label="Revoke"
                      name={l.name || l.codePrefix}
                      onConfirm={() => props.onRevoke(l)}
                    />
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

function Groups(props: { groups: Group[]; manage: boolean; onChanged(): void }) {
  const [name, setName] = useState('');
  const [error, setError] = useState<string>();
  const create = useAction(async () => {
    await api('post', '/api/dashboard/endpoint/groups', { body: { name: name.trim() } });
    setName('');
    props.onChanged();
  });
  return (
    <>
      <h2>Device groups</h2>
      {props.groups.length === 0 ? (
        <p class="empty">No groups yet: policies can target the whole organization, a group or users.</p>
      ) : (
        <table>
          <thead>
            <tr>
              <th>Group</th>
              <th>Users</th>
              <th>Created</th>
            </tr>
          </thead>
          <tbody>
            {props.groups.map((g) => (
              <tr key={g.id}>
                <td>
                  {g.name} <span class="muted">({g.id})</span>
                </td>
                <td class="num">{g.userIds.length}</td>
                <td>{fmtDate(g.createdAt)}</td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
      {props.manage && (
        <form
          class="form row"
          noValidate
          aria-label="Create a group"
          onSubmit={(e) => {
            e.preventDefault();
            const bad = name.trim()
              ? name.length > 200
                ? 'At most 200 characters.'
                : undefined
              : 'Give the group a name.';
            setError(bad);
            if (!bad) void create.run();
          }}
        >
          <Field label="New group" error={error}>
            {(a) => <input {...a} value={name} onInput={(e) => setName(e.currentTarget.value)} />}
          </Field>
          <button type="submit" disabled={create.busy}>
            Create group
          </button>
          <ErrorBox error={create.error} />
        </form>
      )}
    </>
  );
}

export default function Enrollment() {
  const links = useLoad(() => api('get', '/api/dashboard/endpoint/enrollment'), []);
  const groups = useLoad(() => api('get', '/api/dashboard/endpoint/groups'), []);
  const [code, setCode] = useState<string | null>(null);
  const revoke = useAction(async (l: Link) => {
    await api('delete', '/api/dashboard/endpoint/enrollment/{id}', { path: { id: l.id } });
    links.reload();
  });
  const manage = canManage();
  const groupList = groups.data?.groups ?? [];
  return (
    <>
      <h1>Enrollment links</h1>
      <p>
        A device enrolls with a link's code from the extension's options page, or silently through your device
        management (docs/extension.md). The code is shown once.
      </p>
      {!manage && <ReadOnlyNote />}
      {code && <SecretOnce label="Enrollment code" secret={code} onDone={() => setCode(null)} />}
      {manage && !code && (
        <CreateLink
          groups={groupList}
          onCreated={(c) => {
            setCode(c);
            links.reload();
          }}
        />
      )}
      <ErrorBox error={revoke.error} />
      <Async state={links} isEmpty={(d) => d.links.length === 0} empty="No enrollment link yet.">
        {(d) => (
          <LinkTable
            links={d.links}
            groups={groupList}
            manage={manage}
            onRevoke={(l) => void revoke.run(l)}
          />
        )}
      </Async>
      <Async state={groups}>
        {(g) => <Groups groups={g.groups} manage={manage} onChanged={groups.reload} />}
      </Async>
    </>
  );
}
