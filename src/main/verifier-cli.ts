import { loadConfig } from '../platform/config/index.js';
import { createSealer } from '../platform/crypto/index.js';
import {
  CLOUD_SSH_PORTS,
  createPatternUpdater,
  createVerifierRepo,
  makeKey,
  openCloudTunnel,
  readRegistration,
  register,
} from '../modules/verifier/index.js';
import { systemClock } from '../platform/clock/index.js';
import { ExpectedFailure } from './cli-errors.js';
import { loadMasterKey } from './master-key.js';
import { openVerifierStorage, runVerifier, verifierDb } from './verifier.js';

export const VERIFIER_USAGE = `  verifier                                run the verification server (VERIFIER_PORT, its own store)
  verifier init [--name N]                create an administrator key for the verification server (shown once)
  verifier key create [--role admin|user] [--name N]   another verifier key (user: verify and score only)
  verifier key list | verifier key revoke --id ID
  verifier register --host H --port 22|443|2222|8022 --user U --api-host H --api-port P [--fingerprint SHA256:…]
                                          store the cloud's host key and this verifier's own SSH key pair
  verifier patterns update | verifier patterns show
                                          fetch the organization's DLP pattern bundle through the tunnel now / show the stored one
`;

export class VerifierUsageError extends Error {}

type Values = Record<string, string | boolean | undefined>;
type Output = { json: unknown; text: string } | null;

function str(values: Values, name: string): string | undefined {
  const v = values[name];
  return typeof v === 'string' && v.trim() !== '' ? v.trim() : undefined;
}

function need(values: Values, name: string): string {
  const v = str(values, name);
  if (!v) throw new VerifierUsageError(`--${name} is required`);
  return v;
}

async function withRepo<T>(
  fn: (repo: ReturnType<typeof createVerifierRepo>, sealerKey: Buffer) => Promise<T>,
): Promise<T> {
  const config = loadConfig();
  const storage = await openVerifierStorage(config);
  try {
    const key = loadMasterKey({
      configured: config.verifierMasterKey,
      dataDir: config.verifierDataDir,
      embedded: !config.verifierDatabaseUrl,
      variable: 'PARAPET_VERIFIER_MASTER_KEY',
    });
    return await fn(createVerifierRepo(verifierDb(storage)), key);
  } finally {
    await storage.close();
  }
}

async function createKey(name: string, role: 'admin' | 'user') {
  return withRepo(async (repo) => {
    const { row, secret } = makeKey(name, role, new Date().toISOString());
    await repo.insertKey(row);
    return { id: row.id, role, secret };
  });
}

/** `parapet verifier …`: the verification server and its administration (its own store and keys). */
export async function verifierCommand(args: string[], values: Values): Promise<Output> {
  const [sub, action] = args;
  switch (`${sub ?? ''} ${action ?? ''}`.trim()) {
    case '':
      await runVerifier(loadConfig());
      return null;
    case 'init': {
      const k = await createKey(str(values, 'name') ?? 'Administrator key', 'admin');
      return {
        json: k,
        text: `created verifier administrator key ${k.id}\nsecret (shown once): ${k.secret}`,
      };
    }
    case 'key create': {
      const role = str(values, 'role') ?? 'user';
      if (role !== 'admin' && role !== 'user') throw new VerifierUsageError('--role must be admin or user');
      const k = await createKey(str(values, 'name') ?? `${role} key`, role);
      return { json: k, text: `created verifier ${role} key ${k.id}\nsecret (shown once): ${k.secret}` };
    }
    case 'key list': {
      const keys = await withRepo((repo) => repo.listKeys());
      const shown = keys.map(({ key_hash: _h, ...k }) => k);
      return {
        json: { keys: shown },
        text:
          shown
            .map(
              (k) =>
                `${k.id}  ${k.prefix}…  ${k.role.padEnd(5)} ${k.revoked_at ? 'revoked' : 'active '} ${k.name}`,
            )
            .join('\n') || '(none)',
      };
    }
    case 'key revoke': {
      const id = need(values, 'id');
      const done = await withRepo((repo) => repo.revokeKey(id, new Date().toISOString()));
      if (!done) throw new VerifierUsageError(`no active verifier key ${id}`);
      return { json: { revoked: id }, text: `revoked verifier key ${id}` };
    }
    case 'register': {
      const port = Number(need(values, 'port'));
      if (!(CLOUD_SSH_PORTS as readonly number[]).includes(port))
        throw new VerifierUsageError(`--port must be one of ${CLOUD_SSH_PORTS.join(', ')}`);
      const apiPort = Number(need(values, 'api-port'));
      if (!Number.isInteger(apiPort) || apiPort < 1 || apiPort > 65535)
        throw new VerifierUsageError('--api-port must be a port number');
      const fp = str(values, 'fingerprint');
      const host = need(values, 'host');
      const res = await withRepo((repo, key) =>
        register(repo, createSealer(key), {
          host,
          port,
          username: need(values, 'user'),
          apiHost: need(values, 'api-host'),
          apiPort,
          ...(fp ? { expectedFingerprint: fp } : {}),
          at: new Date().toISOString(),
        }),
      ).catch((err: NodeJS.ErrnoException) => {
        // A cloud host that does not answer is the operator's network to check, not a crash.
        if (/^E[A-Z]+$/.test(err.code ?? '') || /timed? ?out|handshake/i.test(err.message))
          throw new ExpectedFailure(`cannot reach the cloud's SSH server ${host}:${port}: ${err.message}`);
        throw err;
      });
      const r = res.registration;
      return {
        json: {
          hostKeyFingerprint: r.hostKeyFingerprint,
          publicKey: r.publicKey,
          authorized: res.authorized,
        },
        text: [
          `cloud host key: ${r.hostKeyFingerprint} (stored; any other key is refused)`,
          `this verifier's public key (give it to the cloud operator, one line in authorized_keys):`,
          `restrict,port-forwarding,permitopen="${r.apiHost}:${r.apiPort}" ${r.publicKey.trim()}`,
          res.authorized ? 'the cloud already accepts this key' : 'the cloud does not accept this key yet',
        ].join('\n'),
      };
    }
    case 'patterns update': {
      const config = loadConfig();
      if (!config.verifierLicense)
        throw new VerifierUsageError('PARAPET_VERIFIER_LICENSE is not set: pattern updates need the licence');
      const res = await withRepo(async (repo, key) => {
        const reg = await readRegistration(repo, createSealer(key));
        if (!reg)
          throw new VerifierUsageError(
            'not registered with the cloud: run `parapet verifier register` first',
          );
        const tunnel = await openCloudTunnel(reg);
        try {
          const updater = createPatternUpdater({
            repo,
            clock: systemClock,
            licenceKey: config.verifierLicense,
            tunnelBase: () => tunnel.baseUrl,
          });
          return await updater.update();
        } finally {
          await tunnel.close();
        }
      });
      const p = res.patterns;
      return {
        json: {
          changed: res.changed,
          version: p.version,
          engineVersion: p.engineVersion,
          fetchedAt: p.fetchedAt,
        },
        text: `pattern bundle ${p.version} (engine ${p.engineVersion}): ${p.detect.customPatterns?.length ?? 0} custom pattern(s), ${p.detect.allowValues?.length ?? 0} allow-value(s); ${res.changed ? 'updated' : 'unchanged'} (a running server applies it at its next multi-LLM call)`,
      };
    }
    case 'patterns show': {
      const config = loadConfig();
      const stored = await withRepo((repo) =>
        createPatternUpdater({
          repo,
          clock: systemClock,
          licenceKey: config.verifierLicense,
          tunnelBase: () => null,
        }).current(),
      );
      if (!stored) return { json: { patterns: null }, text: 'no pattern bundle fetched yet' };
      // Names and counts only: allow-values and expressions are the organization's configuration, not output.
      return {
        json: {
          version: stored.version,
          engineVersion: stored.engineVersion,
          fetchedAt: stored.fetchedAt,
          customPatterns: (stored.detect.customPatterns ?? []).map((c) => c.name),
          allowValues: stored.detect.allowValues?.length ?? 0,
        },
        text: `pattern bundle ${stored.version} (engine ${stored.engineVersion}), fetched ${stored.fetchedAt}: custom patterns ${(stored.detect.customPatterns ?? []).map((c) => c.name).join(', ') || '(none)'}; ${stored.detect.allowValues?.length ?? 0} allow-value(s)`,
      };
    }
    default:
      throw new VerifierUsageError(`unknown command: verifier ${args.join(' ')}`);
  }
}
