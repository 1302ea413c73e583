import { parseEnrollment } from '../shared/enrollment.js';
import type { Status, ToBackground } from '../shared/messages.js';

// Enrollment by hand: an enrollment link (server address with the code after '#' or in ?code=) or the
// server address and the code. Devices deployed by policy enroll from managed storage instead.

const form = document.getElementById('enroll') as HTMLFormElement;
const result = document.getElementById('result')!;
const unenroll = document.getElementById('unenroll') as HTMLButtonElement;
const unenrollNote = document.getElementById('unenroll-note')!;
const enrollNote = document.getElementById('enroll-note')!;
const ask = <T>(m: ToBackground) => chrome.runtime.sendMessage(m) as Promise<T & { error?: string }>;

let asked = 0;
/**
 * An error of the person's last action is on show: the page following the storage (show() from the
 * change listener) leaves it there until their next action, or a change landing just after a failure
 * (a config, a reset) would wipe the message before it was read.
 */
let failed = false;

function fail(text: string): void {
  result.textContent = text;
  result.className = 'err';
  failed = true;
}

async function show(): Promise<void> {
  const mine = ++asked;
  const s = await ask<Status>({ kind: 'status' });
  // Storage changes come in bursts: an older answer arriving after a newer one would show a past state.
  if (mine !== asked) return;
  if (!failed) {
    result.textContent = s.enrolled
      ? `Enrolled as ${s.deviceId} in ${s.organizationId} (${s.serverUrl}).`
      : 'Not enrolled: the DLP bar and the injection check already run on this device with default settings.';
    result.className = s.enrolled ? 'ok' : 'warn';
  }
  // The deployment enrolls this device (managed configuration), with or without a token yet: the worker
  // refuses an enrollment by hand, so the form is not offered.
  form.hidden = s.managed;
  enrollNote.hidden = !s.managed;
  enrollNote.textContent = s.managed
    ? s.enrolled
      ? "Your organization's deployment enrolls this device: it is not enrolled by hand."
      : "Your organization's deployment enrolls this device: it is not enrolled by hand, and enrolls itself once its server can be reached."
    : '';
  // Where the worker would refuse anyway, the button would only lead to the refusal: the page says who
  // manages the enrollment instead. A deployment's enrollment (managed configuration) is never the user's
  // to leave. Where the organization's config says its users may not unenroll, the server's 403 stays the
  // guard (a config fetched before the setting changed still shows the button).
  const managed = s.enrolled && s.managed;
  const noUnenroll = managed || (s.enrolled && !s.unenrollAllowed);
  unenroll.hidden = noUnenroll;
  unenrollNote.hidden = !noUnenroll;
  unenrollNote.textContent = managed
    ? "Your organization's deployment enrolled this device: only an administrator can remove its enrollment."
    : noUnenroll
      ? `${s.organizationName ?? s.organizationId} manages this enrollment: its users may not unenroll their devices. Ask an administrator to remove this device.`
      : '';
}

// The page follows the device as it changes (an enrollment from another page or from the managed
// configuration, a reset after a revocation, a config that changes allowUserUnenroll), not only at its own
// next action: a button left from an earlier state would offer what the worker then refuses.
const SHOWN = ['deviceToken', 'deviceId', 'organizationId', 'serverUrl', 'config'];
chrome.storage.onChanged.addListener((changes, area) => {
  if (area === 'managed' || (area === 'local' && SHOWN.some((k) => k in changes))) void show();
});

form.addEventListener('submit', async (e) => {
  e.preventDefault();
  const data = new FormData(form);
  try {
    const { serverUrl, code } = parseEnrollment(String(data.get('link')), String(data.get('code') ?? ''));
    failed = false;
    result.textContent = 'Enrolling…';
    result.className = '';
    const r = await ask<Status>({ kind: 'enroll', serverUrl, code, name: String(data.get('name') ?? '') });
    if (r.error) throw new Error(r.error);
    await show();
  } catch (err) {
    fail(`Enrollment failed: ${err instanceof Error ? err.message : err}`);
  }
});

// Leaving the organization's policy takes a confirmation; the administrators are told before the device
// drops it, and the worker refuses on a device deployed by policy or while the server is out of reach.
unenroll.addEventListener('click', async () => {
  const s = await ask<Status>({ kind: 'status' });
  if (!s.enrolled) return show();
  const ok = confirm(
    `Leave the policy of ${s.organizationName ?? s.organizationId}? Its administrators are told that this device unenrolled, and only the built-in protection stays.`,
  );
  if (!ok) return;
  failed = false;
  const r = await ask<Status>({ kind: 'unenroll' });
  if (r.error) {
    fail(`Unenrolling failed: ${r.error}`);
    return;
  }
  await show();
});

void show();
