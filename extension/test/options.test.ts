import assert from 'node:assert/strict';
import { before, describe, it } from 'node:test';
import type { Status } from '../src/shared/messages.js';

// The options page (src/ui/options.ts) over a stand-in page and worker: which elements it shows, and what
// they say, as the worker's answers and the storage's change events arrive. Every answer of the stand-in is
// already settled, so one turn of the event loop lets the page finish what an event started.

interface El {
  textContent: string;
  className: string;
  hidden: boolean;
  listeners: Record<string, (e: unknown) => Promise<void> | void>;
  addEventListener(type: string, fn: (e: unknown) => Promise<void> | void): void;
}

const els: Record<string, El> = {};
const el = (id: string): El =>
  (els[id] ??= {
    textContent: '',
    className: '',
    hidden: false,
    listeners: {},
    addEventListener(type, fn) {
      this.listeners[type] = fn;
    },
  });

const ENROLLED: Status = {
  enrolled: true,
  serverUrl: 'https://parapet.test',
  organizationId: 'org_a',
  deviceId: 'dev_a',
  configVersion: 1,
  queued: 0,
  forceMode: false,
  enforcement: 'block',
  disabledSites: [],
  version: '9.9.9',
  unenrollAllowed: true,
  managed: false,
};
let status: Status = ENROLLED;
let unenrollAnswer: { error?: string } = {};
let storageChanged: (changes: Record<string, unknown>, area: string) => void = () => undefined;
const settle = () => new Promise((r) => setImmediate(r));

before(async () => {
  Object.assign(globalThis, {
    document: { getElementById: el },
    confirm: () => true,
    chrome: {
      runtime: {
        async sendMessage(m: { kind: string }) {
          if (m.kind === 'status') return structuredClone(status);
          if (m.kind === 'unenroll') return unenrollAnswer;
          throw new Error(`unexpected ${m.kind}`);
        },
      },
      storage: {
        onChanged: {
          addListener(fn: typeof storageChanged) {
            storageChanged = fn;
          },
        },
      },
    },
  });
  await import('../src/ui/options.js');
  await settle();
});

/** The visible element that says `text`, if any. */
const shown = (text: RegExp) => Object.values(els).find((e) => !e.hidden && text.test(e.textContent));

describe('the options page', () => {
  it("keeps an error on show when the storage changes before it was read (it used to be replaced by the page's status)", async () => {
    assert.ok(shown(/^Enrolled as dev_a in org_a/));
    unenrollAnswer = { error: 'Still enrolled: the server must be told before this device leaves.' };
    await el('unenroll').listeners['click']!({});
    assert.ok(shown(/^Unenrolling failed: Still enrolled: the server must be told/));
    // a change lands just after (a config fetched by the heartbeat)
    storageChanged({ config: {} }, 'local');
    await settle();
    assert.ok(shown(/^Unenrolling failed: Still enrolled: the server must be told/), 'the error was wiped');
  });

  it('offers no enrollment by hand where the deployment enrolls the device, even before it holds a token', async () => {
    status = { ...ENROLLED, enrolled: false, managed: true };
    delete status.deviceId;
    storageChanged({}, 'managed');
    await settle();
    assert.equal(el('enroll').hidden, true, 'the enrollment form is offered');
    assert.ok(shown(/^Your organization's deployment enrolls this device: it is not enrolled by hand/));
    status = ENROLLED;
    storageChanged({}, 'managed');
    await settle();
    assert.equal(el('enroll').hidden, false);
    assert.equal(el('enroll-note').hidden, true);
  });
});
