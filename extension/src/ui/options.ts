import { parseEnrollment } from '../shared/enrollment.js';
import type { Status, ToBackground } from '../shared/messages.js';

// Enrollment by hand: an enrollment link (server address with the code after '#' or in ?code=) or the
// server address and the code. Devices deployed by policy enroll from managed storage instead.

const form = document.getElementById('enroll') as HTMLFormElement;
const result = document.getElementById('result')!;
const unenroll = document.getElementById('unenroll') as HTMLButtonElement;
const unenrollNote = document.getElementById('unenroll-note')!;
const ask = <T>(m: ToBackground) => chrome.runtime.sendMessage(m) as Promise<T & { error?: string }>;

async function show(): Promise<void> {
  const s = await ask<Status>({ kind: 'status' });
  result.textContent = s.enrolled
    ? `Enrolled as ${s.deviceId} in ${s.organizationId} (${s.serverUrl}).`
    : 'Not enrolled: the DLP bar and the injection check already run on this device with default settings.';
  result.className = s.enrolled ? 'ok' : 'warn';
  // Where the organization's config says its users may not unenroll, the button would only lead to the
  // server's refusal (403, which stays the guard: a config fetched before the setting changed still shows
  // the button): the page says who manages the enrollment instead.
  const noUnenroll = s.enrolled && !s.unenrollAllowed;
  unenroll.hidden = noUnenroll;
  unenrollNote.hidden = !noUnenroll;
  unenrollNote.textContent = noUnenroll
    ? `${s.organizationName ?? s.organizationId} manages this enrollment: its users may not unenroll their devices. Ask an administrator to remove this device.`
    : '';
}

form.addEventListener('submit', async (e) => {
  e.preventDefault();
  const data = new FormData(form);
  try {
    const { serverUrl, code } = parseEnrollment(String(data.get('link')), String(data.get('code') ?? ''));
    result.textContent = 'Enrolling…';
    const r = await ask<Status>({ kind: 'enroll', serverUrl, code, name: String(data.get('name') ?? '') });
    if (r.error) throw new Error(r.error);
    await show();
  } catch (err) {
    result.textContent = `Enrollment failed: ${err instanceof Error ? err.message : err}`;
    result.className = 'err';
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
  const r = await ask<Status>({ kind: 'unenroll' });
  if (r.error) {
    result.textContent = `Unenrolling failed: ${r.error}`;
    result.className = 'err';
    return;
  }
  await show();
});

void show();
