import type { ComponentChildren, JSX } from 'preact';
import { useCallback, useEffect, useRef, useState } from 'preact/hooks';
import { ApiError } from './api';
import { setQuery } from './router';

/** What a page file exports besides its default component: adding a page is adding one file in pages/. */
export interface PageMeta {
  title: string;
  /** Position in the navigation; pages without one (sign-in) are not listed. */
  order?: number;
  /** The page needs no session (sign-in). */
  public?: boolean;
}

export interface LoadState<T> {
  data: T | undefined;
  error: unknown;
  loading: boolean;
  reload(): void;
}

/** Loads data for a page and reloads when a dependency changes; a stale answer never overwrites a newer one. */
export function useLoad<T>(load: () => Promise<T>, deps: unknown[]): LoadState<T> {
  const [state, setState] = useState<{ data: T | undefined; error: unknown; loading: boolean }>({
    data: undefined,
    error: undefined,
    loading: true,
  });
  const [tick, setTick] = useState(0);
  const seq = useRef(0);
  useEffect(() => {
    const mine = ++seq.current;
    setState((s) => ({ ...s, loading: true, error: undefined }));
    load().then(
      (data) => mine === seq.current && setState({ data, error: undefined, loading: false }),
      (error: unknown) => mine === seq.current && setState({ data: undefined, error, loading: false }),
    );
  }, [...deps, tick]);
  return { ...state, reload: useCallback(() => setTick((t) => t + 1), []) };
}

/** Runs a form's request: busy while it runs, the server's error body kept for display. */
export function useAction<A extends unknown[], R>(fn: (...args: A) => Promise<R>) {
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<unknown>(undefined);
  const run = async (...args: A): Promise<R | undefined> => {
    setBusy(true);
    setError(undefined);
    try {
      return await fn(...args);
    } catch (err) {
      setError(err);
      return undefined;
    } finally {
      setBusy(false);
    }
  };
  return { busy, error, run, clear: () => setError(undefined) };
}

export function ErrorBox({ error }: { error: unknown }) {
  if (error === undefined || error === null) return null;
  if (error instanceof ApiError) {
    return (
      <div class="error" role="alert">
        <strong>{error.body.message}</strong>
        <span class="muted">
          {' '}
          ({error.status} {error.body.error}
          {error.body.requestId ? `, request ${error.body.requestId}` : ''})
        </span>
      </div>
    );
  }
  return (
    <div class="error" role="alert">
      <strong>{error instanceof Error ? error.message : String(error)}</strong>
    </div>
  );
}

export function Loading({ label = 'Loading…' }: { label?: string }) {
  return (
    <p class="loading" role="status" aria-live="polite">
      {label}
    </p>
  );
}

export function Empty({ children }: { children: ComponentChildren }) {
  return <p class="empty">{children}</p>;
}

/** The three states every list shares, then the list itself. */
export function Async<T>(props: {
  state: LoadState<T>;
  isEmpty?: (data: T) => boolean;
  empty?: ComponentChildren;
  children: (data: T) => ComponentChildren;
}) {
  const { state } = props;
  if (state.error !== undefined) return <ErrorBox error={state.error} />;
  if (state.data === undefined) return <Loading />;
  if (props.isEmpty?.(state.data)) return <Empty>{props.empty ?? 'Nothing here yet.'}</Empty>;
  return <>{props.children(state.data)}</>;
}

export const PAGE_SIZE = 20;

/** Client-side pages of a list the server returns whole (keys, users): the same pager as server pages. */
export function usePages<T>(rows: readonly T[], size = PAGE_SIZE) {
  const [page, setPage] = useState(1);
  const pages = Math.max(1, Math.ceil(rows.length / size));
  const current = Math.min(page, pages);
  return {
    rows: rows.slice((current - 1) * size, current * size),
    pager: <Pager page={current} pages={pages} total={rows.length} onPage={setPage} />,
  };
}

export function Pager(props: { page: number; pages: number; total: number; onPage(p: number): void }) {
  if (props.pages <= 1) return <p class="muted">{props.total} in all</p>;
  return (
    <nav class="pager" aria-label="Pages">
      <button type="button" disabled={props.page <= 1} onClick={() => props.onPage(props.page - 1)}>
        Previous
      </button>
      <span>
        Page {props.page} of {props.pages} ({props.total} in all)
      </span>
      <button type="button" disabled={props.page >= props.pages} onClick={() => props.onPage(props.page + 1)}>
        Next
      </button>
    </nav>
  );
}

let fieldIds = 0;

/** A labelled form field with its validation message tied to the input for screen readers. */
export function Field(props: {
  label: string;
  error?: string | undefined;
  hint?: string;
  children: (attrs: { id: string; 'aria-invalid'?: 'true'; 'aria-describedby'?: string }) => JSX.Element;
}) {
  const id = useRef(`f${++fieldIds}`).current;
  const describedBy = props.error ? `${id}-err` : props.hint ? `${id}-hint` : undefined;
  return (
    <div class="field">
      <label for={id}>{props.label}</label>
      {props.children({
        id,
        ...(props.error ? { 'aria-invalid': 'true' as const } : {}),
        ...(describedBy ? { 'aria-describedby': describedBy } : {}),
      })}
      {props.error ? (
        <span class="field-error" id={`${id}-err`}>
          {props.error}
        </span>
      ) : props.hint ? (
        <span class="muted" id={`${id}-hint`}>
          {props.hint}
        </span>
      ) : null}
    </div>
  );
}

/** A secret shown once (API key, webhook secret, generated password), with a copy button. */
export function SecretOnce(props: { label: string; secret: string; onDone(): void }) {
  const [copied, setCopied] = useState(false);
  return (
    <section class="secret" aria-label={props.label}>
      <h3>{props.label}</h3>
      <p>Copy it now: it is shown only this once and cannot be read again.</p>
      <code class="secret-value" data-testid="secret">
        {props.secret}
      </code>
      <div class="row">
        <button
          type="button"
          onClick={async () => {
            await navigator.clipboard.writeText(props.secret);
            setCopied(true);
          }}
        >
          {copied ? 'Copied' : 'Copy'}
        </button>
        <button type="button" class="secondary" onClick={props.onDone}>
          Done
        </button>
      </div>
    </section>
  );
}

export function fmtDate(iso: string | null | undefined): string {
  if (!iso) return '—';
  const d = new Date(iso);
  return Number.isNaN(d.getTime()) ? iso : d.toISOString().replace('T', ' ').slice(0, 16);
}

export function lines(text: string): string[] {
  return text
    .split(/\r?\n/)
    .map((l) => l.trim())
    .filter((l) => l.length > 0);
}

export function ReadOnlyNote() {
  return <p class="note">Only owners and admins can change this; you see it read-only.</p>;
}

/** A destructive action behind a confirmation, named for screen readers ("Revoke" + the item's name). */
export function ConfirmButton(props: { label: string; name: string; question?: string; onConfirm(): void }) {
  return (
    <button
      type="button"
      class="danger"
      onClick={() => confirm(props.question ?? `${props.label} ${props.name}?`) && props.onConfirm()}
    >
      {props.label}
      <span class="visually-hidden"> {props.name}</span>
    </button>
  );
}

/** A period picker bound to a query parameter, as the overview and statistics pages use it. */
export function PeriodSelect(props: {
  id: string;
  value: string;
  options: Record<string, string>;
  onChange(v: string): void;
}) {
  return (
    <div class="row">
      <label for={props.id}>Period</label>
      <select id={props.id} value={props.value} onChange={(e) => props.onChange(e.currentTarget.value)}>
        {Object.entries(props.options).map(([k, label]) => (
          <option key={k} value={k}>
            {label}
          </option>
        ))}
      </select>
    </div>
  );
}

/** The pager of a server-paged list whose page lives in the address bar (`?page=`). */
export function QueryPager(props: { pagination: { total: number; page: number; perPage: number } }) {
  const { total, page, perPage } = props.pagination;
  return (
    <Pager
      page={page}
      pages={Math.max(1, Math.ceil(total / perPage))}
      total={total}
      onPage={(p) => setQuery({ page: String(p) })}
    />
  );
}

/** Host names as the server accepts them (endpoint.schemas.ts): labels, an optional leading `*.`. */
export const HOST_NAME =
  /^(\*\.)?([A-Za-z0-9]([A-Za-z0-9-]{0,61}[A-Za-z0-9])?\.)+[A-Za-z][A-Za-z0-9-]{0,61}[A-Za-z0-9]$/;

/** A list filter bound to a query parameter: "any" clears it, a change goes back to the first page. */
export function FilterSelect(props: {
  id: string;
  label: string;
  param: string;
  value: string;
  options: readonly string[];
}) {
  return (
    <>
      <label for={props.id}>{props.label}</label>
      <select
        id={props.id}
        value={props.value}
        onChange={(e) => setQuery({ [props.param]: e.currentTarget.value, page: undefined })}
      >
        <option value="">any</option>
        {props.options.map((o) => (
          <option key={o} value={o}>
            {o}
          </option>
        ))}
      </select>
    </>
  );
}
