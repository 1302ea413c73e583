import { createHash } from 'node:crypto';
import { type WriteStream, createWriteStream } from 'node:fs';
import { mkdir, readFile, rm } from 'node:fs/promises';
import { join } from 'node:path';
import { Transform } from 'node:stream';
import { finished, pipeline } from 'node:stream/promises';
import multipart from '@fastify/multipart';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { Type } from 'typebox';
import { newId } from '../../platform/crypto/index.js';
import { AppError } from '../../platform/errors/index.js';
import { type App, errorResponses, callerOf } from '../../platform/http/index.js';
import {
  GetQuery,
  IdParams,
  ListQuery,
  ProofList,
  ProofMetadata,
  ProofView,
  UploadReply,
} from './proofs.schemas.js';
import { sweepSpool } from './proof-store.js';
import type { ProofsService, SpooledFile } from './proofs.service.js';

const TAGS = ['proofs'];
const DEVICE = { mode: 'endpoint', accept: ['device'] } as const;
/**
 * "admin" (SPEC: get, list and delete are admin operations): a dashboard session of an owner or admin, or
 * an API key of the admin scope, which stands for an admin. A products key (the one an application holds to
 * call detection or tokenization) is refused: it used to read, download and delete the proofs, the
 * organization's evidence of what its users sent.
 */
const ADMIN = { mode: 'session', roles: ['owner', 'admin'], adminKey: true } as const;
const METADATA_MAX_BYTES = 256 * 1024;
const E = (...s: number[]) => errorResponses(401, 403, 429, ...s);
const ProofDeleted = Type.Object({ deleted: Type.Boolean(), id: Type.String() });

const malformed = () =>
  new AppError(
    'invalid_request',
    'The multipart body is malformed or truncated; send the parts file (the PDF) and metadata (JSON).',
  );

/** Errors of the multipart parser, as the spec's error body with our codes. */
function multipartError(err: unknown): AppError {
  if (err instanceof AppError) return err;
  const code = (err as { code?: string }).code ?? '';
  if (code === 'FST_INVALID_MULTIPART_CONTENT_TYPE')
    return new AppError('unsupported_media_type', 'Send the proof as multipart/form-data.');
  if (code === 'FST_FILES_LIMIT' || code === 'FST_PARTS_LIMIT' || code === 'FST_FIELDS_LIMIT')
    return new AppError('invalid_request', 'Send exactly two parts: file (the PDF) and metadata (JSON).');
  // fs errors of the spool (ENOSPC, EACCES, …) are ours, not the client's.
  if (/^E[A-Z]+$/.test(code))
    return new AppError('internal_error', 'The upload could not be stored.', { cause: err });
  return malformed();
}

/**
 * Reads the upload: the file part is streamed to a spool file while it is hashed and counted (never held
 * in memory beyond the parser's chunks), the metadata part is read as text. Every part is consumed to the
 * end before any refusal, so the client receives the error body rather than a reset connection.
 */
async function readUpload(
  request: FastifyRequest,
  o: { maxBytes: number; spoolDir: string },
): Promise<{ file: SpooledFile; metadata: unknown }> {
  if (!request.isMultipart())
    throw new AppError(
      'unsupported_media_type',
      'Send the proof as multipart/form-data with the parts file and metadata.',
    );
  await mkdir(o.spoolDir, { recursive: true });
  const path = join(o.spoolDir, `${newId('spool')}.part`);
  let file: SpooledFile | undefined;
  let spool: WriteStream | undefined;
  let metadataText: string | undefined;
  let problem: AppError | undefined;
  const refuse = (e: AppError) => {
    problem ??= e;
  };
  try {
    const parts = request.parts({
      limits: {
        fileSize: o.maxBytes,
        files: 3,
        fields: 4,
        parts: 6,
        fieldSize: METADATA_MAX_BYTES,
        headerPairs: 20,
      },
    });
    for await (const part of parts) {
      if (part.type === 'file') {
        if (part.fieldname !== 'file' || file) {
          refuse(
            new AppError(
              'invalid_request',
              part.fieldname === 'file'
                ? "Send one file in the part 'file'; this upload has two."
                : `Unexpected file part '${part.fieldname}'; the PDF goes in the part 'file'.`,
            ),
          );
          part.file.resume();
          // finished() also settles for a stream that already ended or was destroyed, where waiting for
          // 'end' or 'close' would wait forever.
          await finished(part.file).catch(() => undefined);
          continue;
        }
        const hash = createHash('sha256');
        let size = 0;
        spool = createWriteStream(path, { flags: 'wx' });
        await pipeline(
          part.file,
          new Transform({
            transform(chunk: Buffer, _enc, done) {
              hash.update(chunk);
              size += chunk.length;
              done(null, chunk);
            },
          }),
          spool,
        );
        if (part.file.truncated) {
          refuse(new AppError('payload_too_large', `The proof file is larger than ${o.maxBytes} bytes.`));
        }
        file = { path, size, sha256: hash.digest('hex') };
      } else if (part.fieldname === 'metadata') {
        if (metadataText !== undefined) refuse(new AppError('invalid_request', "Send one part 'metadata'."));
        else if (part.valueTruncated)
          refuse(
            new AppError(
              'invalid_request',
              `The part 'metadata' is larger than ${METADATA_MAX_BYTES} bytes.`,
            ),
          );
        else metadataText = String(part.value);
      } else {
        refuse(
          new AppError('invalid_request', `Unexpected part '${part.fieldname}'; send file and metadata.`),
        );
      }
    }
    if (problem) throw problem;
    if (!file) throw new AppError('invalid_request', "The part 'file' (the proof PDF) is required.");
    if (metadataText === undefined)
      throw new AppError('invalid_request', "The part 'metadata' (JSON) is required.");
    let metadata: unknown;
    try {
      metadata = JSON.parse(metadataText);
    } catch {
      throw new AppError('invalid_request', "The part 'metadata' must be a JSON object.");
    }
    if (typeof metadata !== 'object' || metadata === null || Array.isArray(metadata))
      throw new AppError('invalid_request', "The part 'metadata' must be a JSON object.");
    const validate = request.compileValidationSchema(ProofMetadata, 'body');
    if (!validate(metadata))
      throw Object.assign(new Error('invalid metadata'), {
        validation: validate.errors,
        validationContext: 'metadata',
      });
    return { file, metadata };
  } catch (err) {
    // pipeline() rejects as soon as the part fails, before the spool stream has closed: its open() may still
    // be running on another thread of the pool, and an unlink issued now can land first, leaving the file it
    // then creates behind (seen under load: one spool file left after a refused upload). Once the stream has
    // closed, its open has settled.
    if (spool && !spool.closed) await new Promise<void>((done) => spool?.once('close', () => done()));
    await rm(path, { force: true });
    if ((err as { validation?: unknown }).validation) throw err;
    throw multipartError(err);
  }
}

export interface ProofsRouteOptions {
  maxBytes: number;
  spoolDir: string;
  /** How long reading one upload may take before it is answered 408 (PARAPET_PROOF_READ_TIMEOUT_MS). */
  readTimeoutMs: number;
}

/**
 * Reads the upload within a time bound. The multipart parser has known cases where its part iterator never
 * settles on a malformed body; a request stuck there would hold its spool file and its connection for ever.
 * Past the bound the client gets 408 with an error body, then the request is destroyed, which ends the
 * parser's input and lets the reading settle and remove its spool file.
 */
async function readUploadBounded(
  request: FastifyRequest,
  reply: FastifyReply,
  o: ProofsRouteOptions,
): Promise<{ file: SpooledFile; metadata: unknown }> {
  const reading = readUpload(request, o);
  let timer: NodeJS.Timeout | undefined;
  let timedOut = false;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => {
      timedOut = true;
      reply.header('connection', 'close');
      // Once the 408 is out, the rest of the body is not wanted: destroying the request ends the parser's
      // input, so the reading settles and removes its spool file.
      reply.raw.once('close', () => request.raw.destroy());
      reject(new AppError('request_timeout', 'The upload was not received in time; send it again.'));
    }, o.readTimeoutMs);
  });
  // A reading that fails after the 408 removes its own spool file (readUpload's catch); one that succeeds
  // too late leaves a file nobody will store, removed here.
  reading.then(
    (late) => {
      if (timedOut) void rm(late.file.path, { force: true });
    },
    () => undefined,
  );
  try {
    return await Promise.race([reading, timeout]);
  } finally {
    clearTimeout(timer);
  }
}

const SPOOL_SWEEP_EVERY_MS = 60 * 60 * 1000;
// A spool file lives while its upload is read (bounded by the read timeout, at most 10 minutes) and then
// stored (a disk rename, or an S3 put of up to 100 MB): one hour is far past both, so an older file is a
// crashed upload's.
const SPOOL_MAX_AGE_MS = 60 * 60 * 1000;

/** Proof documents, `/api/v1/eps/proof*` (docs/proofs.md). */
export function proofsRoutes(service: ProofsService, o: ProofsRouteOptions) {
  return async (app: App) => {
    // Oversized files are truncated and reported after the body is read, not thrown mid-stream.
    await app.register(multipart, { throwFileSizeLimit: false });
    // Leftovers of uploads cut by a crash: swept at start and every hour while the server runs.
    const sweep = () =>
      sweepSpool(o.spoolDir, SPOOL_MAX_AGE_MS).then(
        (n) => {
          if (n > 0) app.log.info({ removed: n }, 'proof spool: removed files of interrupted uploads');
        },
        (err: unknown) => app.log.warn({ err }, 'proof spool sweep failed'),
      );
    app.addHook('onReady', async () => {
      await sweep();
    });
    const timer = setInterval(sweep, SPOOL_SWEEP_EVERY_MS);
    timer.unref();
    app.addHook('onClose', async () => clearInterval(timer));

    app.post(
      '/api/v1/eps/proof',
      {
        config: { auth: DEVICE },
        // The parser bounds each part; this bounds the whole request around them.
        bodyLimit: o.maxBytes + METADATA_MAX_BYTES + 64 * 1024,
        schema: {
          operationId: 'uploadProof',
          tags: TAGS,
          summary:
            'Upload a proof PDF (multipart: file + metadata JSON) with a device token; hash and PDF checked',
          consumes: ['multipart/form-data'],
          description:
            'Idempotent by content: a proof whose SHA-256 the organization already has is not stored twice. The same device sending the same metadata (a retry after a lost answer) gets the stored proof with 200; the same bytes from another device or with other metadata get 409 conflict. A new proof is 201.',
          response: { 201: UploadReply, 200: UploadReply, ...E(404, 408, 409, 413, 415) },
        },
      },
      async (request, reply) => {
        const c = callerOf(request);
        if (!c.device) throw new AppError('forbidden', 'This operation needs a device token.');
        const { file, metadata } = await readUploadBounded(request, reply, o);
        let bytes: Buffer;
        try {
          bytes = await readFile(file.path);
        } catch (err) {
          await rm(file.path, { force: true });
          throw err;
        }
        const out = await service.upload(c.org, c.device.deviceId, file, metadata as ProofMetadata, bytes);
        return reply.status(out.created ? 201 : 200).send(out.proof);
      },
    );

    app.get(
      '/api/v1/eps/proof/list',
      {
        config: { auth: ADMIN },
        schema: {
          operationId: 'listProofs',
          tags: TAGS,
          summary: 'Proofs of the organization, or of one device (deviceId), newest first',
          querystring: ListQuery,
          response: { 200: ProofList, ...E(404) },
        },
      },
      async (request) => service.list(callerOf(request).org.id, request.query),
    );

    app.get(
      '/api/v1/eps/proof/:id',
      {
        config: { auth: ADMIN },
        schema: {
          operationId: 'getProof',
          tags: TAGS,
          summary: 'A proof: its metadata, or the PDF itself with ?download=1 (application/pdf)',
          params: IdParams,
          querystring: GetQuery,
          response: { 200: ProofView, ...E(404) },
        },
      },
      async (request, reply) => {
        const orgId = callerOf(request).org.id;
        const { download } = request.query;
        if (download !== '1' && download !== 'true') return service.get(orgId, request.params.id);
        const pdf = await service.download(orgId, request.params.id);
        return reply
          .type('application/pdf')
          .header('content-length', String(pdf.size))
          .header('content-disposition', `attachment; filename="${pdf.id}.pdf"`)
          .header('cache-control', 'private, no-store')
          .header('x-content-type-options', 'nosniff')
          .send(pdf.stream as never);
      },
    );

    app.delete(
      '/api/v1/eps/proof/:id',
      {
        config: { auth: ADMIN },
        schema: {
          operationId: 'deleteProof',
          tags: TAGS,
          summary: 'Delete a proof (file and record) before its retention ends; audited',
          params: IdParams,
          response: { 200: ProofDeleted, ...E(404) },
        },
      },
      async (request) => {
        const c = callerOf(request);
        return service.remove(c.org, request.params.id, {
          userId: c.user?.id ?? null,
          apiKeyId: c.key?.id ?? null,
        });
      },
    );
  };
}
