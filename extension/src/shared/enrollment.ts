// An enrollment link is the server address with the code in its fragment or query (?code=enr_…).
export function parseEnrollment(link: string, code: string): { serverUrl: string; code: string } {
  const url = new URL(link.trim());
  const fromLink = /enr_[A-Za-z0-9]+/.exec(url.hash + url.search)?.[0];
  const c = code.trim() || fromLink;
  if (!c) throw new Error('An enrollment code (enr_…) is needed.');
  return { serverUrl: url.origin, code: c };
}
