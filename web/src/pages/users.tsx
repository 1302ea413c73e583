import { useState } from 'preact/hooks';
import { type Result, api } from '../api';
import { canManage, session } from '../session';
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

export const meta: PageMeta = { title: 'Users and roles', order: 30 };

type User = Result<'/api/dashboard/users', 'get'>['users'][number];
const ROLES = ['owner', 'admin', 'member', 'viewer'] as const;
type Role = (typeof ROLES)[number];
/** The options of both role selects (adding a user, changing a role); fresh nodes for each select. */
const roleOptions = () =>
  ROLES.map((r) => (
    <option key={r} value={r}>
      {r}
    </option>
  ));

/** The server's limit of a user's name (orgs.routes CreateUserBody). */
const NAME_MAX = 200;

function Invite(props: { onStart(): void; onDone(password?: string): void }) {
  const [email, setEmail] = useState('');
  const [name, setName] = useState('');
  const [role, setRole] = useState<Role>('member');
  const [errors, setErrors] = useState<{ email?: string; name?: string }>({});
  const create = useAction(async () => {
    const res = await api('post', '/api/dashboard/users', {
      body: { email: email.trim(), role, ...(name.trim() ? { name: name.trim() } : {}) },
    });
    setEmail('');
    setName('');
    props.onDone(res.password);
  });
  return (
    <form
      class="form"
      noValidate
      aria-label="Add a user"
      onSubmit={(e) => {
        e.preventDefault();
        // A new add starts: the previous user's initial password goes, so it never stands above this
        // add's refusal as if it were the new user's.
        props.onStart();
        const found: typeof errors = {};
        if (!/^[^\s@]+@[^\s@]+\.[^\s@]+$/.test(email.trim())) found.email = 'Enter a valid e-mail address.';
        if (name.trim().length > NAME_MAX) found.name = `At most ${NAME_MAX} characters.`;
        setErrors(found);
        if (Object.keys(found).length === 0) void create.run();
      }}
    >
      <h2>Add a user</h2>
      <div class="grid2">
        <Field label="E-mail" error={errors.email}>
          {(a) => (
            <input {...a} type="email" value={email} onInput={(e) => setEmail(e.currentTarget.value)} />
          )}
        </Field>
        <Field label="Name (optional)" error={errors.name}>
          {(a) => <input {...a} value={name} onInput={(e) => setName(e.currentTarget.value)} />}
        </Field>
        <Field label="Role">
          {(a) => (
            <select {...a} value={role} onChange={(e) => setRole(e.currentTarget.value as Role)}>
              {roleOptions()}
            </select>
          )}
        </Field>
      </div>
      <ErrorBox error={create.error} />
      <button type="submit" disabled={create.busy}>
        Add user
      </button>
    </form>
  );
}

export default function Users() {
  const state = useLoad(() => api('get', '/api/dashboard/users'), []);
  const [password, setPassword] = useState<string>();
  const [changed, setChanged] = useState<string>();
  const remove = useAction(async (u: User) => {
    setChanged(undefined);
    await api('delete', '/api/dashboard/users/{id}', { path: { id: u.id } });
    state.reload();
  });
  const changeRole = useAction(async (u: User, role: Role) => {
    setChanged(undefined);
    const res = await api('patch', '/api/dashboard/users/{id}', { path: { id: u.id }, body: { role } });
    setChanged(`${res.user.email} is now ${res.user.role}.`);
    state.reload();
  });
  const manage = canManage();
  return (
    <>
      <h1>Users and roles</h1>
      <p class="muted">
        Owners and admins manage keys, settings, webhooks, SIEM and force mode; members use the product;
        viewers read. Only an owner makes or unmakes an owner, and nobody changes their own role.
      </p>
      {!manage && <ReadOnlyNote />}
      {password && (
        <SecretOnce
          label="Initial password of the new user"
          secret={password}
          onDone={() => setPassword(undefined)}
        />
      )}
      {manage && (
        <Invite
          onStart={() => setPassword(undefined)}
          onDone={(p) => {
            setPassword(p);
            state.reload();
          }}
        />
      )}
      <ErrorBox error={remove.error} />
      <ErrorBox error={changeRole.error} />
      {changed && (
        <p class="ok" role="status">
          {changed}
        </p>
      )}
      <Async state={state} isEmpty={(d) => d.users.length === 0} empty="No users.">
        {(d) => (
          <UserTable
            users={d.users}
            manage={manage}
            busy={changeRole.busy || remove.busy}
            onRemove={(u) => void remove.run(u)}
            onRole={(u, role) => void changeRole.run(u, role)}
          />
        )}
      </Async>
    </>
  );
}

/**
 * The role of one user, changed in place. Checked here: a role of the list, different from the current one.
 * Who may grant which role (only an owner makes or unmakes an owner) is the server's rule: its refusal is
 * shown above the table, so the page never has to keep a copy of the rules in step.
 */
function RolePicker(props: { user: User; busy: boolean; onRole(u: User, role: Role): void }) {
  const [role, setRole] = useState(props.user.role);
  const [error, setError] = useState<string>();
  return (
    <form
      class="row inline-picker"
      noValidate
      onSubmit={(e) => {
        e.preventDefault();
        const bad = !ROLES.includes(role as Role)
          ? 'Choose a role of the list.'
          : role === props.user.role
            ? `Already ${role}: choose another role.`
            : undefined;
        setError(bad);
        if (!bad) props.onRole(props.user, role as Role);
      }}
    >
      <Field label={`Role of ${props.user.email}`} error={error}>
        {(a) => (
          <select {...a} value={role} onChange={(e) => setRole(e.currentTarget.value)}>
            {roleOptions()}
          </select>
        )}
      </Field>
      <button type="submit" class="secondary" disabled={props.busy}>
        Change role<span class="visually-hidden"> of {props.user.email}</span>
      </button>
    </form>
  );
}

function UserTable(props: {
  users: User[];
  manage: boolean;
  busy: boolean;
  onRemove(u: User): void;
  onRole(u: User, role: Role): void;
}) {
  const { rows, pager } = usePages(props.users);
  const me = session.value?.user.id;
  return (
    <>
      <table>
        <thead>
          <tr>
            <th>E-mail</th>
            <th>Name</th>
            <th>Role</th>
            <th>Since</th>
            {props.manage && <th>Actions</th>}
          </tr>
        </thead>
        <tbody>
          {rows.map((u) => (
            <tr key={u.id}>
              <td>
                {u.email}
                {/* the password they were given is still theirs to replace (docs/auth.md) */}
                {u.mustChangePassword && <div class="muted">must change the password given</div>}
              </td>
              <td>{u.name}</td>
              <td>
                {props.manage && u.id !== me ? (
                  <RolePicker key={`${u.id}-${u.role}`} user={u} busy={props.busy} onRole={props.onRole} />
                ) : (
                  u.role
                )}
              </td>
              <td>{fmtDate(u.createdAt)}</td>
              {props.manage && (
                <td>
                  {u.id !== me && (
                    <button
                      type="button"
                      class="danger"
                      onClick={() => confirm(`Remove ${u.email}?`) && props.onRemove(u)}
                    >
                      Remove<span class="visually-hidden"> {u.email}</span>
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
