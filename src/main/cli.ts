import { parseArgs } from 'node:util';
import { loadConfig } from '../platform/config/index.js';
import { AppError } from '../platform/errors/index.js';
import { KEY_KINDS, type KeyKind } from '../modules/keys/index.js';
import { PLANS, PRODUCTS, ROLES, isPlan, isProduct, isRole } from '../modules/plans/index.js';
import { type Context, createContext } from './context.js';
import { serve } from './serve.js';
import { runWorker } from './worker.js';
import { VERSION } from './version.js';
import { VERIFIER_USAGE, VerifierUsageError, verifierCommand } from './verifier-cli.js';

const USAGE = `parapet ${VERSION}: the Parapet service and its administration

Usage: parapet <command> [options]        (every command accepts --json)

  serve                                   run the API server (what npm start runs)
  worker                                  deliver webhooks and SIEM events only (no API server)
  migrate                                 apply database migrations and exit
  org create --name N [--plan P] [--products a,b]   plans: ${PLANS.join(', ')}; products: ${PRODUCTS.join(', ')}
  org list
  user create --org ID --email E [--role R] [--name N] [--password P]   roles: ${ROLES.join(', ')}
  key create --org ID --kind al|sw [--name N] [--expires ISO-DATE]      prints the secret once
  key list --org ID
  key revoke --org ID --id KEY_ID
  version
${VERIFIER_USAGE}
Configuration comes from the environment (see README.md): DATABASE_URL, PARAPET_DATA_DIR, ...
`;

class UsageError extends Error {}

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
  host: { type: 'string' },
  port: { type: 'string' },
  user: { type: 'string' },
  'api-host': { type: 'string' },
  'api-port': { type: 'string' },
  fingerprint: { type: 'string' },
} as const;

type Values = ReturnType<typeof parseArgs<{ options: typeof OPTIONS; allowPositionals: true }>>['values'];

function need(values: Values, name: keyof Values): string {
  const v = values[name];
  if (typeof v !== 'string' || v.trim() === '') throw new UsageError(`--${name} is required`);
  return v.trim();
}

async function withContext<T>(fn: (ctx: Context) => Promise<T>): Promise<T> {
  const ctx = await createContext(loadConfig(), { logger: undefined });
  try {
    return await fn(ctx);
  } finally {
    await ctx.close();
  }
}

async function requireOrg(ctx: Context, id: string) {
  const org = await ctx.orgs.getOrg(id);
  if (!org) throw new UsageError(`organization ${id} does not exist`);
  return org;
}

type Output = { json: unknown; text: string };

async function run(command: string, sub: string | undefined, values: Values): Promise<Output | null> {
  switch (`${command} ${sub ?? ''}`.trim()) {
    case 'worker':
      await runWorker();
      return null;
    case 'serve':
      await serve();
      return null;
    case 'version':
      return { json: { version: VERSION }, text: VERSION };
    case 'migrate': {
      const config = loadConfig();
      const { openStorage, sqliteFileIn } = await import('../platform/storage/index.js');
      const storage = await openStorage({
        databaseUrl: config.databaseUrl,
        schema: config.databaseSchema,
        ...(config.databaseUrl ? {} : { sqliteFile: sqliteFileIn(config.dataDir) }),
      });
      try {
        const applied = await storage.migrate();
        return {
          json: { applied, dialect: storage.dialect },
          text: applied.length ? `applied: ${applied.join(', ')}` : 'database is up to date',
        };
      } finally {
        await storage.close();
      }
    }
    case 'org create': {
      const name = need(values, 'name');
      const plan = values.plan ?? 'free';
      if (!isPlan(plan)) throw new UsageError(`--plan must be one of ${PLANS.join(', ')}`);
      const products = values.products
        ?.split(',')
        .map((s) => s.trim())
        .filter(Boolean);
      const bad = products?.find((p) => !isProduct(p));
      if (bad) throw new UsageError(`unknown product ${bad}; products are ${PRODUCTS.join(', ')}`);
      const org = await withContext((ctx) =>
        ctx.orgs.createOrg({ name, plan, ...(products ? { products: products.filter(isProduct) } : {}) }),
      );
      return { json: org, text: `created organization ${org.id} (${org.name}, plan ${org.plan})` };
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
      const res = await withContext(async (ctx) =>
        ctx.orgs.createUser({
          org: await requireOrg(ctx, orgId),
          email,
          role,
          ...(values.name ? { name: values.name } : {}),
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
        const d = new Date(values.expires);
        if (Number.isNaN(d.getTime())) throw new UsageError('--expires must be an ISO 8601 date');
        expiresAt = d.toISOString();
      }
      const res = await withContext(async (ctx) => {
        await requireOrg(ctx, orgId);
        return ctx.keys.create({
          orgId,
          kind: kind as KeyKind,
          name: values.name ?? `${kind} key`,
          expiresAt,
        });
      });
      return { json: res, text: `created key ${res.key.id}\nsecret (shown once): ${res.secret}` };
    }
    case 'key list': {
      const orgId = need(values, 'org');
      const keys = await withContext(async (ctx) => {
        await requireOrg(ctx, orgId);
        return ctx.keys.list(orgId);
      });
      return {
        json: { keys },
        text:
          keys.map((k) => `${k.id}  ${k.prefix}…  ${k.status.padEnd(8)} ${k.name}`).join('\n') || '(none)',
      };
    }
    case 'key revoke': {
      const orgId = need(values, 'org');
      const id = need(values, 'id');
      const key = await withContext((ctx) => ctx.keys.revoke(orgId, id, null));
      return { json: { key }, text: `revoked key ${key.id}` };
    }
    default:
      throw new UsageError(
        command ? `unknown command: ${[command, sub].filter(Boolean).join(' ')}` : 'no command given',
      );
  }
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
    process.stdout.write(USAGE);
    return values.help ? 0 : 2;
  }
  const [command = '', sub] = positionals;
  try {
    const out =
      command === 'verifier'
        ? await verifierCommand(positionals.slice(1), values)
        : await run(command, sub, values);
    if (out) process.stdout.write(`${values.json ? JSON.stringify(out.json, null, 2) : out.text}\n`);
    return 0;
  } catch (err) {
    const message =
      err instanceof UsageError ||
      err instanceof VerifierUsageError ||
      err instanceof AppError ||
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
