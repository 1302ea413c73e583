import { minimalBases } from './domains.js';
import type { DnsConfig } from './endpoint.schemas.js';

export type ExportFormat = 'rpz' | 'hosts' | 'adguard' | 'domains';

export const EXPORT_TYPES: Record<ExportFormat, string> = {
  rpz: 'text/dns; charset=utf-8',
  hosts: 'text/plain; charset=utf-8',
  adguard: 'text/plain; charset=utf-8',
  domains: 'text/plain; charset=utf-8',
};

/**
 * The DNS configuration as files other resolvers and firewalls load. Every blocked domain covers its
 * subdomains (as `parapet dns` does); allowed domains are exceptions, so they are written as
 * pass-through rules where the format has them (RPZ rpz-passthru, AdGuard @@) and left out of the hosts
 * and plain lists, which have no exceptions. A disabled configuration exports no rule at all (a comment
 * line says so where the format has comments; the plain list is empty).
 */
export function exportDnsConfig(
  cfg: DnsConfig,
  format: ExportFormat,
  opts: { serial: number; blockAddress: string; generatedAt: string },
): string {
  // Filtering switched off: `parapet dns` then forwards every name, so a resolver loading the export must
  // block nothing either; the lists stay stored for when it is switched on again.
  const blocked = cfg.enabled ? minimalBases(cfg.blockedDomains) : [];
  const allowed = cfg.enabled ? minimalBases(cfg.allowedDomains) : [];
  const head = cfg.enabled
    ? `Parapet DNS filtering, configuration of ${opts.generatedAt}; ${blocked.length} blocked, ${allowed.length} allowed`
    : `Parapet DNS filtering, configuration of ${opts.generatedAt}; filtering is disabled (enabled: false): nothing blocked`;
  switch (format) {
    case 'rpz': {
      const lines = [
        `; ${head}`,
        '$TTL 300',
        `@ IN SOA localhost. hostmaster.localhost. ( ${opts.serial} 3600 600 86400 300 )`,
        '  IN NS localhost.',
      ];
      // Pass-through first: RPZ gives an exact QNAME match precedence over a wildcard either way.
      for (const d of allowed) lines.push(`${d} CNAME rpz-passthru.`, `*.${d} CNAME rpz-passthru.`);
      for (const d of blocked) lines.push(`${d} CNAME .`, `*.${d} CNAME .`);
      return `${lines.join('\n')}\n`;
    }
    case 'hosts':
      return `# ${head}\n${blocked
        .filter((d) => !allowed.includes(d))
        .map((d) => `${opts.blockAddress} ${d}`)
        .join('\n')}\n`;
    case 'adguard':
      return `! ${head}\n${[...blocked.map((d) => `||${d}^`), ...allowed.map((d) => `@@||${d}^`)].join('\n')}\n`;
    case 'domains': {
      // No comment syntax here: an empty list is an empty file.
      const names = blocked.filter((d) => !allowed.includes(d));
      return names.length === 0 ? '' : `${names.join('\n')}\n`;
    }
  }
}
