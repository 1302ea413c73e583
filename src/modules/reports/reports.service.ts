import { setImmediate as yieldToLoop } from 'node:timers/promises';
import { type Clock, readIsoInstant } from '../../platform/clock/index.js';
import { newId } from '../../platform/crypto/index.js';
import { AppError } from '../../platform/errors/index.js';
import type { Db, ReportsTable } from '../../platform/storage/index.js';
import { quotaPeriod } from '../limits/index.js';
import { PLAN_LIMITS, PRODUCTS, isPlan } from '../plans/index.js';
import { type AnalysisReport, type Count, type DayRow, SEVERITIES } from './reports.model.js';
import { type EventRow, createReportsRepo } from './reports.repo.js';

const DAY_MS = 86_400_000;
/** Periods up to a month are built while the caller waits; longer ones in the background. */
export const INLINE_MAX_DAYS = 31;
export const MAX_PERIOD_DAYS = 366;
/** Events read per query; between pages the builder yields so other requests are served. */
const PAGE = 1000;
const TOP = 10;
/** A running report whose builder has not written for this long died with its process. */
const STALE_MS = 5 * 60_000;
const REPORT_TYPES = ['detection.created', 'dlp.violation', 'dlp.blocked'] as const;

export interface ReportOrg {
  id: string;
  name: string;
  plan: string;
  renewalDay: number;
}

export interface ReportView {
  id: string;
  status: 'running' | 'ready' | 'failed';
  progress: number;
  period: { from: string; to: string };
  createdAt: string;
  finishedAt: string | null;
  error: string | null;
}

function view(r: Omit<ReportsTable, 'result'>): ReportView {
  return {
    id: r.id,
    status: r.status as ReportView['status'],
    progress: r.progress,
    period: { from: r.period_from, to: r.period_to },
    createdAt: r.created_at,
    finishedAt: r.finished_at,
    error: r.error,
  };
}

/** The shorthand periods accepted beside explicit bounds. */
export const PERIODS = { '24h': 1, '7d': 7, '30d': 30, '90d': 90, '365d': 365 } as const;
export type PeriodName = keyof typeof PERIODS;

export interface ReportRequest {
  period?: PeriodName;
  from?: string;
  to?: string;
}

function parseInstant(value: string, field: string): Date {
  const read = readIsoInstant(value, field);
  if ('problem' in read) throw new AppError('invalid_request', read.problem);
  return read.at;
}

/** How far a report's `to` may lie after the server's clock (a caller's clock ahead); taken as now. */
export const TO_CLOCK_TOLERANCE_MS = 5 * 60_000;

/** Resolves the requested period against now; every refusal names the field. */
export function resolvePeriod(req: ReportRequest, now: Date): { from: Date; to: Date } {
  if (req.period && (req.from || req.to)) {
    throw new AppError('invalid_request', 'Give either period or from/to, not both.');
  }
  if (req.period) return { from: new Date(now.getTime() - PERIODS[req.period] * DAY_MS), to: now };
  if (!req.from) throw new AppError('invalid_request', 'from is required when period is not given.');
  const from = parseInstant(req.from, 'from');
  const asked = req.to ? parseInstant(req.to, 'to') : now;
  if (from.getTime() > now.getTime()) throw new AppError('invalid_request', 'from lies in the future.');
  // `to` defaults to now, and nothing has happened after now: a later `to` would claim quota periods and
  // days that have not begun. A caller's clock a little ahead is taken as now; beyond that it is refused.
  if (asked.getTime() > now.getTime() + TO_CLOCK_TOLERANCE_MS) {
    throw new AppError(
      'invalid_request',
      `to lies in the future (more than ${TO_CLOCK_TOLERANCE_MS / 60_000} minutes after the server's clock).`,
    );
  }
  const to = asked.getTime() > now.getTime() ? now : asked;
  if (to.getTime() <= from.getTime()) throw new AppError('invalid_request', 'to must be later than from.');
  if (to.getTime() - from.getTime() > MAX_PERIOD_DAYS * DAY_MS) {
    throw new AppError('invalid_request', `A report covers at most ${MAX_PERIOD_DAYS} days.`);
  }
  return { from, to };
}

function bump(map: Map<string, number>, key: unknown, by = 1): void {
  if (typeof key !== 'string' || key === '') return;
  map.set(key, (map.get(key) ?? 0) + by);
}

function ranked(map: Map<string, number>, limit = Number.POSITIVE_INFINITY): Count[] {
  return [...map.entries()]
    .map(([name, count]) => ({ name, count }))
    .sort((a, b) => b.count - a.count || (a.name < b.name ? -1 : 1))
    .slice(0, limit);
}

/** Quota periods (YYYY-MM labels) that overlap [from, to). */
function quotaLabels(from: Date, to: Date, renewalDay: number): string[] {
  const labels: string[] = [];
  let p = quotaPeriod(from, renewalDay);
  while (p.start.getTime() < to.getTime() && labels.length < 14) {
    labels.push(p.label);
    p = quotaPeriod(p.end, renewalDay);
  }
  return labels;
}

/** Accumulates a period's events page by page; nothing but counters is kept, so memory stays flat. */
class Tally {
  detections = 0;
  blockedDetections = 0;
  severity = new Map<string, number>();
  category = new Map<string, number>();
  dlpEvents = 0;
  dlpFindings = 0;
  dlpBlocked = 0;
  dlpType = new Map<string, number>();
  dlpSeverity = new Map<string, number>();
  users = new Map<string, number>();
  keys = new Map<string, number>();
  days = new Map<string, DayRow>();

  add(row: EventRow): void {
    let data: Record<string, unknown>;
    try {
      data = JSON.parse(row.data) as Record<string, unknown>;
    } catch {
      return;
    }
    const date = row.created_at.slice(0, 10);
    let day = this.days.get(date);
    if (!day) {
      day = { date, detections: 0, blocked: 0, dlpEvents: 0 };
      this.days.set(date, day);
    }
    bump(this.users, data['userId']);
    if (row.type === 'detection.created') {
      this.detections++;
      day.detections++;
      if (data['blocked'] === true) {
        this.blockedDetections++;
        day.blocked++;
      }
      bump(this.severity, data['severity']);
      bump(this.category, data['category']);
      bump(this.keys, data['apiKeyId']);
      return;
    }
    this.dlpEvents++;
    day.dlpEvents++;
    const findings = data['findingsCount'];
    if (typeof findings === 'number' && Number.isFinite(findings)) this.dlpFindings += findings;
    if (row.type === 'dlp.blocked') {
      this.dlpBlocked++;
      day.blocked++;
    }
    bump(this.dlpSeverity, data['severity']);
    const types = data['types'];
    if (Array.isArray(types)) for (const t of types) bump(this.dlpType, t);
    else bump(this.dlpType, data['type']);
  }
}

export interface ReportsDeps {
  db: Db;
  clock: Clock;
  /** Writes usage counts still batched in memory, so a report sees the requests just served. */
  flushUsage?: () => Promise<void>;
}

/**
 * Analysis reports over an organization's stored events and usage counters (docs/reports.md). A period
 * of up to a month is built while the caller waits; a longer one in the background, with its progress in
 * the report record. Each report is stored as JSON; CSV and PDF are rendered from it on download.
 */
export function createReportsService(deps: ReportsDeps) {
  const repo = createReportsRepo(deps.db);
  const running = new Set<Promise<void>>();
  const iso = () => deps.clock.now().toISOString();

  async function build(org: ReportOrg, id: string, from: Date, to: Date): Promise<AnalysisReport> {
    const f = from.toISOString();
    const t = to.toISOString();
    const total = await repo.countEvents(org.id, REPORT_TYPES, f, t);
    const tally = new Tally();
    let after: { createdAt: string; id: string } | null = null;
    let seen = 0;
    let shown = 0;
    for (;;) {
      const page = await repo.eventsPage(org.id, REPORT_TYPES, f, t, after, PAGE);
      for (const row of page) tally.add(row);
      seen += page.length;
      const last = page[page.length - 1];
      if (!last || page.length < PAGE) break;
      after = { createdAt: last.created_at, id: last.id };
      // Progress covers the event walk (90 %); the counters after it are a few small queries.
      const progress = Math.min(90, Math.floor((seen / Math.max(total, 1)) * 90));
      if (progress > shown) {
        shown = progress;
        await repo.update(org.id, id, { progress, updated_at: iso() });
      }
      await yieldToLoop();
    }

    const plan = isPlan(org.plan) ? org.plan : 'free';
    const perMonth = PLAN_LIMITS[plan].perMonth;
    const labels = quotaLabels(from, to, org.renewalDay);
    await deps.flushUsage?.();
    const usageRows = await repo.usage(org.id, labels);
    const usage = usageRows
      .filter((u) => (PRODUCTS as readonly string[]).includes(u.product))
      .map((u) => ({
        product: u.product,
        period: u.period,
        requests: u.requests,
        blocked: u.blocked,
        limit: perMonth,
        percent: perMonth === null ? null : Math.round((u.requests / perMonth) * 1000) / 10,
      }));
    const models = (await repo.modelUsage(org.id, f, t))
      .map((m) => ({
        provider: m.provider,
        model: m.model,
        requests: m.requests,
        promptTokens: m.prompt_tokens,
        completionTokens: m.completion_tokens,
        costMicroUsd: Math.round(m.cost * 1_000_000),
      }))
      .sort((a, b) => b.requests - a.requests || (a.model < b.model ? -1 : 1));

    const bySeverity = Object.fromEntries(SEVERITIES.map((s) => [s, tally.severity.get(s) ?? 0])) as Record<
      (typeof SEVERITIES)[number],
      number
    >;
    return {
      id,
      organization: { id: org.id, name: org.name, plan: org.plan },
      period: { from: f, to: t },
      generatedAt: iso(),
      detections: {
        total: tally.detections,
        blocked: tally.blockedDetections,
        bySeverity,
        byCategory: ranked(tally.category),
      },
      dlp: {
        events: tally.dlpEvents,
        findings: tally.dlpFindings,
        blocked: tally.dlpBlocked,
        byType: ranked(tally.dlpType),
        bySeverity: ranked(tally.dlpSeverity),
      },
      blockedRequests: {
        total: tally.blockedDetections + tally.dlpBlocked,
        injection: tally.blockedDetections,
        personalData: tally.dlpBlocked,
      },
      top: { users: ranked(tally.users, TOP), apiKeys: ranked(tally.keys, TOP) },
      daily: [...tally.days.values()].sort((a, b) => (a.date < b.date ? -1 : 1)),
      usage,
      hallucination: {
        checks: usage.filter((u) => u.product === 'hallucination').reduce((n, u) => n + u.requests, 0),
        periods: labels,
      },
      gateway: {
        requests: models.reduce((n, m) => n + m.requests, 0),
        costMicroUsd: models.reduce((n, m) => n + m.costMicroUsd, 0),
        models,
      },
    };
  }

  async function run(org: ReportOrg, id: string, from: Date, to: Date): Promise<void> {
    try {
      const report = await build(org, id, from, to);
      const at = iso();
      await repo.update(org.id, id, {
        status: 'ready',
        progress: 100,
        result: JSON.stringify(report),
        updated_at: at,
        finished_at: at,
      });
    } catch (err) {
      const at = iso();
      // The stored reason is ours, never a driver message that could quote data.
      await repo
        .update(org.id, id, {
          status: 'failed',
          error: 'The report could not be built.',
          updated_at: at,
          finished_at: at,
        })
        .catch(() => {});
      throw err;
    }
  }

  async function load(org: ReportOrg, id: string): Promise<ReportsTable> {
    const row = await repo.get(org.id, id);
    if (!row) throw new AppError('not_found', `No report ${id}.`);
    if (row.status === 'running' && deps.clock.now().getTime() - Date.parse(row.updated_at) > STALE_MS) {
      const at = iso();
      const error = 'The report was interrupted (its process stopped); request it again.';
      await repo.update(org.id, id, { status: 'failed', error, updated_at: at, finished_at: at });
      return { ...row, status: 'failed', error, updated_at: at, finished_at: at };
    }
    return row;
  }

  return {
    /** Starts a report; resolves when it is ready (short periods) or once it is queued (long ones). */
    async create(org: ReportOrg, req: ReportRequest, requestedBy: string | null): Promise<ReportView> {
      const { from, to } = resolvePeriod(req, deps.clock.now());
      const at = iso();
      const row: ReportsTable = {
        id: newId('rep'),
        org_id: org.id,
        status: 'running',
        progress: 0,
        period_from: from.toISOString(),
        period_to: to.toISOString(),
        requested_by: requestedBy,
        result: null,
        error: null,
        created_at: at,
        updated_at: at,
        finished_at: null,
      };
      await repo.insert(row);
      const job = run(org, row.id, from, to);
      if (to.getTime() - from.getTime() <= INLINE_MAX_DAYS * DAY_MS) {
        await job;
      } else {
        const tracked: Promise<void> = job.catch(() => {}).finally(() => running.delete(tracked));
        running.add(tracked);
      }
      return view(await load(org, row.id));
    },
    async get(org: ReportOrg, id: string): Promise<ReportView> {
      return view(await load(org, id));
    },
    /** The finished report; 409 while it is still running, with its progress in the message. */
    async result(org: ReportOrg, id: string): Promise<AnalysisReport> {
      const row = await load(org, id);
      if (row.status === 'failed') throw new AppError('conflict', row.error ?? 'The report failed.');
      if (row.status !== 'ready' || row.result === null) {
        throw new AppError(
          'conflict',
          `The report is still being built (${row.progress} %); try again shortly.`,
        );
      }
      return JSON.parse(row.result) as AnalysisReport;
    },
    async list(
      org: ReportOrg,
      opts: { limit: number; cursor?: string },
    ): Promise<{ reports: ReportView[]; nextCursor: string | null }> {
      let before: { createdAt: string; id: string } | undefined;
      if (opts.cursor) {
        const [createdAt, id] = Buffer.from(opts.cursor, 'base64url').toString('utf8').split('|');
        if (!createdAt || !id) throw new AppError('invalid_request', 'cursor is not one this server issued.');
        before = { createdAt, id };
      }
      const rows = await repo.list(org.id, { limit: opts.limit + 1, ...(before ? { before } : {}) });
      const page = rows.slice(0, opts.limit);
      const last = page[page.length - 1];
      const nextCursor =
        rows.length > opts.limit && last
          ? Buffer.from(`${last.created_at}|${last.id}`).toString('base64url')
          : null;
      return { reports: page.map(view), nextCursor };
    },
    /** Waits for background reports (stop, tests). */
    async close(): Promise<void> {
      await Promise.all([...running]);
    },
  };
}

export type ReportsService = ReturnType<typeof createReportsService>;
