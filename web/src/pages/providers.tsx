import { useState } from 'preact/hooks';
import { api } from '../api';
import { canManage } from '../session';
import { Async, ErrorBox, Field, type PageMeta, ReadOnlyNote, fmtDate, useAction, useLoad } from '../ui';

export const meta: PageMeta = { title: 'Provider keys', order: 50 };

function KeyForm(props: { providers: string[]; onSaved(): void }) {
  const [provider, setProvider] = useState(props.providers[0] ?? '');
  const [apiKey, setApiKey] = useState('');
  const [baseUrl, setBaseUrl] = useState('');
  const [errors, setErrors] = useState<{ key?: string; url?: string }>({});
  const save = useAction(async () => {
    await api('put', '/api/dashboard/gateway/providers/{provider}', {
      path: { provider },
      body: { apiKey: apiKey.trim(), ...(baseUrl.trim() ? { baseUrl: baseUrl.trim() } : {}) },
    });
    setApiKey('');
    props.onSaved();
  });
  return (
    <form
      class="form"
      noValidate
      aria-label="Store a provider key"
      onSubmit={(e) => {
        e.preventDefault();
        const found: typeof errors = {};
        if (!apiKey.trim()) found.key = "Paste the provider's API key.";
        if (baseUrl.trim() && !/^https:\/\/\S+$/.test(baseUrl.trim())) found.url = 'An https:// URL.';
        if (provider === 'azure' && !baseUrl.trim()) found.url = 'Azure needs the resource URL.';
        setErrors(found);
        if (Object.keys(found).length === 0) void save.run();
      }}
    >
      <h2>Store a key</h2>
      <div class="grid2">
        <Field label="Provider">
          {(a) => (
            <select {...a} value={provider} onChange={(e) => setProvider(e.currentTarget.value)}>
              {props.providers.map((p) => (
                <option key={p} value={p}>
                  {p}
                </option>
              ))}
            </select>
          )}
        </Field>
        <Field label="API key" error={errors.key} hint="sealed at rest; never shown again">
          {(a) => (
            <input
              {...a}
              type="password"
              autocomplete="off"
              value={apiKey}
              onInput={(e) => setApiKey(e.currentTarget.value)}
            />
          )}
        </Field>
        <Field label="Base URL (optional)" error={errors.url}>
          {(a) => <input {...a} value={baseUrl} onInput={(e) => setBaseUrl(e.currentTarget.value)} />}
        </Field>
      </div>
      <ErrorBox error={save.error} />
      <button type="submit" disabled={save.busy}>
        Save key
      </button>
    </form>
  );
}

/**
 * The provider keys API is for owners and admins: a member or viewer is told so, and the page calls nothing
 * (as /proofs), where loading the list first answered 403 and logged an error in the console.
 */
export default function Providers() {
  if (!canManage()) {
    return (
      <>
        <h1>Provider keys</h1>
        <ReadOnlyNote />
        <p>The keys the protected chat uses are visible to owners and admins only.</p>
      </>
    );
  }
  return <ProviderList />;
}

function ProviderList() {
  const state = useLoad(() => api('get', '/api/dashboard/gateway/providers'), []);
  const remove = useAction(async (provider: string) => {
    await api('delete', '/api/dashboard/gateway/providers/{provider}', { path: { provider } });
    state.reload();
  });
  return (
    <>
      <h1>Provider keys</h1>
      <p class="muted">
        The keys the protected chat calls model providers with. The offline model needs none.
      </p>
      <ErrorBox error={remove.error} />
      <Async state={state} isEmpty={(d) => d.providers.length === 0} empty="No providers.">
        {(d) => (
          <>
            <KeyForm
              providers={d.providers.filter((p) => !p.builtIn).map((p) => p.provider)}
              onSaved={state.reload}
            />
            <table>
              <thead>
                <tr>
                  <th>Provider</th>
                  <th>Key</th>
                  <th>Base URL</th>
                  <th>Updated</th>
                  <th>Actions</th>
                </tr>
              </thead>
              <tbody>
                {d.providers.map((p) => (
                  <tr key={p.provider}>
                    <td>{p.provider}</td>
                    <td>{p.builtIn ? 'built in' : p.configured ? `…${p.keyHint ?? ''}` : 'not set'}</td>
                    <td>{p.baseUrl ?? '—'}</td>
                    <td>{fmtDate(p.updatedAt)}</td>
                    <td>
                      {p.configured && !p.builtIn && (
                        <button
                          type="button"
                          class="danger"
                          onClick={() =>
                            confirm(`Remove the ${p.provider} key?`) && void remove.run(p.provider)
                          }
                        >
                          Remove<span class="visually-hidden"> {p.provider} key</span>
                        </button>
                      )}
                    </td>
                  </tr>
                ))}
              </tbody>
            </table>
          </>
        )}
      </Async>
    </>
  );
}
