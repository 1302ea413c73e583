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
