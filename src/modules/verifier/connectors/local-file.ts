import { constants, type Stats } from 'node:fs';
import { type FileHandle, open, readdir, readlink, realpath, stat } from 'node:fs/promises';
import { isAbsolute, join, resolve, sep } from 'node:path';
import { fileURLToPath } from 'node:url';

/**
 * What the verifier keeps for itself and never reads as a source: its data folder (master key, embedded
 * store, uploaded copies) and its store's files wherever they are. A passage read from any of them would
 * be evidence that every user key can have quoted back by `/api/verify`.
 */
export interface OwnData {
  /** PARAPET_VERIFIER_DATA_DIR; null in tests of a connector alone. */
  dir: string | null;
  /** The embedded store's file(s), compared by device and inode. */
  files: readonly string[];
}

/** Why a local path cannot be a source: the end of a sentence that starts with the path or the field. */
export class LocalFileProblem extends Error {}

/** A path as given (`/srv/docs/a.pdf` or `file:///srv/docs/a.pdf`); null when it is neither. */
export function localPath(url: string): string | null {
  if (!url.startsWith('file:')) return url;
  try {
    return fileURLToPath(url);
  } catch {
    return null;
  }
}

export const identity = (s: Stats): string => `${s.dev}:${s.ino}`;

/**
 * The device and inode of every file directly in the data folder (master.key, the store, its -wal and -shm)
 * and of the store's files: a hard link elsewhere to one of them is the same file under an innocent path.
 */
async function ownIdentities(own: OwnData): Promise<Set<string>> {
  const files = [...own.files];
  if (own.dir !== null) {
    const names = await readdir(own.dir).catch(() => [] as string[]);
    files.push(...names.map((n) => join(own.dir!, n)));
  }
  const out = new Set<string>();
  for (const f of [...files, ...own.files.flatMap((f) => [`${f}-wal`, `${f}-shm`, `${f}-journal`])]) {
    const s = await stat(f).catch(() => null);
    if (s?.isFile()) out.add(identity(s));
  }
  return out;
}

const inside = (dir: string, path: string): boolean => path === dir || path.startsWith(dir + sep);

/**
 * The kernel's own file systems: their "files" are the process's environment (PARAPET_VERIFIER_MASTER_KEY
 * when set so), memory, descriptors and devices. Some are regular files to stat (/proc/self/environ,
 * /dev/shm/*), so the regular-file test alone lets a link named notes.txt index them.
 */
const KERNEL_DIRS = ['/proc', '/sys', '/dev'];

/**
 * The path the kernel opened, links resolved at the moment of opening. On Linux /proc/self/fd/N names the
 * opened file itself, so a link swapped after the open changes nothing; elsewhere the path's realpath is
 * taken and must lead to the very file that was opened (else the link changed in between: refused).
 */
async function openedPath(handle: FileHandle, path: string, opened: Stats): Promise<string> {
  const viaProc = await readlink(`/proc/self/fd/${handle.fd}`).catch(() => null);
  if (viaProc?.startsWith('/') && !viaProc.endsWith(' (deleted)')) return viaProc;
  const real = await realpath(path);
  if (identity(await stat(real)) !== identity(opened))
    throw new LocalFileProblem('changed while it was being opened (a link was replaced); try again');
  return real;
}

const REASONS: Record<string, string> = {
  ENOENT: "does not exist on the verifier's host",
  ENOTDIR: "does not exist on the verifier's host (a part of it is not a folder)",
  EACCES: 'cannot be read by the verifier (permission denied)',
  EPERM: 'cannot be read by the verifier (permission denied)',
  ELOOP: 'is a loop of symbolic links',
  ENAMETOOLONG: 'is too long',
};

/**
 * Opens a local file for a source, refusing what the verifier keeps for itself. The file is opened first
 * and judged by what was opened (its kernel path, its device and inode), so a symbolic link swapped between
 * the check and the read cannot lead the read elsewhere: the caller reads from the returned handle.
 * Non-blocking, so that a FIFO put in a file's place cannot hang the indexing; only regular files pass.
 */
export async function openLocalFile(
  path: string,
  own: OwnData,
): Promise<{ handle: FileHandle; real: string; opened: Stats }> {
  if (!isAbsolute(path))
    throw new LocalFileProblem(
      'must be an absolute path: a relative one would depend on the folder the verifier was started in',
    );
  let handle: FileHandle;
  try {
    handle = await open(path, constants.O_RDONLY | constants.O_NONBLOCK);
  } catch (err) {
    const code = (err as NodeJS.ErrnoException).code ?? 'error';
    throw new LocalFileProblem(REASONS[code] ?? `cannot be opened (${code})`);
  }
  try {
    const opened = await handle.stat();
    if (opened.isDirectory())
      throw new LocalFileProblem(
        'is a folder, and a file source is one file: add a source for each file, or upload them',
      );
    if (!opened.isFile()) throw new LocalFileProblem('is not a regular file');
    const real = await openedPath(handle, path, opened);
    const kernel = KERNEL_DIRS.find((d) => inside(d, real));
    if (kernel !== undefined)
      throw new LocalFileProblem(
        `leads into ${kernel} (the system's process, device and kernel files, such as the verifier's environment with its master key), which cannot be a source`,
      );
    const dir = own.dir === null ? null : await realpath(own.dir).catch(() => resolve(own.dir!));
    if (dir !== null && inside(dir, real))
      throw new LocalFileProblem(
        "leads into the verifier's data folder (its master key, store and uploaded files), which cannot be a source",
      );
    if ((await ownIdentities(own)).has(identity(opened)))
      throw new LocalFileProblem(
        "is one of the verifier's own files (its master key or store), which cannot be a source",
      );
    return { handle, real, opened };
  } catch (err) {
    await handle.close();
    throw err;
  }
}

/** Checks a local path as openLocalFile does and closes it again (at registration). */
export async function checkLocalFile(path: string, own: OwnData): Promise<void> {
  await (await openLocalFile(path, own)).handle.close();
}
