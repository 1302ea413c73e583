import type { FastifyRequest } from 'fastify';
import { type App, errorResponses, callerOf } from '../../platform/http/index.js';
import { reportCsv, reportPdf } from './reports.render.js';
import {
  AnalysisReportSchema,
  CreateReportBody,
  DEFAULT_PER_PAGE,
  DownloadQuery,
  IdParams,
  ListQuery,
  ReportListSchema,
  ReportViewSchema,
} from './reports.schemas.js';
import type { ReportOrg, ReportView, ReportsService } from './reports.service.js';

// Any key kind, or a dashboard session of a role that may read the organization's activity.
const AUTH = { auth: { mode: 'apiKeyOrSession', roles: ['owner', 'admin', 'member', 'viewer'] } } as const;
// Generating a report writes a record and may run a long job: not for a viewer, who only reads (docs/auth.md).
const CREATE = { auth: { mode: 'apiKeyOrSession', roles: ['owner', 'admin', 'member'] } } as const;

function withLinks(v: ReportView) {
  return { ...v, links: { self: `/api/v1/report/${v.id}`, download: `/api/v1/report/${v.id}/download` } };
}

function orgOf(request: FastifyRequest): ReportOrg {
  return callerOf(request).org;
}

function requester(request: FastifyRequest): string | null {
  const c = callerOf(request);
  return c.key?.id ?? c.user?.id ?? null;
}

export function reportsRoutes(reports: ReportsService) {
  return async function plugin(app: App): Promise<void> {
    app.post(
      '/api/v1/report',
      {
        config: CREATE,
        schema: {
          operationId: 'createReport',
          tags: ['reports'],
          summary:
            'Generate an analysis report (201 when ready; 202 while a long period is built in the background)',
          body: CreateReportBody,
          response: { 201: ReportViewSchema, 202: ReportViewSchema, ...errorResponses(400, 401, 403, 429) },
        },
      },
      async (request, reply) => {
        const v = await reports.create(orgOf(request), request.body, requester(request));
        reply.header('location', `/api/v1/report/${v.id}`);
        return reply.status(v.status === 'running' ? 202 : 201).send(withLinks(v));
      },
    );

    app.get(
      '/api/v1/report',
      {
        config: AUTH,
        schema: {
          operationId: 'listReports',
          tags: ['reports'],
          summary: 'Reports of the organization, newest first (keyset-paged)',
          querystring: ListQuery,
          response: { 200: ReportListSchema, ...errorResponses(400, 401, 403, 429) },
        },
      },
      async (request) => {
        // The schema bounds it (1–100, 400 outside, as every other list): no silent clamping.
        const perPage = request.query.perPage ?? DEFAULT_PER_PAGE;
        const page = await reports.list(orgOf(request), {
          limit: perPage,
          ...(request.query.cursor ? { cursor: request.query.cursor } : {}),
        });
        return { reports: page.reports.map(withLinks), nextCursor: page.nextCursor };
      },
    );

    app.get(
      '/api/v1/report/:id',
      {
        config: AUTH,
        schema: {
          operationId: 'getReport',
          tags: ['reports'],
          summary: 'Status and progress of a report',
          params: IdParams,
          response: { 200: ReportViewSchema, ...errorResponses(401, 403, 404, 429) },
        },
      },
      async (request) => withLinks(await reports.get(orgOf(request), request.params.id)),
    );

    app.get(
      '/api/v1/report/:id/download',
      {
        config: AUTH,
        schema: {
          operationId: 'downloadReport',
          tags: ['reports'],
          summary: 'The finished report as JSON (default), CSV or PDF; 409 while it is being built',
          params: IdParams,
          querystring: DownloadQuery,
          response: {
            200: {
              description: 'the report',
              content: {
                'application/json': { schema: AnalysisReportSchema },
                'text/csv': { schema: { type: 'string' } },
                'application/pdf': { schema: { type: 'string', format: 'binary' } },
              },
            },
            ...errorResponses(400, 401, 403, 404, 409, 429),
          },
        },
      },
      async (request, reply) => {
        const report = await reports.result(orgOf(request), request.params.id);
        const format = request.query.format ?? 'json';
        const name = `parapet-report-${report.period.from.slice(0, 10)}-${report.period.to.slice(0, 10)}`;
        if (format === 'json') return reply.type('application/json; charset=utf-8').send(report);
        reply.header('content-disposition', `attachment; filename="${name}.${format}"`);
        if (format === 'csv') return reply.type('text/csv; charset=utf-8').send(reportCsv(report));
        // The schema types the JSON variant; the PDF goes out as raw bytes.
        return reply.type('application/pdf').send(Buffer.from(await reportPdf(report)) as never);
      },
    );
  };
}
