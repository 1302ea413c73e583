import multipart from '@fastify/multipart';
import { Type } from 'typebox';
import type { FastifyRequest } from 'fastify';
import { AppError } from '../../platform/errors/index.js';
import { type App, errorResponses } from '../../platform/http/index.js';
import {
  DeleteResponse,
  IdParams,
  MAX_UPLOAD_BYTES,
  ScoreResult,
  SourceBody,
  SourceList,
  SourceSchema,
  ValidateBody,
  VerifyBody,
  VerifyResult,
} from './verifier.schemas.js';
import type { SourceInput, Upload, VerifierService } from './verifier.service.js';

const TAGS = ['verifier'];
// The role each route needs, read by the authentication hook (verifier.auth.ts); none: public.
// Sources name internal URLs, database hosts and users: listing and reading them is the administrator's too.
const ADMIN = { verifierRole: 'admin' } as const;
const ANY = { verifierRole: 'user' } as const;

/** Multipart fields are text: numbers, lists and the headers object are read back into the JSON shape. */
function fieldsToInput(fields: Record<string, string>): Record<string, unknown> {
  const out: Record<string, unknown> = { ...fields };
  if (fields['crawlDepth'] !== undefined) out['crawlDepth'] = Number(fields['crawlDepth']);
  for (const list of ['tables', 'allowedHosts'])
    if (fields[list] !== undefined)
      out[list] = fields[list]!.split(',')
        .map((s) => s.trim())
        .filter(Boolean);
  if (fields['headers'] !== undefined) {
    try {
      out['headers'] = JSON.parse(fields['headers']!);
    } catch {
      throw new AppError('invalid_request', "The field 'headers' must be a JSON object.");
    }
  }
  return out;
}

async function readMultipart(request: FastifyRequest): Promise<{ input: SourceInput; upload: Upload }> {
  const fields: Record<string, string> = {};
  let upload: Upload | null = null;
  for await (const part of request.parts()) {
    if (part.type === 'file') {
      if (upload) throw new AppError('invalid_request', 'Send one file per source.');
      upload = { fileName: part.filename || 'upload', data: await part.toBuffer() };
    } else fields[part.fieldname] = String(part.value);
  }
  if (!upload) throw new AppError('invalid_request', "The multipart field 'file' is required.");
  const input = fieldsToInput({ type: 'file', url: upload.fileName, ...fields });
  const validate = request.compileValidationSchema(SourceBody, 'body');
  if (!validate(input))
    throw Object.assign(new Error('invalid multipart fields'), {
      validation: validate.errors,
      validationContext: 'body',
    });
  return { input: input as unknown as SourceInput, upload };
}

/**
 * The verification server's routes. Its own API keys (`vf_live_…`, created by `parapet verifier init`):
 * administrators manage and validate sources, every key verifies and reads the score. Keys and rate
 * limits are checked by `installVerifierAuth`, installed on the server before these routes.
 */
export function verifierRoutes(service: VerifierService) {
  return async (app: App) => {
    await app.register(multipart, { limits: { fileSize: MAX_UPLOAD_BYTES, files: 1, fields: 20 } });
    app.post(
      '/api/verify',
      {
        config: ANY,
        schema: {
          operationId: 'verifierVerify',
          tags: TAGS,
          summary: "Check an LLM answer against the organization's connected sources",
          body: VerifyBody,
          response: { 200: VerifyResult, ...errorResponses(401, 403, 413) },
        },
      },
      async (request) => service.verify(request.body),
    );

    app.post(
      '/api/sources',
      {
        config: ADMIN,
        bodyLimit: MAX_UPLOAD_BYTES + 1024 * 1024,
        schema: {
          operationId: 'verifierCreateSource',
          tags: TAGS,
          summary: 'Connect a source (JSON, or multipart with a file); indexing starts at once',
          body: { content: { 'application/json': { schema: SourceBody } } },
          response: { 202: SourceSchema, ...errorResponses(401, 403, 413, 415) },
        },
      },
      async (request, reply) => {
        const created = request.isMultipart()
          ? await readMultipart(request).then(({ input, upload }) => service.createSource(input, upload))
          : await service.createSource(request.body as SourceInput);
        return reply.code(202).send(created);
      },
    );

    app.get(
      '/api/sources',
      {
        config: ADMIN,
        schema: {
          operationId: 'verifierListSources',
          tags: TAGS,
          summary: 'Every connected source with its status and counts',
          response: { 200: SourceList, ...errorResponses(401, 403) },
        },
      },
      async () => ({ sources: await service.listSources() }),
    );

    app.get(
      '/api/sources/:id',
      {
        config: ADMIN,
        schema: {
          operationId: 'verifierGetSource',
          tags: TAGS,
          summary: 'One source',
          params: IdParams,
          response: { 200: SourceSchema, ...errorResponses(401, 403, 404) },
        },
      },
      async (request) => service.getSource(request.params.id),
    );

    app.delete(
      '/api/sources/:id',
      {
        config: ADMIN,
        schema: {
          operationId: 'verifierDeleteSource',
          tags: TAGS,
          summary: 'Disconnect a source: its passages leave the index',
          params: IdParams,
          response: { 200: DeleteResponse, ...errorResponses(401, 403, 404) },
        },
      },
      async (request) => {
        await service.deleteSource(request.params.id);
        return { deleted: true, id: request.params.id };
      },
    );

    app.post(
      '/api/sources/:id/refresh',
      {
        config: ADMIN,
        schema: {
          operationId: 'verifierRefreshSource',
          tags: TAGS,
          summary: 'Index the source again now',
          params: IdParams,
          response: { 202: SourceSchema, ...errorResponses(401, 403, 404, 409) },
        },
      },
      async (request, reply) => reply.code(202).send(await service.refreshSource(request.params.id)),
    );

    app.post(
      '/api/sources/:id/validate',
      {
        config: ADMIN,
        // The body is optional: a bare POST validates.
        preValidation: (request, _reply, done) => {
          request.body ??= {};
          done();
        },
        schema: {
          operationId: 'verifierValidateSource',
          tags: TAGS,
          summary: 'Mark the source validated (it then decides claims at 100 %), or withdraw that',
          params: IdParams,
          body: ValidateBody,
          response: { 200: SourceSchema, ...errorResponses(401, 403, 404) },
        },
      },
      async (request) =>
        service.validateSource(
          request.params.id,
          request.body?.validated !== false,
          request.body?.validatedBy ?? request.verifierKey?.name ?? 'administrator',
        ),
    );

    // No key: container healthchecks and load balancers probe it. It says only that the process serves and
    // how many passages are indexed, nothing about the organization's sources.
    app.get(
      '/api/health',
      {
        schema: {
          operationId: 'verifierHealth',
          tags: TAGS,
          summary: 'Liveness of the verification server (no key needed)',
          response: {
            200: Type.Object({ status: Type.Literal('ok'), passages: Type.Integer() }),
          },
        },
      },
      async () => ({ status: 'ok' as const, passages: service.indexSize() }),
    );

    app.get(
      '/api/score',
      {
        config: ANY,
        schema: {
          operationId: 'verifierScore',
          tags: TAGS,
          summary: 'Mean verification score, connected and validated sources, last index update',
          response: { 200: ScoreResult, ...errorResponses(401) },
        },
      },
      async () => service.score(),
    );
  };
}
