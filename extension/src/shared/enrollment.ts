/** Loopback names: a server on the device itself (tests, a pilot on one machine) may be plain http. */
const LOOPBACK = /^(localhost|127(?:\.\d{1,3}){3}|\[::1\])$/;

/**
 * The origin of the Parapet server a device enrolls with. It must be https: the device token and every
 * alert, log and proof travel on that connection, and over plain http anyone on the path reads the token
 * and can act as the device. Plain http is accepted for the device itself (loopback) only.
 */
export function serverOrigin(address: string): string {
  let url: URL;
  try {
    url = new URL(address.trim());
  } catch {
    throw new Error(
      `"${address.trim()}" is not a server address: give the whole address, e.g. https://parapet.example.com.`,
    );
  }
  if (url.protocol === 'https:') return url.origin;
  if (url.protocol === 'http:' && LOOPBACK.test(url.hostname)) return url.origin;
  if (url.protocol === 'http:')
    throw new Error(
      `The server address must start with https:// (the device token would cross the network in clear); plain http is accepted only for this computer (localhost).`,
    );
  throw new Error(`The server address must start with https://, not ${url.protocol}//.`);
}

/** What the server answers for a code it does not know; a code of the wrong shape gets the same words. */
export const INVALID_CODE = 'The enrollment code is not valid.';
// The server's codes: enr_ and 32 base62 characters (docs/endpoint.md, "Credentials").
const CODE_SHAPE = /^enr_[A-Za-z0-9]{32}$/;

/**
 * The code, trimmed, when it has the shape of one; else the wrong-code message, before anything is posted
 * (a short code used to come back as the API's "The body field 'code' must be at least 10 characters long.").
 */
export function checkCode(code: string): string {
  const c = code.trim();
  if (!CODE_SHAPE.test(c)) throw new Error(INVALID_CODE);
  return c;
}

// An enrollment link is the server address with the code in its fragment or query (?code=enr_…).
export function parseEnrollment(link: string, code: string): { serverUrl: string; code: string } {
  const serverUrl = serverOrigin(link);
  const url = new URL(link.trim());
  const fromLink = /enr_[A-Za-z0-9]*/.exec(url.hash + url.search)?.[0];
  const c = code.trim() || fromLink;
  if (!c) throw new Error('An enrollment code (enr_…) is needed.');
  return { serverUrl, code: checkCode(c) };
}
