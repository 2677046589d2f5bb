import { mkdirSync, writeFileSync, existsSync } from 'node:fs';
import { join } from 'node:path';
import { CliError } from './errors.js';

/**
 * Runs `fn` holding an exclusive lock shared by every cssctl process using the same config folder.
 * proper-lockfile gives mkdir-based locks that work across processes and recover from a holder that died
 * (a lock not refreshed for `stale` ms is taken over).
 */
export async function withFileLock<T>(dir: string, name: string, fn: () => Promise<T>): Promise<T> {
  const lockDir = join(dir, 'locks');
  mkdirSync(lockDir, { recursive: true, mode: 0o700 });
  const target = join(lockDir, `${name}.lock-target`);
  if (!existsSync(target)) writeFileSync(target, '', { mode: 0o600 });
  const { default: lockfile } = await import('proper-lockfile');
  let release: () => Promise<void>;
  try {
    release = await lockfile.lock(target, {
      stale: 15_000,
      update: 5_000,
      retries: { retries: 200, minTimeout: 25, maxTimeout: 150, factor: 1.3 },
      realpath: false,
    });
  } catch (err) {
    throw new CliError(`could not take the lock ${target}: ${(err as Error).message}`, { cause: err });
  }
  try {
    return await fn();
  } finally {
    await release().catch(() => undefined);
  }
}
