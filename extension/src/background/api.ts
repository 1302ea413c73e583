import { resetToLocal } from './local.js';
import { read } from './store.js';

// The device operations of the endpoint backend (docs/endpoint.md), with the device token.

export class ApiError extends Error {
  constructor(
    readonly status: number,
    readonly body: { error?: string; message?: string; reenroll?: boolean } | null,
  ) {
    super(body?.message ?? `HTTP ${status}`);
  }
  get retryable(): boolean {
    return this.status === 0 || this.status === 429 || this.status >= 500;
  }
}

/**
 * A call with the device's token. The answer names that token: a caller that writes what the answer says
 * checks first that it is still the device's (the device may have enrolled again meanwhile).
 */
export async function call(
  path: string,
  init: { method?: string; body?: unknown; form?: FormData; headers?: Record<string, string> } = {},
): Promise<{ status: number; body: unknown; headers: Headers; token: string }> {
  const s = await read();
  if (!s.serverUrl || !s.deviceToken) throw new ApiError(401, { message: 'not enrolled' });
  const res = await raw(s.serverUrl, path, { ...init, token: s.deviceToken });
  return { ...res, token: s.deviceToken };
}

export async function raw(
  serverUrl: string,
  path: string,
  init: {
    method?: string;
    body?: unknown;
    form?: FormData;
    headers?: Record<string, string>;
    token?: string;
    /**
     * a 401 resets nothing: the token is not the current one (retiring a replaced enrollment), or the
     * caller acts on the answer itself (unenrolling)
     */
    keepOnReenroll?: boolean;
  },
): Promise<{ status: number; body: unknown; headers: Headers }> {
  const headers: Record<string, string> = { ...init.headers };
  if (init.token) headers['authorization'] = `Bearer ${init.token}`;
  let body: BodyInit | undefined;
  if (init.form) body = init.form;
  else if (init.body !== undefined) {
    body = JSON.stringify(init.body);
    headers['content-type'] = 'application/json';
  }
  let res: Response;
  try {
    res = await fetch(new URL(path, serverUrl), {
      method: init.method ?? (body ? 'POST' : 'GET'),
      headers,
      ...(body ? { body } : {}),
    });
  } catch {
    throw new ApiError(0, { message: 'The server cannot be reached.' });
  }
  const text = await res.text();
  let parsed: unknown = null;
  try {
    parsed = text.length > 0 ? JSON.parse(text) : null;
  } catch {
    parsed = null;
  }
  if (res.status >= 400) {
    const err = new ApiError(res.status, parsed as ApiError['body']);
    // The device token is gone (revoked, rotated elsewhere): back to the built-in local state, as when the
    // user unenrolls (the organization's policy no longer applies), so the device enrolls again.
    // Only while the refused token is still the device's: a call sent before the device enrolled again
    // is answered for the token it carried, not for the new one.
    if (res.status === 401 && err.body?.reenroll === true && !init.keepOnReenroll && init.token) {
      await resetToLocal({ lastError: 'The device must be enrolled again.' }, { ifToken: init.token });
    }
    throw err;
  }
  return { status: res.status, body: parsed, headers: res.headers };
}
