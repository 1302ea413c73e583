import type { Status, ToBackground } from '../shared/messages.js';
import { aiSiteOf, DEFAULT_CONFIG, type EndpointConfig, protectionLocked } from '../shared/policy.js';

// The toolbar popup: enrollment state, organization, policy version, last sync, and protection on the
// current site (which the user may switch off for that site unless the organization enforces it).

const root = document.getElementById('status')!;
const ask = <T>(m: ToBackground) => chrome.runtime.sendMessage(m) as Promise<T>;

function row(dl: HTMLElement, k: string, v: string, cls = ''): void {
  const dt = document.createElement('dt');
  dt.textContent = k;
  const dd = document.createElement('dd');
  dd.textContent = v;
  if (cls) dd.className = cls;
  dl.append(dt, dd);
}

async function render(): Promise<void> {
  const s = await ask<Status>({ kind: 'status' });
  const [tab] = await chrome.tabs.query({ active: true, currentWindow: true }).catch(() => []);
  const host = tab?.url ? new URL(tab.url).hostname : '';
  root.replaceChildren();
  const dl = document.createElement('dl');
  row(
    dl,
    'Device',
    s.enrolled ? 'Enrolled' : 'Not enrolled: local protection only',
    s.enrolled ? 'ok' : 'warn',
  );
  if (s.organizationId) row(dl, 'Organization', s.organizationName ?? s.organizationId);
  if (s.serverUrl) row(dl, 'Server', s.serverUrl);
  row(dl, 'Policy version', String(s.configVersion));
  row(dl, 'Enforcement', s.enforcement);
  row(dl, 'Last sync', s.lastSync ? new Date(s.lastSync).toLocaleString() : 'never');
  if (s.forceMode) row(dl, 'Force mode', 'on: AI chats open the protected chat', 'warn');
  if (s.queued > 0) row(dl, 'Waiting to upload', String(s.queued));
  if (s.lastError) row(dl, 'Last error', s.lastError, 'err');
  row(dl, 'Version', s.version);
  root.append(dl);

  const config =
    ((await chrome.storage.local.get('config'))['config'] as EndpointConfig | undefined) ?? DEFAULT_CONFIG;
  // the built-in sites and the AI sites the organization's catalog or policy names
  const site = host ? aiSiteOf(host, config) : null;
  const box = document.createElement('div');
  box.className = 'box';
  if (site && protectionLocked(host, config)) {
    box.textContent = `${site.name}: protection on (required by your organization)`;
    box.className = 'box ok';
  } else if (site) {
    const off = s.disabledSites.includes(host);
    box.textContent = `${site.name}: protection ${off ? 'off' : 'on'} `;
    box.className = `box ${off ? 'warn' : 'ok'}`;
    const b = document.createElement('button');
    b.textContent = off ? 'Turn on' : 'Turn off';
    b.addEventListener('click', async () => {
      const cur = (await chrome.storage.local.get('disabledSites'))['disabledSites'] as string[] | undefined;
      const next = off ? (cur ?? []).filter((h) => h !== host) : [...new Set([...(cur ?? []), host])];
      await chrome.storage.local.set({ disabledSites: next });
      // The organization learns that protection was switched off (or back on) on this site.
      await ask({
        kind: 'log',
        log: { kind: 'override', domain: host, detail: { protection: off ? 'on' : 'off' } },
      });
      void render();
    });
    box.append(b);
  } else box.textContent = host ? `${host} is not an AI site Parapet knows.` : 'No page.';
  root.append(box);

  const actions = document.createElement('div');
  actions.className = 'box';
  const b = document.createElement('button');
  b.className = s.enrolled ? '' : 'primary';
  b.textContent = s.enrolled ? 'Sync now' : 'Enroll this device';
  b.addEventListener('click', async () => {
    if (s.enrolled) {
      await ask({ kind: 'sync' });
      void render();
    } else void chrome.runtime.openOptionsPage();
  });
  actions.append(b);
  root.append(actions);
}

void render();
