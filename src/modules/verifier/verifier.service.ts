import { mkdir, rm, writeFile } from 'node:fs/promises';
import { basename, join } from 'node:path';
import type { DetectOptions } from '../../engines/dlp/index.js';
import { checkInCorpus } from '../../engines/hallucination/index.js';
import type { Clock } from '../../platform/clock/index.js';
import { newId, randomBase62, type Sealer, sha256Hex } from '../../platform/crypto/index.js';
import { AppError, invalid, notFound } from '../../platform/errors/index.js';
import {
  cidrContains,
  normalizeHost,
  type Outbound,
  parseCidr,
  targetHostProblem,
  targetUrlProblem,
} from '../../platform/net/index.js';
import { askModels, type LlmModel, tokenizeClaims } from './consensus.js';
import {
  checkLocalFile,
  databaseKind,
  isSupportedFile,
  LocalFileProblem,
  localPath,
  normalizeUrl,
  type OwnData,
  parseAllowedHost,
  readSource,
  redactConnection,
  SourceError,
  SUPPORTED_FILES,
  type SourceTarget,
} from './connectors/index.js';
import { buildPassageIndex, emptyPassageIndex, type PassageIndex } from './passage-index.js';
import { toPassages } from './passages.js';
import {
  type ClaimVerdict,
  claimTrust,
  consensus,
  RECOMMENDED_MODELS,
  TRUST,
  type Tally,
  tally,
  unvalidatedConfidence,
} from './trust.js';
import type { KeyRow, NewDocument, PassageRecord, SourceRow, VerifierRepo } from './verifier.repo.js';
import { MIN_LLMS, type RefreshInterval, type SourceType } from './verifier.schemas.js';

export const KEY_PREFIX = 'vf_live_';
export type KeyRole = 'admin' | 'user';
const DAY_MS = 24 * 60 * 60 * 1000;
const REFRESH_MS: Record<RefreshInterval, number | null> = {
  daily: DAY_MS,
  weekly: 7 * DAY_MS,
  manual: null,
};
/** Verify results kept for the running mean of GET /api/score. */
const SCORE_WINDOW = 1_000;

/** A new verifier key: the row to store (hash only) and the secret to show once. */
export function makeKey(name: string, role: KeyRole, at: string): { row: KeyRow; secret: string } {
  const secret = `${KEY_PREFIX}${randomBase62(40)}`;
  return {
    secret,
    row: {
      id: newId('vkey'),
      name,
      role,
      prefix: secret.slice(0, 12),
      key_hash: sha256Hex(secret),
      created_at: at,
      revoked_at: null,
    },
  };
}

export interface SourceInput {
  type: SourceType;
  url: string;
  name?: string | undefined;
  crawlDepth?: number | undefined;
  refreshInterval?: RefreshInterval | undefined;
  allowedHosts?: string[] | undefined;
  headers?: Record<string, string> | undefined;
  tables?: string[] | undefined;
  query?: string | undefined;
  keyColumn?: string | undefined;
}

export interface Upload {
  fileName: string;
  data: Buffer;
}

export interface SourceView {
  id: string;
  type: SourceType;
  name: string;
  url: string;
  crawlDepth: number;
  refreshInterval: RefreshInterval;
  status: string;
  statusReason: string | null;
  documents: number;
  passages: number;
  validated: boolean;
  validatedAt: string | null;
  validatedBy: string | null;
  lastIndexedAt: string | null;
  nextRefreshAt: string | null;
  createdAt: string;
}

export interface VerifyInput {
  response: string;
  context?: string | undefined;
  options?:
    | {
        multiLlm?: boolean | undefined;
        llmCount?: number | undefined;
        includeSourceUrls?: boolean | undefined;
      }
    | undefined;
}

export interface ClaimResult {
  text: string;
  verified: boolean;
  source: string | null;
  verdict: ClaimVerdict;
  confidence: number;
  decidedBy: 'validated_source' | 'source' | 'llm_consensus' | 'none';
  evidence: string | null;
  votes?: Tally;
}

export interface VerifyResult {
  verified: boolean;
  score: number;
  sources: Array<{ type: string; url: string; confidence: number }>;
  claims: ClaimResult[];
  warnings: string[];
}

export interface VerifierServiceOptions {
  repo: VerifierRepo;
  sealer: Sealer;
  clock: Clock;
  outbound: Outbound;
  /** PARAPET_ALLOW_PRIVATE_TARGETS: website and api sources may be on loopback and private addresses. */
  allowPrivateTargets?: boolean;
  /** Folder for uploaded files (kept so that a refresh can read them again). */
  uploadDir: string;
  userAgent: string;
  maxPages: number;
  maxRows?: number;
  models: LlmModel[];
  llmTimeoutMs: number;
  /** The local end of the cloud tunnel (http://127.0.0.1:port), when one is up. */
  tunnelBase?: () => string | null;
  /** The organization's DLP patterns (fetched through the tunnel) for tokenizing claims sent to models. */
  detectOptions?: () => Promise<DetectOptions>;
  /** Throws when the licence no longer allows verification (after its grace period). */
  licenceGate?: () => void;
  fetch?: typeof fetch;
  onIndexError?: (sourceId: string, err: unknown) => void;
  /**
   * PARAPET_VERIFIER_DATA_DIR: its master key, embedded store and uploads. No file or `sqlite:` source may
   * lead into it (links resolved), or its content would be evidence every user key can have quoted.
   */
  dataDir?: string;
  /**
   * The verifier's own database files (its embedded SQLite store). Never a source: its rows (key hashes,
   * sealed registration, the cloud tunnel's settings) would become passages that every user key reads as
   * evidence.
   */
  ownFiles?: string[];
}

/**
 * A local path a file or `sqlite:` source names, checked when it is configured (400 naming the field)
 * rather than found at indexing: absolute, an existing readable regular file (a folder is not a source),
 * and never the verifier's own files. The connector checks the path again at every read, on the handle it
 * then reads (a link can be pointed elsewhere after this check).
 */
async function localSourceProblem(input: SourceInput, own: OwnData, upload?: Upload): Promise<string | null> {
  const url = input.url.trim();
  if (input.type === 'file' && upload)
    return isSupportedFile(upload.fileName)
      ? null
      : `The multipart field 'file' must be one of these file types: ${SUPPORTED_FILES}.`;
  if (input.type !== 'file' && !(input.type === 'database' && databaseKind(url) === 'sqlite')) return null;
  const path = input.type === 'file' ? localPath(url) : url.replace(/^sqlite:(\/\/)?/i, '');
  if (path === null) return "The body field 'url' must be an absolute path or a file:/// URL.";
  try {
    await checkLocalFile(path, own);
  } catch (err) {
    if (err instanceof LocalFileProblem) return `The body field 'url' (${path}) ${err.message}.`;
    throw err;
  }
  if (input.type === 'file' && !isSupportedFile(path))
    return `The body field 'url' (${path}) must be one of these file types: ${SUPPORTED_FILES}.`;
  return null;
}

/** The display form of a target: never a password or an API query secret. */
function shownUrl(type: SourceType, url: string, fileName?: string): string {
  if (type === 'database') return redactConnection(url);
  // Sources are shown to administrators only; they gave the path and need it to tell two files apart.
  if (type === 'file') return fileName ?? localPath(url) ?? url;
  try {
    const u = new URL(url);
    if (type === 'api' && u.search) u.search = '?…';
    return u.toString().replace('?%E2%80%A6', '?…');
  } catch {
    return url;
  }
}

function defaultName(type: SourceType, url: string, input: SourceInput, fileName?: string): string {
  if (type === 'file') return fileName ?? basename(url);
  if (type === 'database')
    return `${databaseKind(url) ?? 'database'}: ${input.tables?.join(', ') ?? 'query'}`;
  try {
    return new URL(url).hostname;
  } catch {
    return url.slice(0, 200);
  }
}

function validateInput(input: SourceInput): void {
  const url = input.url.trim();
  if (input.type === 'website' || input.type === 'api') {
    if (!normalizeUrl(url))
      throw invalid("The body field 'url' must be an http(s) URL without user name or password.");
  }
  if (input.type === 'database') {
    if (!databaseKind(url))
      throw invalid(
        "The body field 'url' must be a postgres://, mysql://, mariadb:// or sqlite: connection string.",
      );
    if (!input.tables?.length && !input.query) throw invalid("A database source needs 'tables' or 'query'.");
    if (input.query && !/^\s*(select|with)\b/i.test(input.query))
      throw invalid("The body field 'query' must be a SELECT statement.");
    if (input.query && !input.keyColumn)
      throw invalid("A query needs 'keyColumn', the column a passage cites.");
  }
  if (input.headers && input.type !== 'api')
    throw invalid("The body field 'headers' applies to api sources only.");
}

// Link-local ranges: the cloud metadata services live there, and no intranet source does.
const LINK_LOCAL = ['169.254.0.0/16', 'fe80::/10'].map((c) => parseCidr(c)!);

const PRIVATE_HINT = 'Intranet and loopback sources need PARAPET_ALLOW_PRIVATE_TARGETS=true on the verifier.';

/**
 * Why a website or api source's address may not be crawled, checked when the source is configured (400)
 * rather than found at indexing: metadata and link-local addresses never; loopback and private ones only
 * with PARAPET_ALLOW_PRIVATE_TARGETS. Names are judged by what they say; what they resolve to is judged
 * again at connection (the outbound policy).
 */
function sourceAddressProblem(input: SourceInput, allowPrivate: boolean): string | null {
  if (input.type !== 'website' && input.type !== 'api') return null;
  const url = input.url.trim();
  const host = normalizeHost(new URL(url).hostname);
  if (LINK_LOCAL.some((c) => cidrContains(c, host)))
    return "The field 'url' is not a permitted destination: a link-local address (cloud metadata lives there).";
  const problem = targetUrlProblem(url, { kind: 'crawler', field: 'url', allowPrivate });
  if (problem === null || allowPrivate) return problem;
  // Without the setting, a loopback or intranet address is refused; say how to allow it.
  const withSetting = targetUrlProblem(url, { kind: 'crawler', field: 'url', allowPrivate: true });
  return withSetting === null ? `${problem} ${PRIVATE_HINT}` : problem;
}

/**
 * Every allowedHosts entry is a crawl target as the URL is, and is checked as it is: an entry the crawl
 * would follow links to must not be a metadata or link-local address, nor (without the setting) a private
 * one. An entry that is not a host at all (an e-mail address, a URL, a path) is refused rather than kept
 * as a rule that silently matches nothing. The message names the entry.
 */
function allowedHostsProblem(entries: readonly string[], allowPrivate: boolean): string | null {
  for (const raw of entries) {
    const named = `The body field 'allowedHosts' entry ${JSON.stringify(raw)}`;
    const entry = parseAllowedHost(raw);
    if (entry === null)
      return `${named} must be a host name or IP address, optionally with :port (no scheme, path, user name or spaces; labels of 1 to 63 characters, 253 in all).`;
    const host = normalizeHost(entry.host);
    if (LINK_LOCAL.some((c) => cidrContains(c, host)))
      return `${named} is not a permitted destination: a link-local address (cloud metadata lives there).`;
    const problem = targetHostProblem(host, { allowPrivate });
    if (problem === null) continue;
    const withSetting = allowPrivate ? problem : targetHostProblem(host, { allowPrivate: true });
    return withSetting === null ? `${named} ${problem}. ${PRIVATE_HINT}` : `${named} ${problem}.`;
  }
  return null;
}

export function createVerifierService(opts: VerifierServiceOptions) {
  const { repo, sealer, clock } = opts;
  const maxRows = opts.maxRows ?? 50_000;
  const own: OwnData = { dir: opts.dataDir ?? null, files: opts.ownFiles ?? [] };
  const jobs = new Map<string, Promise<void>>();
  let index: PassageIndex = emptyPassageIndex(clock.now());
  let rebuilding: Promise<void> = Promise.resolve();
  const recentScores: number[] = [];
  let verifications = 0;

  const now = () => clock.now().toISOString();
  const nextRefresh = (interval: RefreshInterval): string | null => {
    const ms = REFRESH_MS[interval];
    return ms === null ? null : new Date(clock.now().getTime() + ms).toISOString();
  };

  const view = (r: SourceRow): SourceView => ({
    id: r.id,
    type: r.type as SourceType,
    name: r.name,
    url: r.shown_url,
    crawlDepth: r.crawl_depth,
    refreshInterval: r.refresh_interval as RefreshInterval,
    status: r.status,
    statusReason: r.status_reason,
    documents: r.document_count,
    passages: r.passage_count,
    validated: r.validated_at !== null,
    validatedAt: r.validated_at,
    validatedBy: r.validated_by,
    lastIndexedAt: r.last_indexed_at,
    nextRefreshAt: r.next_refresh_at,
    createdAt: r.created_at,
  });

  async function mustGet(id: string): Promise<SourceRow> {
    const row = await repo.getSource(id);
    if (!row) throw notFound('The source');
    return row;
  }

  /** Reloads every stored passage into a fresh engine corpus; calls are serialised. */
  function rebuildIndex(): Promise<void> {
    rebuilding = rebuilding.then(async () => {
      const records: PassageRecord[] = [];
      for await (const page of repo.allPassages()) records.push(...page);
      index = await buildPassageIndex(records, clock.now(), index);
    });
    return rebuilding;
  }

  async function runIndex(id: string): Promise<void> {
    const row = await repo.getSource(id);
    if (!row) return;
    await repo.updateSource(id, { status: 'indexing', status_reason: null });
    try {
      const target = JSON.parse(sealer.open(row.sealed_target, id)) as SourceTarget;
      const previous = await repo.documentsOf(id);
      const read = await readSource(row.type as SourceType, target, previous, {
        outbound: opts.outbound,
        userAgent: opts.userAgent,
        maxPages: opts.maxPages,
        maxRows,
        own,
      });
      const fetchedAt = now();
      const added: NewDocument[] = read.documents
        .map((d) => ({
          document: {
            id: newId('doc'),
            source_id: id,
            citation: d.citation,
            title: d.title,
            etag: d.etag ?? null,
            last_modified: d.lastModified ?? null,
            links: d.links ? JSON.stringify(d.links) : null,
            content_hash: sha256Hex(d.text.normalize('NFC')),
            fetched_at: fetchedAt,
          },
          passages: d.passages ?? toPassages(d.text),
        }))
        .filter((d) => d.passages.length > 0);
      if (added.length === 0 && read.unchanged.length === 0)
        throw new SourceError(
          read.skipped.length > 0
            ? `no readable content (${read.skipped
                .slice(0, 3)
                .map((s) => `${s.what}: ${s.reason}`)
                .join('; ')})`
            : 'no readable content',
        );
      const counts = await repo.saveIndex(id, read.unchanged, added, () => newId('psg'));
      await rebuildIndex();
      await repo.updateSource(id, {
        status: 'ready',
        status_reason: null,
        document_count: counts.documents,
        passage_count: counts.passages,
        last_indexed_at: now(),
        next_refresh_at: nextRefresh(row.refresh_interval as RefreshInterval),
      });
    } catch (err) {
      opts.onIndexError?.(id, err);
      // The reason is shown to administrators: our own summary, or the driver's message for known errors.
      const reason = err instanceof SourceError ? err.message : 'indexing failed (see the server log)';
      await repo
        .updateSource(id, {
          status: 'failed',
          status_reason: reason.slice(0, 1_000),
          next_refresh_at: nextRefresh(row.refresh_interval as RefreshInterval),
        })
        .catch(() => {});
    }
  }

  function startIndex(id: string): void {
    if (jobs.has(id)) return;
    const job = runIndex(id).finally(() => jobs.delete(id));
    jobs.set(id, job);
  }

  function decideClaim(
    text: string,
    evidence: { source_index: number; verdict: string; confidence: number; match: string } | undefined,
    sources: Map<string, SourceRow>,
  ): { claim: ClaimResult; sourceRow?: SourceRow } {
    const none: ClaimResult = {
      text,
      verified: false,
      source: null,
      verdict: 'not_found',
      confidence: 0,
      decidedBy: 'none',
      evidence: null,
    };
    if (!evidence) return { claim: none };
    const meta = index.meta[evidence.source_index];
    const row = meta ? sources.get(meta.sourceId) : undefined;
    if (!meta || !row || evidence.verdict === 'unsupported') return { claim: none };
    const verdict: ClaimVerdict = evidence.verdict === 'supported' ? 'supported' : 'contradicted';
    const validated = row.validated_at !== null;
    return {
      claim: {
        text,
        verified: verdict === 'supported',
        source: meta.citation,
        verdict,
        confidence: validated ? TRUST.validatedSource : unvalidatedConfidence(evidence.confidence),
        decidedBy: validated ? 'validated_source' : 'source',
        evidence: evidence.match,
      },
      sourceRow: row,
    };
  }

  return {
    async createKey(name: string, role: KeyRole): Promise<{ id: string; secret: string; role: KeyRole }> {
      const { row, secret } = makeKey(name, role, now());
      await repo.insertKey(row);
      return { id: row.id, secret, role };
    },
    listKeys: () => repo.listKeys(),
    revokeKey: (id: string) => repo.revokeKey(id, now()),
    async authenticate(secret: string): Promise<KeyRow | null> {
      if (!secret.startsWith(KEY_PREFIX)) return null;
      const row = await repo.keyByHash(sha256Hex(secret));
      return row && row.revoked_at === null ? row : null;
    },

    async createSource(input: SourceInput, upload?: Upload): Promise<SourceView> {
      validateInput(input);
      const allowPrivate = opts.allowPrivateTargets ?? false;
      const address =
        sourceAddressProblem(input, allowPrivate) ??
        allowedHostsProblem(input.allowedHosts ?? [], allowPrivate);
      if (address !== null) throw invalid(address);
      const local = await localSourceProblem(input, own, upload);
      if (local !== null) throw invalid(local);
      const id = newId('src');
      const url = input.url.trim();
      const target: SourceTarget = {
        url,
        crawlDepth: input.type === 'website' ? (input.crawlDepth ?? 1) : 0,
        ...(input.allowedHosts ? { allowedHosts: input.allowedHosts } : {}),
        ...(input.headers ? { headers: input.headers } : {}),
        ...(input.tables ? { tables: input.tables } : {}),
        ...(input.query ? { query: input.query, keyColumn: input.keyColumn } : {}),
        ...(input.keyColumn ? { keyColumn: input.keyColumn } : {}),
      };
      if (upload) {
        const dir = join(opts.uploadDir, id);
        await mkdir(dir, { recursive: true, mode: 0o700 });
        const stored = join(dir, basename(upload.fileName).replace(/[^\w.\- ]/g, '_'));
        await writeFile(stored, upload.data, { mode: 0o600 });
        target.storedFile = stored;
        target.fileName = basename(upload.fileName);
      }
      const interval = input.refreshInterval ?? 'manual';
      const row: SourceRow = {
        id,
        type: input.type,
        name: input.name ?? defaultName(input.type, url, input, target.fileName),
        shown_url: shownUrl(input.type, url, target.fileName),
        sealed_target: sealer.seal(JSON.stringify(target), id),
        crawl_depth: target.crawlDepth,
        refresh_interval: interval,
        status: 'pending',
        status_reason: null,
        document_count: 0,
        passage_count: 0,
        validated_at: null,
        validated_by: null,
        last_indexed_at: null,
        next_refresh_at: null,
        created_at: now(),
      };
      await repo.insertSource(row);
      startIndex(id);
      return view(row);
    },
    async listSources(): Promise<SourceView[]> {
      return (await repo.listSources()).map(view);
    },
    async getSource(id: string): Promise<SourceView> {
      return view(await mustGet(id));
    },
    async deleteSource(id: string): Promise<void> {
      await mustGet(id);
      await jobs.get(id);
      await repo.deleteSource(id);
      await rm(join(opts.uploadDir, id), { recursive: true, force: true });
      await rebuildIndex();
    },
    async refreshSource(id: string): Promise<SourceView> {
      const row = await mustGet(id);
      if (jobs.has(id))
        throw new AppError('conflict', 'The source is being indexed; try again when it is done.');
      await repo.updateSource(id, { status: 'pending', status_reason: null });
      startIndex(id);
      return view({ ...row, status: 'pending', status_reason: null });
    },
    async validateSource(id: string, validated: boolean, by: string): Promise<SourceView> {
      const row = await mustGet(id);
      const patch = validated
        ? { validated_at: row.validated_at ?? now(), validated_by: row.validated_by ?? by }
        : { validated_at: null, validated_by: null };
      await repo.updateSource(id, patch);
      return view({ ...row, ...patch });
    },

    async verify(input: VerifyInput): Promise<VerifyResult> {
      opts.licenceGate?.();
      if (input.response.trim() === '') throw invalid("The body field 'response' must not be blank.");
      const options = input.options ?? {};
      const includeUrls = options.includeSourceUrls !== false;
      const warnings: string[] = [];
      const sources = new Map((await repo.listSources()).map((s) => [s.id, s]));
      if (index.meta.length === 0) warnings.push('No source is indexed yet: every claim is unverified.');
      const current = index;
      const { outcomes } = checkInCorpus(current.corpus, input.response);
      const decided = outcomes.map((o) => decideClaim(o.part.text, o.evidence, sources));

      if (options.multiLlm) {
        const pending = decided.filter((d) => d.claim.decidedBy !== 'validated_source');
        const wanted = options.llmCount ?? RECOMMENDED_MODELS;
        const models = opts.models.slice(0, wanted);
        if (models.length < wanted)
          warnings.push(`${wanted} models were asked for; ${models.length} are configured.`);
        if (pending.length > 0 && models.length > 0) {
          const detect = (await opts.detectOptions?.()) ?? {};
          const votes = await askModels(
            models,
            tokenizeClaims(
              pending.map((d) => d.claim.text),
              detect,
            ),
            {
              timeoutMs: opts.llmTimeoutMs,
              tunnelBase: opts.tunnelBase?.() ?? null,
              ...(opts.fetch ? { fetch: opts.fetch } : {}),
            },
          );
          let fewest = Number.POSITIVE_INFINITY;
          pending.forEach((d, i) => {
            const t = tally(votes.map((perModel) => perModel[i]!));
            fewest = Math.min(fewest, t.answered);
            const c = consensus(t);
            d.claim.votes = t;
            if (t.answered < MIN_LLMS && d.claim.decidedBy === 'source') return;
            d.claim.verdict = c.verdict;
            d.claim.confidence = c.confidence;
            d.claim.verified = c.verdict === 'supported';
            d.claim.decidedBy = 'llm_consensus';
            d.claim.source = d.claim.source ?? 'llm-consensus';
          });
          if (fewest < RECOMMENDED_MODELS)
            warnings.push(
              `${fewest === Number.POSITIVE_INFINITY ? 0 : fewest} model(s) answered: five or more LLMs are recommended for reliable consensus.`,
            );
        } else if (pending.length > 0) warnings.push('Multi-LLM was asked for but no model is configured.');
      }

      const claims = decided.map((d) => d.claim);
      const cited = new Map<string, { type: string; url: string; confidence: number }>();
      for (const d of decided) {
        if (!d.sourceRow || d.claim.decidedBy === 'llm_consensus' || d.claim.decidedBy === 'none') continue;
        if (!includeUrls) d.claim.source = d.sourceRow.id;
        const key = d.claim.source ?? d.sourceRow.id;
        const prev = cited.get(key);
        if (!prev || prev.confidence < d.claim.confidence)
          cited.set(key, { type: d.sourceRow.type, url: key, confidence: d.claim.confidence });
      }
      const score =
        claims.length === 0
          ? 0
          : Math.round(claims.reduce((a, c) => a + claimTrust(c.verdict, c.confidence), 0) / claims.length);
      const verified = claims.length > 0 && claims.every((c) => c.verdict === 'supported');
      verifications++;
      recentScores.push(score);
      if (recentScores.length > SCORE_WINDOW) recentScores.shift();
      return { verified, score, sources: [...cited.values()], claims, warnings };
    },

    async score() {
      const rows = await repo.listSources();
      const last =
        rows
          .map((r) => r.last_indexed_at)
          .filter((x): x is string => x !== null)
          .sort()
          .at(-1) ?? null;
      return {
        score: recentScores.length
          ? Math.round(recentScores.reduce((a, b) => a + b, 0) / recentScores.length)
          : 0,
        sources: {
          connected: rows.filter((r) => r.status === 'ready' || r.passage_count > 0).length,
          validated: rows.filter((r) => r.validated_at !== null).length,
        },
        lastUpdate: last,
        verifications,
        passages: index.meta.length,
      };
    },

    /** At start: the stored passages into memory, and sources a stopped process left half-indexed run again. */
    async start(): Promise<void> {
      await rebuildIndex();
      for (const r of await repo.listSources())
        if (r.status === 'indexing' || r.status === 'pending') startIndex(r.id);
    },
    /** Sources whose refresh interval has passed are indexed again (the scheduler calls this). */
    async refreshDue(): Promise<string[]> {
      const due = (await repo.dueSources(now())).filter((r) => !jobs.has(r.id));
      for (const r of due) startIndex(r.id);
      return due.map((r) => r.id);
    },
    /** Resolves when no source is being indexed (tests, the CLI, shutdown). */
    async idle(): Promise<void> {
      while (jobs.size > 0) await Promise.allSettled([...jobs.values()]);
      await rebuilding;
    },
    indexSize: () => index.meta.length,
  };
}

export type VerifierService = ReturnType<typeof createVerifierService>;
