import type { Clock } from '../../platform/clock/index.js';
import type { Sealer } from '../../platform/crypto/index.js';
import { AppError } from '../../platform/errors/index.js';
import { targetUrlProblem } from '../../platform/net/index.js';
import type { Db } from '../../platform/storage/index.js';
import { holdsServiceSecret } from '../keys/index.js';
import { isProviderId, PROVIDER_IDS, type ProviderId } from '../providers/index.js';
import { createGatewayRepo } from './gateway.repo.js';

export interface ProviderKeyView {
  provider: ProviderId;
  configured: boolean;
  /** Last four characters of the stored key; null when none is stored. */
  keyHint: string | null;
  baseUrl: string | null;
  updatedAt: string | null;
  /** The offline model needs no key and is always available. */
  builtIn: boolean;
}

export interface ProviderCredential {
  provider: ProviderId;
  apiKey: string;
  baseUrl?: string;
}

/** Providers the protected chat may call for an organization, with its own keys (opened on demand). */
export interface OrgCredentials {
  available: ProviderId[];
  get(provider: ProviderId): ProviderCredential | undefined;
}

/** events.publish, narrowed to the one event this service writes. */
export type ProviderKeyPublish = (
  db: Db,
  org: { id: string; plan: string },
  type: 'audit.provider_key',
  data: Record<string, unknown>,
) => Promise<unknown>;

/**
 * The one builder of `audit.provider_key`: which provider, what happened, who, and where the key is sent
 * (the base address's origin only: a path may hold a deployment name or a token). Never the key nor its
 * hint. A stored or replaced key, a changed base address (where the organization's key goes) and a removed
 * key are what a security team reviews after a leak.
 */
function providerKeyEvent(input: {
  action: 'provider_key_set' | 'provider_key_removed';
  provider: ProviderId;
  baseUrl: string | null;
  userId: string | null;
}): Record<string, unknown> {
  return {
    action: input.action,
    provider: input.provider,
    baseOrigin: input.baseUrl === null ? null : new URL(input.baseUrl).origin,
    actorUserId: input.userId,
    severity: input.action === 'provider_key_removed' ? 'LOW' : 'MEDIUM',
  };
}

/** The organization's own provider keys for the protected chat, sealed at rest and never returned. */
export function createProviderKeysService(deps: {
  db: Db;
  sealer: Sealer;
  clock: Clock;
  /** PARAPET_ALLOW_PRIVATE_TARGETS: whether a base URL may name a private or loopback host. */
  allowPrivateTargets: boolean;
  publish: ProviderKeyPublish;
}) {
  const repo = createGatewayRepo(deps.db);
  const aad = (orgId: string, provider: string) => `gateway-key:${orgId}:${provider}`;

  function checkProvider(provider: string): ProviderId {
    if (!isProviderId(provider) || provider === 'parapet') {
      throw new AppError(
        'invalid_request',
        `Unknown provider '${provider}'; use one of ${PROVIDER_IDS.filter((p) => p !== 'parapet').join(', ')}.`,
      );
    }
    return provider;
  }

  async function list(orgId: string): Promise<ProviderKeyView[]> {
    const rows = new Map((await repo.providerKeys(orgId)).map((r) => [r.provider, r]));
    return PROVIDER_IDS.map((provider) => {
      const row = rows.get(provider);
      return {
        provider,
        configured: provider === 'parapet' || row !== undefined,
        keyHint: row?.key_hint ?? null,
        baseUrl: row?.base_url ?? null,
        updatedAt: row?.updated_at ?? null,
        builtIn: provider === 'parapet',
      };
    });
  }

  return {
    list,

    async get(orgId: string, provider: string): Promise<ProviderKeyView> {
      const id = provider === 'parapet' ? 'parapet' : checkProvider(provider);
      const view = (await list(orgId)).find((v) => v.provider === id);
      if (!view) throw new AppError('not_found', `Provider '${provider}' is not configured.`);
      return view;
    },

    async put(
      org: { id: string; plan: string },
      provider: string,
      input: { apiKey: string; baseUrl?: string },
      userId: string | null,
    ): Promise<ProviderKeyView> {
      const id = checkProvider(provider);
      const apiKey = input.apiKey.trim();
      if (apiKey.length < 8)
        throw new AppError('invalid_request', "The field 'apiKey' is too short to be a provider key.");
      // The chat sends this key to the provider: a Parapet key pasted here would go to a third party.
      if (holdsServiceSecret(apiKey))
        throw new AppError(
          'invalid_request',
          "The field 'apiKey' holds a Parapet key; store the provider's own key (a Parapet key is never sent to a provider).",
        );
      let baseUrl: string | null = null;
      if (input.baseUrl !== undefined && input.baseUrl !== '') {
        // The chat sends the organization's provider key there: the outbound policy of every target.
        const problem = targetUrlProblem(input.baseUrl, {
          kind: 'provider',
          field: 'baseUrl',
          allowPrivate: deps.allowPrivateTargets,
        });
        if (problem !== null) throw new AppError('invalid_request', problem);
        baseUrl = new URL(input.baseUrl).toString().replace(/\/+$/, '');
      } else if (id === 'azure') {
        throw new AppError(
          'invalid_request',
          "Azure OpenAI needs 'baseUrl': the resource address, https://{resource}.openai.azure.com.",
        );
      }
      // The key and its audit event in one transaction: a stored key always has its trace.
      await deps.db.transaction().execute(async (trx) => {
        await createGatewayRepo(trx).upsertProviderKey({
          org_id: org.id,
          provider: id,
          key_sealed: deps.sealer.seal(apiKey, aad(org.id, id)),
          key_hint: apiKey.slice(-4),
          base_url: baseUrl,
          updated_by: userId,
          updated_at: deps.clock.now().toISOString(),
        });
        await deps.publish(
          trx,
          org,
          'audit.provider_key',
          providerKeyEvent({ action: 'provider_key_set', provider: id, baseUrl, userId }),
        );
      });
      return (await list(org.id)).find((v) => v.provider === id) as ProviderKeyView;
    },

    async remove(org: { id: string; plan: string }, provider: string, userId: string | null): Promise<void> {
      const id = checkProvider(provider);
      await deps.db.transaction().execute(async (trx) => {
        if (!(await createGatewayRepo(trx).deleteProviderKey(org.id, id))) {
          throw new AppError('not_found', `No key is stored for provider '${id}'.`);
        }
        await deps.publish(
          trx,
          org,
          'audit.provider_key',
          providerKeyEvent({ action: 'provider_key_removed', provider: id, baseUrl: null, userId }),
        );
      });
    },

    /** What the protected chat can call for this organization right now. */
    async credentials(orgId: string): Promise<OrgCredentials> {
      const rows = await repo.providerKeys(orgId);
      const byId = new Map<ProviderId, (typeof rows)[number]>();
      for (const r of rows) if (isProviderId(r.provider)) byId.set(r.provider, r);
      return {
        available: ['parapet', ...byId.keys()],
        get(provider) {
          if (provider === 'parapet') return { provider, apiKey: '' };
          const row = byId.get(provider);
          if (!row) return undefined;
          return {
            provider,
            apiKey: deps.sealer.open(row.key_sealed, aad(orgId, provider)),
            ...(row.base_url ? { baseUrl: row.base_url } : {}),
          };
        },
      };
    },
  };
}

export type ProviderKeysService = ReturnType<typeof createProviderKeysService>;
