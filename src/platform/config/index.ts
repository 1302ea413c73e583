import { availableParallelism } from 'node:os';
import { isIP } from 'node:net';
import { isAbsolute, join, resolve } from 'node:path';
import { targetUrlProblem } from '../net/index.js';

/**
 * The one place that reads the environment. Each setting is declared once with its variable, default and
 * parser; README.md and .env.example list the same table (test: config.test.ts keeps them in step).
 */
type Parser<T> = (raw: string, name: string) => T;

interface Setting<T> {
  env: string;
  description: string;
  default: string | undefined;
  secret?: boolean;
  parse: Parser<T>;
}

const str: Parser<string> = (raw) => raw;
/** A signing secret: unset (derived elsewhere) or long enough that it cannot be guessed offline. */
const signingSecret =
  (min: number): Parser<string> =>
  (raw, name) => {
    if (raw === '' || raw.length >= min) return raw;
    throw new Error(
      `${name} must be at least ${min} characters (it signs what it verifies; a short one can be guessed), or unset`,
    );
  };
const int =
  (min: number, max: number): Parser<number> =>
  (raw, name) => {
    const n = Number(raw);
    if (!Number.isInteger(n) || n < min || n > max)
      throw new Error(`${name} must be an integer from ${min} to ${max}`);
    return n;
  };
const bool: Parser<boolean> = (raw, name) => {
  const v = raw.trim().toLowerCase();
  if (['1', 'true', 'yes', 'on'].includes(v)) return true;
  if (['0', 'false', 'no', 'off', ''].includes(v)) return false;
  throw new Error(`${name} must be true or false`);
};
const oneOf =
  <T extends string>(...values: T[]): Parser<T> =>
  (raw, name) => {
    if ((values as string[]).includes(raw)) return raw as T;
    throw new Error(`${name} must be one of ${values.join(', ')}`);
  };
const optionalUrl =
  (...protocols: string[]): Parser<string | undefined> =>
  (raw, name) => {
    if (raw === '') return undefined;
    let u: URL;
    try {
      u = new URL(raw);
    } catch {
      throw new Error(`${name} is not a valid URL`);
    }
    if (!protocols.includes(u.protocol)) throw new Error(`${name} must use ${protocols.join(' or ')}`);
    return raw;
  };
/** DNS servers as node:dns takes them: `1.1.1.1`, `1.1.1.1:53`, `2606:4700::1111`, `[::1]:5353`. */
const dnsServers: Parser<string[]> = (raw, name) =>
  raw
    .split(',')
    .map((s) => s.trim())
    .filter(Boolean)
    .map((s) => {
      const m = /^\[([^\]]+)\](?::(\d{1,5}))?$/.exec(s) ?? /^([^:]+)(?::(\d{1,5}))?$/.exec(s);
      const host = m ? m[1] : s;
      const port = m?.[2] === undefined ? 53 : Number(m[2]);
      if (!host || isIP(host) === 0 || port < 1 || port > 65535)
        throw new Error(`${name}: '${s}' is not a DNS server address (ip, ip:port or [ipv6]:port)`);
      return s;
    });
/** The names Fastify's proxy-addr accepts for address ranges, besides addresses and CIDRs. */
const TRUST_PROXY_NAMES: ReadonlySet<string> = new Set(['loopback', 'linklocal', 'uniquelocal']);

/** An address, `address/prefix`, IPv4 `address/netmask` or a range name, as proxy-addr compiles them. */
function trustedProxyEntry(entry: string): boolean {
  if (TRUST_PROXY_NAMES.has(entry)) return true;
  const [address = '', range, extra] = entry.split('/');
  const version = isIP(address);
  if (version === 0 || extra !== undefined) return false;
  if (range === undefined) return true;
  if (/^\d{1,3}$/.test(range)) return Number(range) <= (version === 4 ? 32 : 128);
  return version === 4 && isIP(range) === 4;
}

// Checked here, not when the server is built: a bad entry failed after the migrations, as an "unexpected
// failure: invalid IP address" that named no variable.
const trustProxy: Parser<boolean | number | string[]> = (raw, name) => {
  const v = raw.trim();
  if (v === '' || v === 'false') return false;
  if (v === 'true') return true;
  if (/^\d+$/.test(v)) return Number(v);
  const entries = v
    .split(',')
    .map((s) => s.trim())
    .filter(Boolean);
  const bad = entries.find((e) => !trustedProxyEntry(e));
  if (bad !== undefined)
    throw new Error(
      `${name}: '${bad.slice(0, 60)}' is not an address, a CIDR or loopback/linklocal/uniquelocal (or use false, true or a hop count)`,
    );
  return entries;
};

const SETTINGS = {
  port: { env: 'PORT', description: 'API server port', default: '3000', parse: int(0, 65535) },
  host: {
    env: 'HOST',
    description: 'address the servers listen on (0.0.0.0 to accept other machines)',
    default: '127.0.0.1',
    parse: str,
  },
  proxyPort: { env: 'PROXY_PORT', description: 'network proxy port', default: '8787', parse: int(0, 65535) },
  interceptPort: {
    env: 'PARAPET_INTERCEPT_PORT',
    description: 'TLS port of the transparent network proxy (`parapet proxy --intercept`)',
    default: '443',
    parse: int(0, 65535),
  },
  interceptDns: {
    env: 'PARAPET_INTERCEPT_DNS',
    description:
      "DNS servers (ip or ip:port, comma-separated) the transparent proxy resolves providers with; must not be the intercepting DNS (empty: the system's servers)",
    default: '',
    parse: dnsServers,
  },
  proxyCaDir: {
    env: 'PARAPET_PROXY_CA_DIR',
    description:
      'folder of the network proxy CA (ca.pem, ca-key.pem; `parapet proxy ca init`), relative to the working directory (empty: <PARAPET_DATA_DIR>/proxy-ca)',
    default: '',
    parse: str,
  },
  verifierPort: {
    env: 'VERIFIER_PORT',
    description: 'verification server port',
    default: '8080',
    parse: int(0, 65535),
  },
  verifierDataDir: {
    env: 'PARAPET_VERIFIER_DATA_DIR',
    description:
      "verification server's folder (its SQLite store, master key and SSH key pair), relative to the working directory",
    default: './data/verifier',
    parse: str,
  },
  verifierDatabaseUrl: {
    env: 'PARAPET_VERIFIER_DATABASE_URL',
    description: "postgres://… for the verification server's own store instead of its SQLite file",
    default: '',
    secret: true,
    parse: optionalUrl('postgres:', 'postgresql:'),
  },
  verifierMasterKey: {
    env: 'PARAPET_VERIFIER_MASTER_KEY',
    description:
      "key sealing the verification server's source credentials (64 hex characters); generated into its folder when unset on SQLite",
    default: '',
    secret: true,
    parse: str,
  },
  verifierLlms: {
    env: 'PARAPET_VERIFIER_LLMS',
    description:
      'models for multi-LLM consensus: JSON array of {name, baseUrl, model, apiKey?, viaTunnel?} (OpenAI-compatible endpoints)',
    default: '[]',
    secret: true,
    parse: str,
  },
  verifierLlmTimeoutMs: {
    env: 'PARAPET_VERIFIER_LLM_TIMEOUT_MS',
    description: 'time a consensus model has to answer before it counts as abstaining',
    default: '15000',
    parse: int(100, 600_000),
  },
  verifierMaxPages: {
    env: 'PARAPET_VERIFIER_MAX_PAGES',
    description: 'most pages one website source crawls',
    default: '500',
    parse: int(1, 100_000),
  },
  verifierRatePerMinute: {
    env: 'PARAPET_VERIFIER_RATE_PER_MINUTE',
    description:
      'requests per minute and API key on the verification server (its addresses use PARAPET_ANONYMOUS_PER_MINUTE and PARAPET_AUTH_FAILURES_PER_MINUTE)',
    default: '600',
    parse: int(1, 1_000_000),
  },
  verifierLicense: {
    env: 'PARAPET_VERIFIER_LICENSE',
    description: 'licence key the verification server validates through the tunnel (empty: no cloud use)',
    default: '',
    secret: true,
    parse: str,
  },
  dataDir: {
    env: 'PARAPET_DATA_DIR',
    description:
      'folder of the embedded SQLite file and generated master key, relative to the working directory',
    default: './data',
    parse: str,
  },
  databaseUrl: {
    env: 'DATABASE_URL',
    description: 'postgres://… to use PostgreSQL instead of the embedded SQLite file',
    default: '',
    secret: true,
    parse: optionalUrl('postgres:', 'postgresql:'),
  },
  databaseSchema: {
    env: 'DATABASE_SCHEMA',
    description: 'PostgreSQL schema for Parapet tables (created if missing)',
    default: 'public',
    parse: (raw: string, name: string) => {
      if (!/^[a-z_][a-z0-9_]{0,62}$/.test(raw))
        throw new Error(`${name} must be a lower-case SQL identifier`);
      return raw;
    },
  },
  redisUrl: {
    env: 'REDIS_URL',
    description: 'redis://… to share rate limits, quotas and caches between processes',
    default: '',
    secret: true,
    parse: optionalUrl('redis:', 'rediss:'),
  },
  redisPrefix: {
    env: 'REDIS_PREFIX',
    description: 'prefix of every Redis key Parapet writes',
    default: 'parapet:',
    parse: str,
  },
  masterKey: {
    env: 'PARAPET_MASTER_KEY',
    description:
      'key sealing secrets at rest (64 hex characters); generated into the data folder when unset on SQLite',
    default: '',
    secret: true,
    parse: str,
  },
  bodyLimit: {
    env: 'PARAPET_BODY_LIMIT',
    description: 'largest accepted request body, in bytes',
    default: String(1024 * 1024),
    parse: int(1024, 100 * 1024 * 1024),
  },
  trustProxy: {
    env: 'PARAPET_TRUST_PROXY',
    description: 'trust X-Forwarded-* from: false, true, a hop count, or a comma list of addresses/CIDRs',
    default: 'false',
    parse: trustProxy,
  },
  allowPrivateTargets: {
    env: 'PARAPET_ALLOW_PRIVATE_TARGETS',
    description: 'let webhooks, SIEMs and crawlers reach private, loopback and link-local addresses',
    default: 'false',
    parse: bool,
  },
  logLevel: {
    env: 'LOG_LEVEL',
    description: 'fatal, error, warn, info, debug, trace or silent',
    default: 'info',
    parse: oneOf('fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'),
  },
  sessionTtlHours: {
    env: 'PARAPET_SESSION_TTL_HOURS',
    description: 'lifetime of a dashboard login session',
    default: '12',
    parse: int(1, 24 * 30),
  },
  cookieSecure: {
    env: 'PARAPET_COOKIE_SECURE',
    description: 'mark the session cookie Secure: auto (when the request came over HTTPS), true or false',
    default: 'auto',
    parse: oneOf('auto', 'true', 'false'),
  },
  authFailuresPerMinute: {
    env: 'PARAPET_AUTH_FAILURES_PER_MINUTE',
    description:
      'failed authentications accepted per client address and minute before 429 (API and verification server)',
    default: '300',
    parse: int(1, 1_000_000),
  },
  anonymousPerMinute: {
    env: 'PARAPET_ANONYMOUS_PER_MINUTE',
    description:
      'requests per client address and minute to public and unknown routes (health, docs, 404s, malformed requests) before 429 (API and verification server)',
    default: '1200',
    parse: int(1, 1_000_000),
  },
  httpWorkers: {
    env: 'PARAPET_HTTP_WORKERS',
    description:
      'API server processes sharing the port (`parapet serve`); above 1, the first process keeps counters and runs the event workers',
    default: '1',
    parse: int(1, 64),
  },
  licenseSecret: {
    env: 'PARAPET_LICENSE_SECRET',
    description:
      'key signing and verifying licences (HMAC-SHA256), at least 32 characters; derived from the master key when unset',
    default: '',
    secret: true,
    parse: signingSecret(32),
  },
  deviceRatePerMinute: {
    env: 'PARAPET_DEVICE_RATE_PER_MINUTE',
    description: 'requests per minute and device token on the device operations',
    default: '120',
    parse: int(1, 1_000_000),
  },
  dnsPort: {
    env: 'PARAPET_DNS_PORT',
    description: '`parapet dns`: UDP and TCP port of the filtering DNS forwarder',
    default: '5353',
    parse: int(0, 65535),
  },
  dnsOrg: {
    env: 'PARAPET_DNS_ORG',
    description: '`parapet dns`: the organization whose DNS filtering configuration it serves (or --org)',
    default: '',
    parse: str,
  },
  dnsBlockAddress: {
    env: 'PARAPET_DNS_BLOCK_ADDRESS',
    description: 'IPv4 address blocked names resolve to: the host serving the block page',
    default: '127.0.0.1',
    parse: (raw: string, name: string) => {
      if (!/^\d{1,3}(\.\d{1,3}){3}$/.test(raw)) throw new Error(`${name} must be an IPv4 address`);
      return raw;
    },
  },
  dnsUpstreamTimeoutMs: {
    env: 'PARAPET_DNS_UPSTREAM_TIMEOUT_MS',
    description: '`parapet dns`: how long to wait for a forwarder before trying the next one',
    default: '2000',
    parse: int(100, 30_000),
  },
  computeThreads: {
    env: 'PARAPET_COMPUTE_THREADS',
    description:
      'worker threads for analysing large inputs off the event loop: auto (one less than the CPUs, at least one), or 0 to analyse everything in-process',
    default: 'auto',
    parse: (raw: string, name: string) =>
      raw.trim() === 'auto' ? Math.max(1, availableParallelism() - 1) : int(0, 64)(raw, name),
  },
  computeBudgetMs: {
    env: 'PARAPET_COMPUTE_BUDGET_MS',
    description:
      'time one large analysis may run in a worker thread (from when a thread starts it) before the request fails with 422',
    default: '30000',
    parse: int(100, 600_000),
  },
  computeQueueWaitMs: {
    env: 'PARAPET_COMPUTE_QUEUE_WAIT_MS',
    description:
      'time one large analysis may wait for a busy worker thread before the request fails with 503 and Retry-After',
    // As long as the run budget: a request never waits longer than the whole budget allowed before the two
    // were separated (a burst of large analyses on a loaded 2-core machine queued more than 10 s).
    default: '30000',
    parse: int(100, 600_000),
  },
  computeMinChars: {
    env: 'PARAPET_COMPUTE_MIN_CHARS',
    description:
      'inputs of at least this many characters are analysed in a worker thread; smaller ones in-process',
    default: '16384',
    parse: int(0, 100 * 1024 * 1024),
  },
  proofStore: {
    env: 'PARAPET_PROOF_STORE',
    description:
      'where proof PDFs are kept: empty for the proofs folder under the data folder, or s3://bucket[/prefix]',
    default: '',
    parse: (raw: string, name: string) => {
      if (raw === '') return undefined;
      if (!/^s3:\/\/[a-z0-9][a-z0-9.-]{1,61}[a-z0-9](\/[A-Za-z0-9!_.*'()\/-]*)?$/.test(raw))
        throw new Error(`${name} must be empty or s3://bucket[/prefix]`);
      return raw;
    },
  },
  proofS3Endpoint: {
    env: 'PARAPET_PROOF_S3_ENDPOINT',
    description: 'address of an S3-compatible server (path-style requests); empty for AWS S3',
    default: '',
    parse: optionalUrl('http:', 'https:'),
  },
  proofS3Region: {
    env: 'PARAPET_PROOF_S3_REGION',
    description: 'region of the proof bucket',
    default: 'us-east-1',
    parse: str,
  },
  proofS3AccessKeyId: {
    env: 'PARAPET_PROOF_S3_ACCESS_KEY_ID',
    description: "access key of the proof bucket; empty for the AWS SDK's default credential chain",
    default: '',
    secret: true,
    parse: str,
  },
  proofS3SecretAccessKey: {
    env: 'PARAPET_PROOF_S3_SECRET_ACCESS_KEY',
    description: 'secret of that access key',
    default: '',
    secret: true,
    parse: str,
  },
  proofMaxBytes: {
    env: 'PARAPET_PROOF_MAX_BYTES',
    description: 'largest proof PDF accepted, in bytes',
    default: String(10 * 1024 * 1024),
    parse: int(1024, 100 * 1024 * 1024),
  },
  proofReadTimeoutMs: {
    env: 'PARAPET_PROOF_READ_TIMEOUT_MS',
    description: 'time one proof upload may take to be received and read before it is answered 408, in ms',
    default: '120000',
    // At most 10 minutes: the proof spool's sweep (one hour) must never meet an upload still being read.
    parse: int(1000, 600_000),
  },
  stopGraceSeconds: {
    env: 'PARAPET_STOP_GRACE_SECONDS',
    description:
      'time a stopping API or network proxy process (SIGTERM, SIGINT) gives open requests and streams to finish before it exits and cuts them',
    default: '10',
    parse: int(1, 3600),
  },
  runWorkers: {
    env: 'PARAPET_RUN_WORKERS',
    description: 'run event delivery and retention jobs inside the API process',
    default: 'true',
    parse: bool,
  },
} satisfies Record<string, Setting<unknown>>;

type Settings = typeof SETTINGS;
export type Config = { [K in keyof Settings]: ReturnType<Settings[K]['parse']> } & {
  /** Base URL overrides per LLM provider, from PARAPET_PROVIDER_<ID>_BASE_URL. */
  providerBaseUrls: Record<string, string>;
};

/**
 * A setting the process cannot start with: a value that does not parse, or one that fails when used at
 * start (a port taken, a database that cannot be reached). The message names the variable; the CLI prints
 * it as it is (`name` is how it tells these from unexpected failures).
 */
export class ConfigError extends Error {
  override name = 'ConfigError';
}

export function loadConfig(
  env: Record<string, string | undefined> = process.env,
  cwd = process.cwd(),
): Config {
  const out: Record<string, unknown> = {};
  const problems: string[] = [];
  for (const [key, setting] of Object.entries(SETTINGS) as Array<[string, Setting<unknown>]>) {
    const raw = env[setting.env] ?? setting.default ?? '';
    try {
      out[key] = setting.parse(raw, setting.env);
    } catch (err) {
      problems.push((err as Error).message);
    }
  }
  const providerBaseUrls: Record<string, string> = {};
  for (const [name, value] of Object.entries(env)) {
    const m = /^PARAPET_PROVIDER_([A-Z0-9]+)_BASE_URL$/.exec(name);
    if (m?.[1] && value) {
      // The operator's upstreams get the organizations' provider keys and prompts: the one outbound-URL
      // policy of every target (#15), with PARAPET_ALLOW_PRIVATE_TARGETS deciding loopback and private
      // addresses (tests, air-gapped model gateways). Refused here, the service does not start.
      const problem = targetUrlProblem(value, {
        kind: 'provider',
        field: name,
        allowPrivate: out['allowPrivateTargets'] === true,
      });
      if (problem === null) providerBaseUrls[m[1].toLowerCase()] = value.replace(/\/+$/, '');
      else problems.push(problem);
    }
  }
  if (problems.length > 0) throw new ConfigError(`invalid configuration: ${problems.join('; ')}`);
  const dataDir = out['dataDir'] as string;
  out['dataDir'] = isAbsolute(dataDir) ? dataDir : resolve(cwd, dataDir);
  const caDir = out['proxyCaDir'] as string;
  out['proxyCaDir'] = caDir === '' ? join(out['dataDir'] as string, 'proxy-ca') : resolve(cwd, caDir);
  out['providerBaseUrls'] = providerBaseUrls;
  return out as Config;
}

/** For README.md and .env.example: the documented table of settings. */
export function describeSettings(): Array<{
  env: string;
  default: string;
  description: string;
  secret: boolean;
}> {
  return Object.values(SETTINGS).map((s: Setting<unknown>) => ({
    env: s.env,
    default: s.default ?? '',
    description: s.description,
    secret: s.secret === true,
  }));
}
