import { api } from '../api';
import { canManage } from '../session';
import { Async, ErrorBox, type PageMeta, ReadOnlyNote, fmtDate, useAction, useLoad } from '../ui';

export const meta: PageMeta = { title: 'Force mode', order: 55 };

export default function Force() {
  const state = useLoad(() => api('get', '/api/dashboard/gateway/force'), []);
  const toggle = useAction(async (enabled: boolean) => {
    await api('post', '/api/dashboard/gateway/force', { body: { enabled } });
    state.reload();
  });
  const manage = canManage();
  return (
    <>
      <h1>Force mode</h1>
      <p class="muted">
        When on, direct provider-proxy calls are refused (403 gateway_force_blocked) and the browser extension
        sends people to the protected chat.
      </p>
      {!manage && <ReadOnlyNote />}
      <Async state={state}>
        {(f) => (
          <>
            <p>
              Force mode is{' '}
              <strong data-testid="force-state" class={f.enabled ? 'bad' : 'ok'}>
                {f.enabled ? 'on' : 'off'}
              </strong>
              {f.enabled && f.enabledAt ? ` since ${fmtDate(f.enabledAt)}` : ''}.
            </p>
            <p class="muted">Allowed endpoints: {f.config.allowedEndpoints.join(', ') || '—'}</p>
            <ErrorBox error={toggle.error} />
            {manage && (
              <button type="button" disabled={toggle.busy} onClick={() => void toggle.run(!f.enabled)}>
                {f.enabled ? 'Turn force mode off' : 'Turn force mode on'}
              </button>
            )}
          </>
        )}
      </Async>
    </>
  );
}
