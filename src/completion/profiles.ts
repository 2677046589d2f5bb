import { join } from 'node:path';
import { readStateFileSync } from '../core/read-file.js';

const PROFILE_NAME = /^[A-Za-z0-9][A-Za-z0-9_.-]{0,63}$/;

/**
 * The profile names of config.json, for TAB. Reads the one file and nothing else: no folder is created, no
 * keychain or network is touched, and a missing or unreadable file is simply no names.
 */
export function profileNames(dir: string): string[] {
  try {
    const parsed: unknown = JSON.parse(readStateFileSync(join(dir, 'config.json')));
    const profiles = (parsed as { profiles?: unknown } | null)?.profiles;
    if (!profiles || typeof profiles !== 'object' || Array.isArray(profiles)) return [];
    return Object.keys(profiles).filter((n) => PROFILE_NAME.test(n));
  } catch {
    return [];
  }
}
