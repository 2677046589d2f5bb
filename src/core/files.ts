import {
  closeSync,
  fsyncSync,
  lstatSync,
  mkdirSync,
  openSync,
  renameSync,
  statSync,
  unlinkSync,
  writeSync,
} from 'node:fs';
import { randomBytes } from 'node:crypto';
import { basename, dirname, join } from 'node:path';
import { CliError } from './errors.js';

/**
 * The one way cssctl writes its files (config.json, credentials.json, state): a temporary file in the same
 * folder, written, fsync-ed, then renamed over the target — so a reader sees the old file or the new one,
 * never half of one. The rules of cli-contract.md §6 live here:
 * - a target that is a symbolic link is refused (exit 1): cssctl never writes through a link to another file;
 * - only files and folders cssctl creates get a mode (the new file `mode`, new folders 0700); an existing
 *   folder — `$HOME` named by CSSCTL_CONFIG_DIR, a shared folder — is never chmod-ed;
 * - when the write fails (disk full, I/O error), the old file is left as it was, the temporary file is
 *   removed, and the error is one line naming the file.
 */

/** Test seam: replaced in unit tests to simulate a full disk or an I/O error. */
export const fsOps = { writeSync, fsyncSync, renameSync };

/** A file-system error as the few words a user reads after the file's name. */
export function fsErrorText(err: unknown): string {
  const e = err as NodeJS.ErrnoException;
  if (e?.code === 'ENOSPC') return 'no space left on the device';
  if (e?.code === 'EDQUOT') return 'disk quota exceeded';
  if (e?.code === 'EIO') return 'input/output error';
  if (e?.code === 'EROFS') return 'read-only file system';
  if (e?.code === 'EFBIG') return 'file too large (past the file-size limit)';
  if (e?.code === 'EACCES' || e?.code === 'EPERM') return 'permission denied';
  // Writing: the temporary file beside the target could not be made there (its name is of no use to anyone).
  if (e?.code === 'ENOENT') return 'its folder does not exist';
  if (e?.code === 'ENOTDIR') return 'a part of its path is not a folder';
  return (e?.message ?? String(err)).split('\n')[0]!;
}

/**
 * Creates `dir` (and missing parents) with mode 0700; returns whether it had to create it. Never chmods.
 * Not Node's recursive mkdir: where a folder exists but cannot hold another (`/proc/nope/x`: ENOENT for a
 * parent that stat calls missing), it retries for ever, at 100% CPU and deaf to signals (bin/cssctl.cjs
 * makeFolder does the same for the code cache).
 */
export function ensureDir(dir: string): boolean {
  try {
    if (statSync(dir).isDirectory()) return false;
  } catch {
    // missing: created below
  }
  try {
    makeFolder(dir);
  } catch (err) {
    throw new CliError(`cannot create the folder ${dir}: ${folderErrorText(err)}`, { cause: err });
  }
  return true;
}

/** mkdir -p, one level at a time: each missing parent is made once, and a refusal is final. */
function makeFolder(dir: string): void {
  try {
    mkdirSync(dir, { mode: 0o700 });
  } catch (err) {
    const code = (err as NodeJS.ErrnoException).code;
    if (code === 'EEXIST' && statSync(dir).isDirectory()) return;
    const parent = dirname(dir);
    if (code !== 'ENOENT' || parent === dir) throw err;
    makeFolder(parent);
    try {
      mkdirSync(dir, { mode: 0o700 });
    } catch (again) {
      // The parent is there and still refuses (under /proc, /sys): no retry.
      if ((again as NodeJS.ErrnoException).code === 'ENOENT')
        throw Object.assign(new Error(`${parent} cannot hold new folders`), { code: 'ENOENT_PARENT' });
      throw again;
    }
  }
}

function folderErrorText(err: unknown): string {
  const e = err as NodeJS.ErrnoException;
  if (e?.code === 'ENOENT_PARENT') return e.message;
  if (e?.code === 'EEXIST') return 'a file of that name is in the way';
  return fsErrorText(err);
}

/** Whether an existing folder can be read by other users (the contract warns instead of tightening). */
export function readableByOthers(dir: string): boolean {
  if (process.platform === 'win32') return false;
  try {
    return (statSync(dir).mode & 0o077) !== 0;
  } catch {
    return false;
  }
}

/** Refuses a target that is a symbolic link (or anything but a regular file). */
export function assertNotLink(path: string): void {
  let st;
  try {
    st = lstatSync(path);
  } catch {
    return; // does not exist yet
  }
  if (st.isSymbolicLink()) {
    throw new CliError(`refusing to write ${path}: it is a symbolic link`, {
      hint: 'cssctl never writes through a link; replace it with a regular file or remove it',
    });
  }
  if (!st.isFile()) throw new CliError(`refusing to write ${path}: it is not a regular file`);
}

/** Writes `data` to `path` atomically (see above). Creates the folder (0700) when it is missing. */
export function writeFileAtomic(path: string, data: string, mode = 0o600): void {
  const dir = dirname(path);
  ensureDir(dir);
  assertNotLink(path);
  const tmp = join(dir, `.${basename(path)}.${process.pid}.${randomBytes(4).toString('hex')}.tmp`);
  let fd: number | undefined;
  try {
    // 'wx': never opens an existing file (nor follows a planted link) under the temporary name.
    fd = openSync(tmp, 'wx', mode);
    const buf = Buffer.from(data, 'utf8');
    for (let off = 0; off < buf.length;) off += fsOps.writeSync(fd, buf, off, buf.length - off);
    fsOps.fsyncSync(fd);
    closeSync(fd);
    fd = undefined;
    fsOps.renameSync(tmp, path);
  } catch (err) {
    if (fd !== undefined) {
      try {
        closeSync(fd);
      } catch {
        // already closed
      }
    }
    try {
      unlinkSync(tmp);
    } catch {
      // never created, or already gone
    }
    throw new CliError(`cannot write ${path}: ${fsErrorText(err)}`, { cause: err });
  }
}

/**
 * The same rules for a file written piece by piece (a report of any size): a temporary file beside the target,
 * written in 64 KiB chunks, then fsync-ed and renamed over it by `commit()`; `abort()` (an interruption, an
 * error) removes the temporary file and leaves any earlier file at the path as it was. A write error is kept
 * and reported by `commit()`, so one failing report never stops the others.
 */
export class AtomicFileWriter {
  private fd?: number;
  private readonly tmp: string;
  private parts: string[] = [];
  private size = 0;
  private failure?: unknown;

  constructor(
    readonly path: string,
    mode = 0o644,
  ) {
    const dir = dirname(path);
    this.tmp = join(dir, `.${basename(path)}.${process.pid}.${randomBytes(4).toString('hex')}.tmp`);
    try {
      assertNotLink(path);
      this.fd = openSync(this.tmp, 'wx', mode);
    } catch (err) {
      this.failure = err;
    }
  }

  /** The error that keeps this file from being written, if one happened yet. */
  get error(): CliError | undefined {
    return this.failure === undefined ? undefined : this.asError(this.failure);
  }

  write(text: string): void {
    if (this.failure !== undefined) return;
    this.parts.push(text);
    this.size += text.length;
    if (this.size >= 64 * 1024) this.flush();
  }

  private flush(): void {
    if (this.failure !== undefined || this.size === 0) return;
    const buf = Buffer.from(this.parts.join(''), 'utf8');
    this.parts = [];
    this.size = 0;
    try {
      for (let off = 0; off < buf.length;) off += fsOps.writeSync(this.fd!, buf, off, buf.length - off);
    } catch (err) {
      this.failure = err;
    }
  }

  /** Renames the finished file into place; throws a CliError naming the file when it could not be written. */
  commit(): void {
    this.flush();
    if (this.failure === undefined) {
      try {
        fsOps.fsyncSync(this.fd!);
        closeSync(this.fd!);
        this.fd = undefined;
        fsOps.renameSync(this.tmp, this.path);
        return;
      } catch (err) {
        this.failure = err;
      }
    }
    this.abort();
    throw this.asError(this.failure);
  }

  /** Removes the temporary file; the target is left as it was. Safe to call more than once. */
  abort(): void {
    if (this.fd !== undefined) {
      try {
        closeSync(this.fd);
      } catch {
        // already closed
      }
      this.fd = undefined;
    }
    try {
      unlinkSync(this.tmp);
    } catch {
      // never created, or already gone
    }
  }

  private asError(err: unknown): CliError {
    return err instanceof CliError
      ? err
      : new CliError(`cannot write ${this.path}: ${fsErrorText(err)}`, { cause: err });
  }
}
