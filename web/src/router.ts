import { signal } from '@preact/signals';

/** The address bar as a signal: pages read `route.value`, links call navigate() instead of reloading. */
export const route = signal(new URL(location.href));

export function navigate(to: string, replace = false): void {
  const url = new URL(to, location.href);
  if (replace) history.replaceState(null, '', url);
  else history.pushState(null, '', url);
  route.value = url;
  window.scrollTo(0, 0);
}

/** Updates query parameters of the current page (filters, selected item) without a new history entry. */
export function setQuery(params: Record<string, string | undefined>): void {
  const url = new URL(route.value.href);
  for (const [k, v] of Object.entries(params)) {
    if (v === undefined || v === '') url.searchParams.delete(k);
    else url.searchParams.set(k, v);
  }
  navigate(url.pathname + url.search, true);
}

addEventListener('popstate', () => {
  route.value = new URL(location.href);
});

/** Same-origin link clicks become client-side navigation (modifier keys keep the browser's behaviour). */
export function onLinkClick(e: MouseEvent): void {
  const a = (e.target as Element | null)?.closest?.('a');
  if (!a || e.defaultPrevented || e.button !== 0 || e.metaKey || e.ctrlKey || e.shiftKey || e.altKey) return;
  const href = a.getAttribute('href');
  if (!href || !href.startsWith('/') || a.target || a.hasAttribute('download')) return;
  e.preventDefault();
  navigate(href);
}

/** The app's page paths (main.tsx registers them from pages/): a return address must be one of them. */
const pagePaths = new Set<string>();
export function registerPages(paths: readonly string[]): void {
  for (const p of paths) pagePaths.add(p);
}

// C0 controls, DEL and the backslash: browsers drop tabs and newlines from URLs and read '\' as '/', so
// '/\evil.example' or '/\tevil' would leave the origin where the string looked like a path.
const UNSAFE = /[\u0000-\u001f\u007f\\]/;

/**
 * Where to go after signing in: `next` only when it is a page of this app on this origin (path, query and
 * fragment kept), else '/'. An API path is refused too: the app would show it as "Not found", a reload
 * the API's JSON answer.
 */
export function safeNext(next: string | null): string {
  if (!next?.startsWith('/') || UNSAFE.test(next)) return '/';
  let url: URL;
  try {
    url = new URL(next, location.origin);
  } catch {
    return '/';
  }
  if (url.origin !== location.origin || !pagePaths.has(url.pathname)) return '/';
  return url.pathname + url.search + url.hash;
}
