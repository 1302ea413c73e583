import type { ToBackground } from '../shared/messages.js';
import { type EndpointConfig, HOST_NAME } from '../shared/policy.js';

// The block page of a blocked AI service, with the organization's message. Under enforcement "warn" the
// user may continue (allowed until the browser closes, and logged).

// Any page may open this one (it is web-accessible, for the block rule's redirect) with any fragment: only
// a host name counts, anything else is shown as no host and neither logged nor offered to continue to.
const named = (() => {
  try {
    return decodeURIComponent(location.hash.slice(1));
  } catch {
    return '';
  }
})();
const host = HOST_NAME.test(named.toLowerCase()) ? named.toLowerCase() : '';
const ask = (m: ToBackground) => chrome.runtime.sendMessage(m);

async function render(): Promise<void> {
  const { config } = (await chrome.storage.local.get('config')) as { config?: EndpointConfig };
  const page = config?.dns?.blockPage;
  document.getElementById('title')!.textContent =
    `${host || 'This AI service'} is blocked by your organization`;
  document.getElementById('message')!.textContent =
    page?.message || 'Your organization does not allow this AI service. Use an approved service instead.';
  if (page?.contactEmail) document.getElementById('contact')!.textContent = `Questions: ${page.contactEmail}`;
  if (host) {
    void ask({ kind: 'stat', domain: host, blockedReason: 'unapproved_service' });
    void ask({
      kind: 'log',
      log: { kind: 'blocked', domain: host, detail: { reason: 'unapproved_service' } },
    });
  }
  if (config?.policy.enforcement === 'warn' && host) {
    const b = document.createElement('button');
    b.textContent = 'Continue anyway';
    b.addEventListener('click', async () => {
      await ask({ kind: 'continue-blocked', host });
      await ask({
        kind: 'log',
        log: { kind: 'override', domain: host, detail: { reason: 'unapproved_service' } },
      });
      location.href = `https://${host}/`;
    });
    document.getElementById('actions')!.append(b);
  }
}

void render();
