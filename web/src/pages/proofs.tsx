import { useState } from 'preact/hooks';
import { type Result, api } from '../api';
import { route, setQuery } from '../router';
import { canManage } from '../session';
import {
  Async,
  ConfirmButton,
  ErrorBox,
  type PageMeta,
  QueryPager,
  fmtDate,
  useAction,
  useLoad,
} from '../ui';

export const meta: PageMeta = { title: 'Proofs', order: 85 };

type Proof = Result<'/api/v1/eps/proof/list', 'get'>['proofs'][number];

function kb(bytes: number): string {
  return bytes < 1024 ? `${bytes} B` : `${(bytes / 1024).toFixed(1)} KB`;
}

const INTRO = (
  <p>
    PDF proofs the extension made when a user validated a protected send: the prompt with its tokens, the risk
    score and the SHA-256 the server checked on upload. They are kept for 90 days.
  </p>
);

/**
 * The proofs API is an administration API (owner, admin or an admin key: docs/proofs.md): a member or viewer
 * is told so instead of being sent to it for a 403 shown as an error.
 */
export default function Proofs() {
  if (!canManage()) {
    return (
      <>
        <h1>Proofs</h1>
        {INTRO}
        <p class="note" role="status">
          Proofs are for owners and admins only: they hold what people sent. Ask an owner or admin of the
          organization if you need one.
        </p>
      </>
    );
  }
  return <ProofList />;
}

function ProofList() {
  const q = route.value.searchParams;
  const deviceId = q.get('device') ?? '';
  const page = Math.max(1, Number(q.get('page') ?? '1') || 1);
  const [typed, setTyped] = useState(deviceId);
  const list = useLoad(
    () =>
      api('get', '/api/v1/eps/proof/list', {
        query: { page, perPage: 20, ...(deviceId ? { deviceId } : {}) },
      }),
    [deviceId, page],
  );
  const remove = useAction(async (p: Proof) => {
    await api('delete', '/api/v1/eps/proof/{id}', { path: { id: p.id } });
    list.reload();
  });
  return (
    <>
      <h1>Proofs</h1>
      {INTRO}
      <form
        class="row"
        aria-label="Proofs of a device"
        onSubmit={(e) => {
          e.preventDefault();
          setQuery({ device: typed.trim(), page: undefined });
        }}
      >
        <label for="proof-device">Device id</label>
        <input
          id="proof-device"
          value={typed}
          maxLength={100}
          placeholder="dev_…"
          onInput={(e) => setTyped(e.currentTarget.value)}
        />
        <button type="submit" class="secondary">
          Show
        </button>
      </form>
      <ErrorBox error={remove.error} />
      <Async
        state={list}
        isEmpty={(d) => d.proofs.length === 0}
        empty={deviceId ? 'No proof from this device.' : 'No proof uploaded yet.'}
      >
        {(d) => (
          <>
            <table>
              <thead>
                <tr>
                  <th>Proof</th>
                  <th>Device</th>
                  <th>Risk score</th>
                  <th>Tokens</th>
                  <th>Size</th>
                  <th>Uploaded</th>
                  <th>Actions</th>
                </tr>
              </thead>
              <tbody>
                {d.proofs.map((p) => (
                  <tr key={p.id}>
                    <td>
                      <code>{p.id}</code>
                      <div class="muted">
                        <code>{p.hash.slice(0, 19)}…</code>
                      </div>
                    </td>
                    <td>
                      <a href={`/proofs?device=${encodeURIComponent(p.deviceId)}`}>{p.deviceId}</a>
                    </td>
                    <td>
                      {p.metadata.riskScore}
                      {p.riskScoreMismatch && (
                        <div class="field-error">
                          does not match the declared tokens ({p.computedRiskScore ?? '?'})
                        </div>
                      )}
                    </td>
                    <td class="num">{p.metadata.tokenCount}</td>
                    <td class="num">{kb(p.sizeBytes)}</td>
                    <td>{fmtDate(p.uploadedAt)}</td>
                    <td class="actions">
                      <a
                        class="button secondary"
                        href={`/api/v1/eps/proof/${encodeURIComponent(p.id)}?download=1`}
                        download
                      >
                        Download<span class="visually-hidden"> {p.id}</span>
                      </a>
                      <ConfirmButton label="Delete" name={p.id} onConfirm={() => void remove.run(p)} />
                    </td>
                  </tr>
                ))}
              </tbody>
            </table>
            <QueryPager pagination={d.pagination} />
          </>
        )}
      </Async>
    </>
  );
}
