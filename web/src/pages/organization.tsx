import { useState } from 'preact/hooks';
import { api } from '../api';
import { canManage } from '../session';
import { Async, ErrorBox, Field, type PageMeta, fmtDate, useAction, useLoad } from '../ui';

export const meta: PageMeta = { title: 'Organization', order: 35 };

/** Owners and admins rename the organization; its plan and products are set by the operator (CLI). */
function Rename(props: { name: string; onSaved(): void }) {
  const [name, setName] = useState(props.name);
  const [error, setError] = useState<string>();
  const save = useAction(async () => {
    await api('patch', '/api/dashboard/organization', { body: { name: name.trim() } });
    props.onSaved();
  });
  return (
    <form
      class="form"
      noValidate
      aria-label="Rename the organization"
      onSubmit={(e) => {
        e.preventDefault();
        const bad = !name.trim()
          ? 'Enter a name.'
          : name.trim().length > 200
            ? 'At most 200 characters.'
            : undefined;
        setError(bad);
        if (!bad) void save.run();
      }}
    >
      <Field label="Organization name" error={error}>
        {(a) => <input {...a} value={name} onInput={(e) => setName(e.currentTarget.value)} />}
      </Field>
      <ErrorBox error={save.error} />
      <button type="submit" disabled={save.busy}>
        Rename
      </button>
    </form>
  );
}

export default function Organization() {
  const state = useLoad(() => api('get', '/api/dashboard/organization'), []);
  const manage = canManage();
  return (
    <>
      <h1>Organization</h1>
      {manage && state.data && <Rename key={state.data.name} name={state.data.name} onSaved={state.reload} />}
      <Async state={state}>
        {(o) => (
          <table>
            <tbody>
              <tr>
                <th scope="row">Name</th>
                <td>{o.name}</td>
              </tr>
              <tr>
                <th scope="row">Identifier</th>
                <td>
                  <code>{o.id}</code>
                </td>
              </tr>
              <tr>
                <th scope="row">Plan</th>
                <td>{o.plan}</td>
              </tr>
              <tr>
                <th scope="row">Products</th>
                <td>{o.products.join(', ') || '—'}</td>
              </tr>
              <tr>
                <th scope="row">Quota renews on day</th>
                <td>{o.renewalDay}</td>
              </tr>
              <tr>
                <th scope="row">Created</th>
                <td>{fmtDate(o.createdAt)}</td>
              </tr>
            </tbody>
          </table>
        )}
      </Async>
    </>
  );
}
