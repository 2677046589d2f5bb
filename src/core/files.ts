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
  return (e?.message ?? String(err)).split('\n')[0]!;
}

/** Creates `dir` (and missing parents) with mode 0700; returns whether it had to create it. Never chmods. */
export function ensureDir(dir: string): boolean {
  try {
    if (statSync(dir).isDirectory()) return false;
  } catch {
    // missing: created below
  }
  try {
    mkdirSync(dir, { recursive: true, mode: 0o700 });
  } catch (err) {
    throw new CliError(`cannot create the folder ${dir}: ${fsErrorText(err)}`, { cause: err });
  }
  return true;
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
