import { canonicalHost } from '../../platform/http/index.js';

/**
 * Domain rules shared by policies, the DNS forwarder and the exports: a rule `x.y` or `*.x.y` covers x.y
 * and every subdomain of it (what admins mean when they block a service), compared case-insensitively
 * without the trailing dot of DNS names.
 */
export function normalizeHost(name: string): string {
  // canonicalHost also gives a bracketed IPv6 address its one compressed form.
  return canonicalHost(name);
}

/** The base domain of a rule: `*.chat.example` and `chat.example` both give `chat.example`. */
export function ruleBase(rule: string): string {
  const n = normalizeHost(rule);
  return n.startsWith('*.') ? n.slice(2) : n;
}

/** A set of rules answering "is this host covered?" in O(labels) per lookup. */
export function createDomainSet(rules: readonly string[]) {
  const bases = new Set(rules.map(ruleBase));
  return {
    size: bases.size,
    /** The rule base covering the host, or undefined. */
    match(host: string): string | undefined {
      let h = normalizeHost(host);
      for (;;) {
        if (bases.has(h)) return h;
        const dot = h.indexOf('.');
        if (dot < 0) return undefined;
        h = h.slice(dot + 1);
      }
    },
  };
}

/** Bases in a stable order, duplicates and subdomains of other entries removed (for exports). */
export function minimalBases(rules: readonly string[]): string[] {
  const bases = [...new Set(rules.map(ruleBase))].sort();
  const set = createDomainSet(bases);
  return bases.filter((b) => {
    const dot = b.indexOf('.');
    return dot < 0 || set.match(b.slice(dot + 1)) === undefined;
  });
}
