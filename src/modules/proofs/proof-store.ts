import { createReadStream } from 'node:fs';
import { mkdir, readdir, rename, rm, stat } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import type { Readable } from 'node:stream';

/**
 * Where proof PDFs live. Uploads are spooled to a local temporary file first (hashed and checked there);
 * only a proof that passed every check is put into the store, so a refused upload stores nothing.
 */
export interface ProofStore {
  readonly kind: 'disk' | 's3';
  /** Moves a checked temporary file into the store under `key`. */
  put(key: string, file: string, size: number): Promise<void>;
  /** The stored bytes, or undefined when the object is gone. */
  get(key: string): Promise<Readable | undefined>;
  /** Removes the object; removing a missing one is not an error. */
  delete(key: string): Promise<void>;
}

const SAFE_KEY = /^[A-Za-z0-9_]+\/[A-Za-z0-9_]+\.pdf$/;

function checkKey(key: string): void {
  // Keys are built from ids by the service; anything else would be a path outside the store.
  if (!SAFE_KEY.test(key)) throw new Error(`invalid proof store key ${key}`);
}

/** The embedded default: files under `<data folder>/proofs/<org>/<proof>.pdf`. */
export function createDiskStore(root: string): ProofStore {
  return {
    kind: 'disk',
    async put(key, file) {
      checkKey(key);
      const target = join(root, key);
      await mkdir(dirname(target), { recursive: true });
      // The spool folder is under the same data folder, so this is a rename, not a copy.
      await rename(file, target);
    },
    async get(key) {
      checkKey(key);
      const path = join(root, key);
      try {
        await stat(path);
      } catch {
        return undefined;
      }
      return createReadStream(path);
    },
    async delete(key) {
      checkKey(key);
      await rm(join(root, key), { force: true });
    },
  };
}

export interface S3Settings {
  /** s3://bucket[/prefix] */
  url: string;
  endpoint?: string | undefined;
  region: string;
  accessKeyId?: string | undefined;
  secretAccessKey?: string | undefined;
}

/**
 * An S3 bucket (AWS or any S3-compatible server) through the official AWS SDK, loaded only when configured.
 * The file is streamed from the spool with its length, so the SDK sends it in one PUT without buffering it.
 */
export async function createS3Store(s: S3Settings): Promise<ProofStore> {
  const sdk = await import('@aws-sdk/client-s3');
  const u = new URL(s.url);
  const bucket = u.hostname;
  const prefix = u.pathname.replace(/^\/+|\/+$/g, '');
  const objectKey = (key: string) => (prefix ? `${prefix}/${key}` : key);
  const client = new sdk.S3Client({
    region: s.region,
    // Checksums only where S3 requires them: a streamed PUT otherwise goes out aws-chunked with a CRC
    // trailer, which older S3-compatible servers store verbatim (s3rver did: the bytes came back altered).
    requestChecksumCalculation: 'WHEN_REQUIRED',
    responseChecksumValidation: 'WHEN_REQUIRED',
    ...(s.endpoint ? { endpoint: s.endpoint, forcePathStyle: true } : {}),
    ...(s.accessKeyId && s.secretAccessKey
      ? { credentials: { accessKeyId: s.accessKeyId, secretAccessKey: s.secretAccessKey } }
      : {}),
  });
  return {
    kind: 's3',
    async put(key, file, size) {
      checkKey(key);
      await client.send(
        new sdk.PutObjectCommand({
          Bucket: bucket,
          Key: objectKey(key),
          Body: createReadStream(file),
          ContentLength: size,
          ContentType: 'application/pdf',
        }),
      );
      await rm(file, { force: true });
    },
    async get(key) {
      checkKey(key);
      try {
        const out = await client.send(new sdk.GetObjectCommand({ Bucket: bucket, Key: objectKey(key) }));
        return out.Body as Readable;
      } catch (err) {
        if ((err as { name?: string }).name === 'NoSuchKey') return undefined;
        throw err;
      }
    },
    async delete(key) {
      checkKey(key);
      await client.send(new sdk.DeleteObjectCommand({ Bucket: bucket, Key: objectKey(key) }));
    },
  };
}

/**
 * Removes spool files an interrupted upload left behind (a crash or SIGKILL between the first byte and the
 * store's put): they hold a device's PDF, which may carry personal data, and nothing refers to them.
 * Only files older than `maxAgeMs` go, so an upload another process of the same data folder is receiving
 * right now is never touched (uploads are bounded in size and in time by the server's timeouts).
 * Returns how many files were removed.
 */
export async function sweepSpool(dir: string, maxAgeMs: number, now = Date.now()): Promise<number> {
  let names: string[];
  try {
    names = await readdir(dir);
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ENOENT') return 0;
    throw err;
  }
  let removed = 0;
  for (const name of names) {
    if (!name.endsWith('.part')) continue;
    const path = join(dir, name);
    try {
      const st = await stat(path);
      if (!st.isFile() || now - st.mtimeMs < maxAgeMs) continue;
      await rm(path, { force: true });
      removed++;
    } catch (err) {
      // Finished (renamed into the store) between readdir and stat: nothing to sweep.
      if ((err as NodeJS.ErrnoException).code !== 'ENOENT') throw err;
    }
  }
  return removed;
}
