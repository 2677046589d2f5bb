import { writeFileSync, existsSync } from 'node:fs';
import { join } from 'node:path';
import { CliError } from './errors.js';
import { ensureDir } from './files.js';

/**
 * Runs `fn` holding an exclusive lock shared by every cssctl process using the same config folder.
 * proper-lockfile gives mkdir-based locks that work across processes and recover from a holder that died
 * (a lock not refreshed for `stale` ms is taken over).
 */
export async function withFileLock<T>(
  dir: string,
  name: string,
  fn: () => Promise<T>,
  /** Told once when the lock is held by another process and this one has to wait. */
  onWait?: (lockPath: string) => void,
): Promise<T> {
  const lockDir = join(dir, 'locks');
  const target = join(lockDir, `${name}.lock-target`);
  try {
    ensureDir(lockDir);
    // 'wx': created if missing, never written through an existing file or link.
    if (!existsSync(target)) {
      try {
        writeFileSync(target, '', { mode: 0o600, flag: 'wx' });
      } catch (err) {
        if ((err as NodeJS.ErrnoException).code !== 'EEXIST') throw err;
      }
    }
  } catch (err) {
    if (err instanceof CliError) throw err;
    throw new CliError(`could not create the lock ${target}: ${(err as Error).message.split('\n')[0]}`, {
      cause: err,
    });
  }
  return withPathLock(target, fn, onWait);
}

/**
 * Runs `fn` holding an exclusive lock on `target` (a file that need not exist: the lock is the folder
 * `<target>.lock` beside it), the same lock as withFileLock's, for a file every cssctl process that writes it
 * must take turns on whatever its config folder (the ignore file, which `findings ignore` reads, checks and
 * rewrites).
 */
export async function withPathLock<T>(
  target: string,
  fn: () => Promise<T>,
  onWait?: (lockPath: string) => void,
): Promise<T> {
  const { default: lockfile } = await import('proper-lockfile');
  const options = { stale: 15_000, update: 5_000, realpath: false };
  let release: () => Promise<void>;
  try {
    try {
      release = await lockfile.lock(target, { ...options, retries: 0 });
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code !== 'ELOCKED') throw err;
      onWait?.(`${target}.lock`);
      release = await lockfile.lock(target, {
        ...options,
        retries: { retries: 200, minTimeout: 25, maxTimeout: 150, factor: 1.3 },
      });
    }
  } catch (err) {
    throw new CliError(`could not take the lock ${target}: ${(err as Error).message}`, { cause: err });
  }
  try {
    return await fn();
  } finally {
    await release().catch(() => undefined);
  }
}
