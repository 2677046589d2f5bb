import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { writeFileAtomic } from './files.js';
import { readStateFileSync } from './read-file.js';
import { MAX_RESET_AHEAD_MS, type ExhaustedWindows } from './http/ratelimit.js';

/**
 * `ratelimit-state.json` in the config folder: bucket keys (service origin, workspace, bucket — nothing
 * secret) with the Reset of a window seen exhausted. Best effort: an unreadable file is ignored, and two
 * processes writing at once may drop an entry, which costs at worst one 429 that is then waited out.
 * Entries already reset, or further ahead than MAX_RESET_AHEAD_MS (a broken header an older cssctl kept),
 * are dropped on reading, so the file can never block a command for longer than that bound.
 */
export function fileExhaustedWindows(dir: string, now: () => number): ExhaustedWindows {
  const path = join(dir, 'ratelimit-state.json');
  const read = (): Record<string, number> => {
    try {
      const data = JSON.parse(readStateFileSync(path)) as unknown;
      if (!data || typeof data !== 'object' || Array.isArray(data)) return {};
      return Object.fromEntries(
        Object.entries(data).filter(
          ([, v]) =>
            typeof v === 'number' && Number.isFinite(v) && v > now() && v - now() <= MAX_RESET_AHEAD_MS,
        ),
      ) as Record<string, number>;
    } catch {
      return {};
    }
  };
  return {
    load: read,
    save(key, resetAt) {
      try {
        if (!existsSync(dir)) return; // never creates the config folder for a cache
        const data = { ...read(), [key]: resetAt };
        // The shared atomic write: no symlink followed, no temporary file left on a full disk.
        writeFileAtomic(path, `${JSON.stringify(data)}\n`, 0o600);
      } catch {
        // Sharing is an optimisation: a read-only config folder must not fail the command.
      }
    },
  };
}
