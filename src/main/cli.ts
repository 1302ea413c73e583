import { accessSync, constants, existsSync, writeFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { readIsoInstant } from '../platform/clock/index.js';
import { type Config, loadConfig } from '../platform/config/index.js';
import { AppError } from '../platform/errors/index.js';
import { nameProblem } from '../platform/http/schemas.js';
import type { KeyKind } from '../modules/keys/index.js';
import { PLANS, PRODUCTS, type Product, ROLES, isPlan, isProduct, isRole } from '../modules/plans/index.js';
import type { PeriodName } from '../modules/reports/index.js';
import type { Context } from './context.js';
import type { LicenseProduct } from '../modules/licensing/index.js';
import { ExpectedFailure } from './cli-errors.js';
import { VERSION } from './version.js';
import { VERIFIER_USAGE, VerifierUsageError, verifierCommand } from './verifier-cli.js';

// Commands load what they use: `parapet version` or a usage error should not load the whole service.
// Copies of the modules' lists, tied to their types so that a change there fails the typecheck here.
const KEY_KINDS = ['al', 'sw'] as const satisfies readonly KeyKind[];
const LICENSE_PRODUCTS = ['endpoint', 'onprem'] as const satisfies readonly LicenseProduct[];
const PERIODS = { '24h': 1, '7d': 7, '30d': 30, '90d': 90, '365d': 365 } as const satisfies Record<
  PeriodName,
  number
>;

const USAGE = `parapet ${VERSION}: the Parapet service and its administration

Usage: parapet <command> [options]        (every command accepts --json)

  serve                                   run the API server and the network proxy (what npm start runs)
  proxy [--intercept]                     run the network proxy alone (PROXY_PORT); --intercept adds the
                                          transparent TLS proxy for the providers' host names (PARAPET_INTERCEPT_PORT)
  proxy ca init [--name N] [--force]      create the network proxy CA (PARAPET_PROXY_CA_DIR; key 0600)
  proxy ca export [--out FILE]            print (or write) the CA certificate that devices install
  worker                                  deliver webhooks and SIEM events only (no API server)
  migrate                                 apply database migrations and exit
  org create --name N [--plan P] [--products a,b]   plans: ${PLANS.join(', ')}; products: ${PRODUCTS.join(', ')}
  org update --id ID [--plan P] [--products a,b] [--name N]   change an organization's plan, products or name
  org list
  user create --org ID --email E [--role R] [--name N] [--password P]   roles: ${ROLES.join(', ')}
  user list --org ID
  user password --org ID (--id USER_ID | --email E)   sets a new generated password, printed once
  key create --org ID --kind al|sw [--name N] [--expires ISO-DATE] [--admin]   prints the secret once;
                                          --admin: may also manage webhooks, SIEM and /api/saas/* (docs/auth.md)
  key list --org ID [--all]                active keys; --all adds revoked and expired ones
  key revoke --org ID --id KEY_ID
  report --org ID [--period 24h|7d|30d|90d|365d | --from ISO [--to ISO]] [--format json|csv|pdf] [--out FILE]
  scan FILE [--field F] [--input jsonl|csv|lines] [--out FILE [--format jsonl|csv]]
                                          offline injection and personal-data scan of a file of prompts
  openapi                                 print the OpenAPI document (parapet openapi > openapi.json)
  license issue --org ID --seats N --expires ISO-DATE [--plan P] [--products endpoint,onprem] [--features a,b]
                                          prints the HMAC-signed licence key (plk_…)
  license list --org ID
  license revoke --org ID --id LICENSE_ID
  dns [--org ID]                          run the filtering DNS forwarder (PARAPET_DNS_PORT, UDP and TCP)
  version
${VERIFIER_USAGE}
Configuration comes from the environment (see README.md): DATABASE_URL, PARAPET_DATA_DIR, ...
`;

class UsageError extends Error {}

/**
 * `parapet <command> --help`: the usage lines of that command only (with their continuation lines), so
 * the answer to "how do I create a key" is not buried in the whole list; an unknown command gets the
 * whole list, since there is nothing narrower to show.
 */
function commandUsage(command: string): string {
  const lines = USAGE.split('\n');
  const picked: string[] = [];
  let inCommand = false;
  for (const line of lines) {
    // A command line starts with two spaces and the command word; a continuation line with more spaces.
    const head = /^ {2}(\S+)/.exec(line);
    if (head) inCommand = head[1] === command;
    else if (!/^ {3,}\S/.test(line)) inCommand = false;
    if (inCommand) picked.push(line);
  }
  if (picked.length === 0) return USAGE;
  return `Usage: parapet ${command} ...        (every command accepts --json; parapet --help lists all)\n\n${picked.join('\n')}\n`;
}

/**
 * Per command ("org create", "proxy ca init", "verifier key revoke"), the options its usage lines name:
 * read from USAGE itself, so the help and the check cannot drift apart. An option of another command
 * (`parapet serve --port 80`, `parapet key create --role admin`) was accepted and silently ignored: the
 * operator believed it applied.
 */
function optionsByCommand(usage: string): Map<string, Set<string>> {
  const byCommand = new Map<string, Set<string>>();
  let current: Set<string>[] = [];
  for (const line of usage.split('\n')) {
    if (/^ {2}[a-z]/.test(line)) {
      current = [];
      // "verifier key list | verifier key revoke --id ID": two commands on one line; "| --from" is not one.
      for (const segment of line.trim().split(/\s\|\s(?=[a-z])/)) {
        const command = segment.split(/\s{2,}/)[0] ?? '';
        const words: string[] = [];
        for (const token of command.split(' ')) {
          if (!/^[a-z]+$/.test(token)) break;
          words.push(token);
        }
        const options = byCommand.get(words.join(' ')) ?? new Set<string>();
        byCommand.set(words.join(' '), options);
        current.push(options);
      }
    } else if (!/^ {3,}\S/.test(line)) {
      current = [];
      continue;
    }
    // A command's continuation lines may name more of its options ("--admin: may also manage…").
    for (const m of line.matchAll(/--([a-z][a-z-]*)/g))
      for (const options of current) options.add(m[1] as string);
  }
  return byCommand;
}

/**
 * The message for an option the command does not take, or null. Commands are matched longest first
 * ("proxy ca init" before "proxy"); an unknown command is left to the command's own error.
 */
function misplacedOption(positionals: string[], values: Record<string, unknown>): string | null {
  const byCommand = optionsByCommand(`${USAGE}\n${VERIFIER_USAGE}`);
  for (let n = Math.min(3, positionals.length); n > 0; n--) {
    const command = positionals.slice(0, n).join(' ');
    const options = byCommand.get(command);
    if (!options) continue;
    const given = Object.keys(values).filter((k) => k !== 'json' && k !== 'help' && values[k] !== undefined);
    const wrong = given.find((k) => !options.has(k));
    if (wrong === undefined) return null;
    const takes = [...options].map((o) => `--${o}`).join(', ');
    return `--${wrong} is not an option of 'parapet ${command}' (${takes ? `its options: ${takes}` : 'it takes no options'}, and --json)`;
  }
  return null;
}

const OPTIONS = {
  json: { type: 'boolean' },
  help: { type: 'boolean', short: 'h' },
  name: { type: 'string' },
  plan: { type: 'string' },
  products: { type: 'string' },
  org: { type: 'string' },
  email: { type: 'string' },
  role: { type: 'string' },
  password: { type: 'string' },
  kind: { type: 'string' },
  expires: { type: 'string' },
  id: { type: 'string' },
  period: { type: 'string' },
  from: { type: 'string' },
  to: { type: 'string' },
  format: { type: 'string' },
  out: { type: 'string' },
  all: { type: 'boolean' },
  admin: { type: 'boolean' },
  field: { type: 'string' },
  input: { type: 'string' },
  seats: { type: 'string' },
  features: { type: 'string' },
  host: { type: 'string' },
  port: { type: 'string' },
  user: { type: 'string' },
  'api-host': { type: 'string' },
  'api-port': { type: 'string' },
  fingerprint: { type: 'string' },
  intercept: { type: 'boolean' },
  force: { type: 'boolean' },
} as const;

type Values = ReturnType<typeof parseArgs<{ options: typeof OPTIONS; allowPositionals: true }>>['values'];

/**
 * `--products a,b`: the products named, each checked against the closed list; undefined when not given.
 * Given empty (`--products=`, `--products=,`) is refused: an organization without products can do nothing.
 */
function productsOption(values: Values): Product[] | undefined {
  const names = values.products
    ?.split(',')
    .map((s) => s.trim())
    .filter(Boolean);
  const bad = names?.find((p) => !isProduct(p));
  if (bad) throw new UsageError(`unknown product ${bad}; products are ${PRODUCTS.join(', ')}`);
  if (names?.length === 0) throw new UsageError(`--products needs at least one of ${PRODUCTS.join(', ')}`);
  return names?.filter(isProduct);
}

/**
 * `--name`, when given: held to the rule the HTTP API applies to every user-visible name (nameText: no
 * control characters, no bidirectional overrides or isolates, at most 200), so a name the dashboard would
 * refuse cannot enter through the CLI and reach lists, logs and CSV exports. Trimmed, as the services store it.
 */
function nameOption(values: Values): string | undefined {
  if (values.name === undefined) return undefined;
  const problem = nameProblem(values.name);
  if (problem) throw new UsageError(`--name ${problem}`);
  return values.name.trim();
}

/** An ISO 8601 date option (`--expires`): an impossible day or another form is refused, as the report API does. */
function isoOption(value: string): Date {
  const read = readIsoInstant(value, '--expires');
  if ('problem' in read) throw new UsageError(read.problem);
  return read.at;
}

function need(values: Values, name: keyof Values): string {
  const v = values[name];
  if (typeof v !== 'string' || v.trim() === '') throw new UsageError(`--${name} is required`);
  return v.trim();
}

/** Where the data lives, for the user to see; a PostgreSQL URL is shown without its credentials. */
async function describeDatabase(config: Config): Promise<string> {
  if (!config.databaseUrl) return `SQLite ${join(config.dataDir, 'parapet.db')}`;
  const { postgresAddress } = await import('../platform/storage/index.js');
  return `PostgreSQL ${postgresAddress(config.databaseUrl)} (schema ${config.databaseSchema})`;
}

let jsonOutput = false;

/**
 * `--out FILE` checked before any work: its folder must exist and be writable, and so must the file when
 * it exists. A report built for minutes, or a scan of a large file, then failed at the last step as an
 * "unexpected failure: ENOENT" (the scan with an unhandled stream error and a stack trace).
 */
function checkOut(path: string): string {
  const exists = existsSync(path);
  const target = exists ? path : dirname(resolve(path));
  try {
    accessSync(target, exists ? constants.W_OK : constants.W_OK | constants.X_OK);
  } catch (err) {
    const missing = (err as NodeJS.ErrnoException).code === 'ENOENT';
    throw new UsageError(
      `--out ${path}: ${exists ? 'the file' : 'the folder'} ${target} ${missing ? 'does not exist' : 'is not writable'}`,
    );
  }
  return path;
}

/**
 * Refuses to go on when the embedded database does not exist yet. The long-running processes that only
 * serve an existing service (worker, proxy, dns) use it too: started from the wrong folder they would
 * otherwise create an empty database and run on it without a word. The command line was right, the folder
 * was not: an expected failure (exit 1), not a usage error whose "--help" hint would mislead.
 */
function requireDatabase(config: Config): void {
  if (!config.databaseUrl && !existsSync(join(config.dataDir, 'parapet.db'))) {
    throw new ExpectedFailure(
      `no Parapet database at ${join(config.dataDir, 'parapet.db')}; run this in the service's folder, or set PARAPET_DATA_DIR to the service's data folder (or DATABASE_URL to its database)`,
    );
  }
}

/**
 * For worker, proxy and dns: the service's database must exist; say which one they run on. A serving
 * process that cannot start exits 1 with one line (docs/deployment.md), not as a usage error.
 */
async function existingDatabase(): Promise<void> {
  const config = loadConfig();
  requireDatabase(config);
  if (!jsonOutput) process.stderr.write(`database: ${await describeDatabase(config)}\n`);
}

/**
 * Opens the service's database. Only commands that set up a service (`org create`) may start a new
 * embedded database; every other command refuses, so that one run from the wrong folder does not quietly
 * work on a new, empty database instead of the service's.
 */
async function withContext<T>(fn: (ctx: Context) => Promise<T>, opts: { create?: boolean } = {}): Promise<T> {
  const config = loadConfig();
  if (!opts.create) requireDatabase(config);
  if (!jsonOutput) process.stderr.write(`database: ${await describeDatabase(config)}\n`);
  const { createContext } = await import('./context.js');
  const ctx = await createContext(config, { logger: undefined });
  try {
    return await fn(ctx);
  } finally {
    await ctx.close();
  }
}

async function requireOrg(ctx: Context, id: string) {
  const org = await ctx.orgs.getOrg(id);
  if (!org) throw new ExpectedFailure(`organization ${id} does not exist`);
  return org;
}

type Output = { json: unknown; text: string };

async function run(command: string, sub: string | undefined, values: Values): Promise<Output | null> {
  // The one command whose second word is an argument, not a subcommand.
  if (command === 'scan') return scan(sub, values);
  switch (`${command} ${sub ?? ''}`.trim()) {
    case 'worker':
      await existingDatabase();
      await (await import('./worker.js')).runWorker();
      return null;
    case 'serve':
      await (await import('./serve.js')).serve();
      return null;
    case 'proxy':
      await existingDatabase();
      await (await import('./proxy.js')).runProxy({ intercept: values.intercept === true });
      return null;
    case 'proxy ca':
      return proxyCa(values);
    case 'dns':
      if (!values.org && !loadConfig().dnsOrg)
        throw new UsageError('parapet dns needs the organization: --org ID or PARAPET_DNS_ORG');
      await existingDatabase();
      await (await import('./dns.js')).runDns(values.org);
      return null;
    case 'license issue': {
      const orgId = need(values, 'org');
      const seats = Number(need(values, 'seats'));
      if (!Number.isInteger(seats) || seats < 1) throw new UsageError('--seats must be a positive integer');
      const expires = isoOption(need(values, 'expires'));
      const products = (values.products ?? 'endpoint,onprem')
        .split(',')
        .map((p) => p.trim())
        .filter(Boolean);
      const bad = products.find((p) => !(LICENSE_PRODUCTS as readonly string[]).includes(p));
      if (bad)
        throw new UsageError(`unknown licence product ${bad}; products are ${LICENSE_PRODUCTS.join(', ')}`);
      const features =
        values.features
          ?.split(',')
          .map((f) => f.trim())
          .filter(Boolean) ?? [];
      const res = await withContext(async (ctx) => {
        const org = await requireOrg(ctx, orgId);
        const plan = values.plan ?? org.plan;
        if (!isPlan(plan)) throw new UsageError(`--plan must be one of ${PLANS.join(', ')}`);
        return ctx.licensing.issue({
          orgId,
          plan,
          seats,
          products: products as LicenseProduct[],
          features,
          expiresAt: expires.toISOString(),
        });
      });
      return {
        json: res,
        text: `issued licence ${res.license.id} (${res.license.seats} seats, ${res.license.products.join('+')}, until ${res.license.expiresAt})\nlicence key: ${res.key}`,
      };
    }
    case 'license list': {
      const orgId = need(values, 'org');
      const licenses = await withContext(async (ctx) => {
        await requireOrg(ctx, orgId);
        return ctx.licensing.list(orgId);
      });
      return {
        json: { licenses },
        text:
          licenses
            .map(
              (l) =>
                `${l.id}  ${l.status.padEnd(8)} ${String(l.seats).padStart(6)} seats  until ${l.expiresAt}`,
            )
            .join('\n') || '(none)',
      };
    }
    case 'license revoke': {
      const license = await withContext((ctx) =>
        ctx.licensing.revoke(need(values, 'org'), need(values, 'id')),
      );
      return { json: { license }, text: `revoked licence ${license.id}` };
    }
    case 'version':
      return { json: { version: VERSION }, text: VERSION };
    case 'migrate': {
      const config = loadConfig();
      if (!jsonOutput) process.stderr.write(`database: ${await describeDatabase(config)}\n`);
      const { namedStorageFailure, openStorage, sqliteFileIn } = await import('../platform/storage/index.js');
      // As at a server's start: a database that cannot be reached is named with the variable to fix.
      const named = (err: unknown): unknown => namedStorageFailure(err, config.databaseUrl);
      const storage = await openStorage({
        databaseUrl: config.databaseUrl,
        schema: config.databaseSchema,
        ...(config.databaseUrl ? {} : { sqliteFile: sqliteFileIn(config.dataDir) }),
      }).catch((err: unknown) => Promise.reject(named(err)));
      try {
        const applied = await storage.migrate().catch((err: unknown) => Promise.reject(named(err)));
        return {
          json: { applied, dialect: storage.dialect },
          text: applied.length ? `applied: ${applied.join(', ')}` : 'database is up to date',
        };
      } finally {
        await storage.close();
      }
    }
    case 'org create': {
      need(values, 'name');
      const name = nameOption(values) ?? '';
      const plan = values.plan ?? 'free';
      if (!isPlan(plan)) throw new UsageError(`--plan must be one of ${PLANS.join(', ')}`);
      const products = productsOption(values);
      const org = await withContext(
        (ctx) => ctx.orgs.createOrg({ name, plan, ...(products ? { products } : {}) }),
        { create: true },
      );
      return { json: org, text: `created organization ${org.id} (${org.name}, plan ${org.plan})` };
    }
    case 'org update': {
      const id = need(values, 'id');
      const plan = values.plan;
      if (plan !== undefined && !isPlan(plan))
        throw new UsageError(`--plan must be one of ${PLANS.join(', ')}`);
      const products = productsOption(values);
      const name = nameOption(values);
      if (plan === undefined && products === undefined && !name) {
        throw new UsageError('org update needs --plan, --products or --name');
      }
      const org = await withContext(async (ctx) => {
        await requireOrg(ctx, id);
        await ctx.orgs.updateOrg(id, {
          ...(plan ? { plan } : {}),
          ...(name ? { name } : {}),
          ...(products ? { products } : {}),
        });
        return requireOrg(ctx, id);
      });
      // A running server reads the organization again within its 5-second cache.
      return { json: org, text: `updated organization ${org.id} (${org.name}, plan ${org.plan})` };
    }
    case 'org list': {
      const orgs = await withContext((ctx) => ctx.orgs.listOrgs());
      return {
        json: { organizations: orgs },
        text: orgs.map((o) => `${o.id}  ${o.plan.padEnd(10)} ${o.name}`).join('\n') || '(none)',
      };
    }
    case 'user create': {
      const orgId = need(values, 'org');
      const email = need(values, 'email');
      const role = values.role ?? 'member';
      if (!isRole(role)) throw new UsageError(`--role must be one of ${ROLES.join(', ')}`);
      const name = nameOption(values);
      const res = await withContext(async (ctx) =>
        ctx.orgs.createUser({
          org: await requireOrg(ctx, orgId),
          email,
          role,
          // the operator saw the password (chosen or printed): the user replaces it at first sign-in
          mustChangePassword: true,
          ...(name ? { name } : {}),
          ...(values.password ? { password: values.password } : {}),
        }),
      );
      const shown = values.password ? {} : { password: res.password };
      return {
        json: { user: res.user, ...shown },
        text: `created user ${res.user.id} (${res.user.email}, ${res.user.role})${values.password ? '' : `\npassword (shown once): ${res.password}`}`,
      };
    }
    case 'key create': {
      const orgId = need(values, 'org');
      const kind = need(values, 'kind');
      if (!(KEY_KINDS as readonly string[]).includes(kind)) throw new UsageError('--kind must be al or sw');
      let expiresAt: string | null = null;
      if (values.expires) {
        expiresAt = isoOption(values.expires).toISOString();
      }
      const name = nameOption(values) ?? `${kind} key`;
      const res = await withContext(async (ctx) => {
        await requireOrg(ctx, orgId);
        return ctx.keys.create({
          orgId,
          kind: kind as KeyKind,
          name,
          scope: values.admin ? 'admin' : 'products',
          expiresAt,
        });
      });
      return { json: res, text: `created key ${res.key.id}\nsecret (shown once): ${res.secret}` };
    }
    case 'key list': {
      const orgId = need(values, 'org');
      const all = await withContext(async (ctx) => {
        await requireOrg(ctx, orgId);
        return ctx.keys.list(orgId);
      });
      const keys = values.all ? all : all.filter((k) => k.status === 'active');
      return {
        json: { keys },
        text:
          keys
            .map((k) => `${k.id}  ${k.prefix}…  ${k.status.padEnd(8)} ${k.scope.padEnd(8)} ${k.name}`)
            .join('\n') || '(none)',
      };
    }
    case 'key revoke': {
      const orgId = need(values, 'org');
      const id = need(values, 'id');
      const key = await withContext((ctx) => ctx.keys.revoke(orgId, id, null));
      return { json: { key }, text: `revoked key ${key.id}` };
    }
    case 'report':
      return report(values);
    case 'user list': {
      const orgId = need(values, 'org');
      const users = await withContext(async (ctx) => {
        await requireOrg(ctx, orgId);
        return ctx.orgs.listUsers(orgId);
      });
      return {
        json: { users },
        text: users.map((u) => `${u.id}  ${u.role.padEnd(7)} ${u.email}  ${u.name}`).join('\n') || '(none)',
      };
    }
    case 'user password': {
      const orgId = need(values, 'org');
      if (!values.id && !values.email) throw new UsageError('--id or --email is required');
      const res = await withContext(async (ctx) => {
        await requireOrg(ctx, orgId);
        const user = (await ctx.orgs.listUsers(orgId)).find((u) =>
          values.id ? u.id === values.id : u.email.toLowerCase() === values.email?.trim().toLowerCase(),
        );
        if (!user) throw new ExpectedFailure(`no such user in organization ${orgId}`);
        return { user, password: await ctx.orgs.resetPassword(orgId, user.id) };
      });
      return {
        json: { user: res.user, password: res.password },
        text: `new password for ${res.user.email} (shown once): ${res.password}`,
      };
    }
    case 'openapi': {
      const doc = await openapiDocument();
      return { json: doc, text: JSON.stringify(doc, null, 2) };
    }
    default:
      throw new UsageError(
        command ? `unknown command: ${[command, sub].filter(Boolean).join(' ')}` : 'no command given',
      );
  }
}

/**
 * The OpenAPI document of the API server, built in this process on a throw-away embedded database, so it
 * needs neither a running server nor the service's database.
 */
async function openapiDocument(): Promise<unknown> {
  const { mkdtempSync, rmSync } = await import('node:fs');
  const { tmpdir } = await import('node:os');
  const dir = mkdtempSync(join(tmpdir(), 'parapet-openapi-'));
  try {
    const config = loadConfig({ PARAPET_DATA_DIR: dir, LOG_LEVEL: 'silent' });
    const { createContext } = await import('./context.js');
    const { buildApi } = await import('./api.js');
    const ctx = await createContext(config);
    try {
      const app = await buildApi(ctx);
      await app.ready();
      const doc = app.swagger();
      await app.close();
      return doc;
    } finally {
      await ctx.close();
    }
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

async function scan(file: string | undefined, values: Values): Promise<Output> {
  if (!file) throw new UsageError('scan needs a FILE');
  if (!existsSync(file)) throw new UsageError(`no file ${file}`);
  const input = values.input;
  if (input !== undefined && !['jsonl', 'csv', 'lines'].includes(input)) {
    throw new UsageError('--input must be jsonl, csv or lines');
  }
  // Rows are only ever written to --out (stdout carries the summary); a --format alone was ignored.
  if (values.format !== undefined && !values.out) throw new UsageError('--format needs --out FILE');
  const format = values.format ?? (values.out?.toLowerCase().endsWith('.csv') ? 'csv' : 'jsonl');
  if (format !== 'jsonl' && format !== 'csv') throw new UsageError('--format must be jsonl or csv');
  if (values.out) checkOut(values.out);
  const { scanFile, summaryTable, openOutput } = await import('./scan.js');
  const out = values.out ? openOutput(values.out) : undefined;
  const summary = await scanFile({
    file,
    ...(input ? { input: input as 'jsonl' } : {}),
    ...(values.field ? { field: values.field } : {}),
    ...(out ? { out, format } : {}),
    progress: process.stderr,
  });
  if (out) await new Promise<void>((r) => out.end(() => r()));
  // Nothing read is no clean scan: a wrong --field or input format left every row unscanned (exit 1).
  if (summary.rows > 0 && summary.errors === summary.rows) {
    throw new ExpectedFailure(
      `no row of ${file} could be read (${summary.errors} unreadable${values.field ? `; does every row have the field '${values.field}'?` : ''}): nothing was scanned`,
    );
  }
  return {
    json: summary,
    text: `${summaryTable(summary)}${values.out ? `\nrows written to ${values.out}` : ''}`,
  };
}

const REPORT_FORMATS = ['json', 'csv', 'pdf'] as const;

/** `parapet report`: the same analysis report as /api/v1/report, built in this process and written out. */
async function report(values: Values): Promise<Output> {
  const orgId = need(values, 'org');
  const format = values.format ?? 'json';
  if (!(REPORT_FORMATS as readonly string[]).includes(format)) {
    throw new UsageError(`--format must be one of ${REPORT_FORMATS.join(', ')}`);
  }
  if (format === 'pdf' && !values.out && process.stdout.isTTY) {
    throw new UsageError('a PDF goes to a file: add --out FILE (or redirect the output)');
  }
  const period = values.period;
  if (period !== undefined && !(period in PERIODS)) {
    throw new UsageError(`--period must be one of ${Object.keys(PERIODS).join(', ')}`);
  }
  if (values.out) checkOut(values.out);
  const { reportCsv, reportPdf } = await import('../modules/reports/index.js');
  const { bytes, summary } = await withContext(async (ctx) => {
    const org = await requireOrg(ctx, orgId);
    const started = await ctx.reports.create(
      org,
      {
        ...(period ? { period: period as PeriodName } : {}),
        ...(values.from ? { from: values.from } : {}),
        ...(values.to ? { to: values.to } : {}),
      },
      null,
    );
    await ctx.reports.close();
    const r = await ctx.reports.result(org, started.id);
    const body =
      format === 'json'
        ? Buffer.from(`${JSON.stringify(r, null, 2)}\n`)
        : format === 'csv'
          ? Buffer.from(reportCsv(r))
          : Buffer.from(await reportPdf(r));
    return {
      bytes: body,
      summary: `report ${r.id}: ${r.detections.total} detections, ${r.dlp.events} personal-data events, ${r.blockedRequests.total} blocked (${r.period.from} to ${r.period.to})`,
    };
  });
  if (values.out) {
    writeFileSync(values.out, bytes, { mode: 0o600 });
    return {
      json: { written: values.out, bytes: bytes.length },
      text: `${summary}\nwritten to ${values.out}`,
    };
  }
  process.stdout.write(bytes);
  return { json: null, text: '' };
}

let caAction: string | undefined;

/** `parapet proxy ca init|export`: the CA whose certificate devices trust for transparent mode. */
async function proxyCa(values: Values): Promise<Output> {
  const { initCa, readCaCert } = await import('./proxy.js');
  const config = loadConfig();
  if (caAction === 'init') {
    const made = await initCa(config, {
      ...(values.name ? { name: values.name } : {}),
      force: values.force === true,
    });
    return {
      json: made,
      text: `created the network proxy CA ${made.subject}\ncertificate (install it on devices): ${made.certPath}\nprivate key (0600, keep it on the proxy hosts only): ${made.keyPath}\nSHA-256 fingerprint: ${made.fingerprint256}`,
    };
  }
  if (caAction === 'export') {
    if (values.out) checkOut(values.out);
    const certPem = readCaCert(config);
    if (values.out) {
      writeFileSync(values.out, certPem, { mode: 0o644 });
      return { json: { out: values.out }, text: `wrote the CA certificate to ${values.out}` };
    }
    return { json: { certificate: certPem }, text: certPem.trimEnd() };
  }
  throw new UsageError('parapet proxy ca init|export');
}

export async function main(argv: string[]): Promise<number> {
  let parsed: { values: Values; positionals: string[] };
  try {
    parsed = parseArgs({ args: argv, options: OPTIONS, allowPositionals: true, strict: true });
  } catch (err) {
    process.stderr.write(`parapet: ${(err as Error).message}\n\n${USAGE}`);
    return 2;
  }
  const { values, positionals } = parsed;
  if (values.help || positionals.length === 0) {
    process.stdout.write(values.help && positionals[0] ? commandUsage(positionals[0]) : USAGE);
    return values.help ? 0 : 2;
  }
  const misplaced = misplacedOption(positionals, values);
  if (misplaced) {
    if (values.json) process.stderr.write(`${JSON.stringify({ error: misplaced })}\n`);
    else process.stderr.write(`parapet: ${misplaced}\n${commandUsage(positionals[0] as string)}`);
    return 2;
  }
  const [command = '', sub] = positionals;
  caAction = positionals[2];
  jsonOutput = values.json === true;
  try {
    const out =
      command === 'verifier'
        ? await verifierCommand(positionals.slice(1), values)
        : await run(command, sub, values);
    // A report written to standard output has already been printed.
    if (out && (out.json !== null || out.text !== ''))
      process.stdout.write(`${values.json ? JSON.stringify(out.json, null, 2) : out.text}\n`);
    return 0;
  } catch (err) {
    const message =
      err instanceof UsageError ||
      err instanceof VerifierUsageError ||
      err instanceof AppError ||
      err instanceof ExpectedFailure ||
      (err as Error).name === 'ConfigError'
        ? (err as Error).message
        : `unexpected failure: ${(err as Error).message}`;
    if (values.json) process.stderr.write(`${JSON.stringify({ error: message })}\n`);
    else
      process.stderr.write(
        `parapet: ${message}${err instanceof UsageError || err instanceof VerifierUsageError ? '\n(run parapet --help)' : ''}\n`,
      );
    return err instanceof UsageError || err instanceof VerifierUsageError ? 2 : 1;
  }
}
