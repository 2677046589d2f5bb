// The remote completion values' cache folder and their quiet failures (src/completion/remote.ts).
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { homedir, tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { cacheDir, remoteValues } from '../../src/completion/remote.js';

const dirs: string[] = [];
afterEach(() => {
  for (const d of dirs.splice(0)) rmSync(d, { recursive: true, force: true });
});
function tmp(): string {
  const d = mkdtempSync(join(tmpdir(), 'cssctl-remote-'));
  dirs.push(d);
  return d;
}

describe('cacheDir', () => {
  it('is $XDG_CACHE_HOME/cssctl, else ~/.cache/cssctl; a relative XDG_CACHE_HOME is ignored', () => {
    expect(cacheDir({ XDG_CACHE_HOME: '/c', HOME: '/h' })).toBe('/c/cssctl');
    expect(cacheDir({ HOME: '/h' })).toBe('/h/.cache/cssctl');
    expect(cacheDir({ XDG_CACHE_HOME: 'rel', HOME: '/h' })).toBe('/h/.cache/cssctl');
  });

  it('is the platform’s own cache folder on macOS and Windows; a relative HOME or XDG_CACHE_HOME is not used', async () => {
    const { cacheDir: dirOf } = await import('../../bin/dirs.cjs');
    expect(dirOf({ HOME: '/Users/a' }, 'darwin')).toBe('/Users/a/Library/Caches/cssctl');
    expect(dirOf({ HOME: '/Users/a', XDG_CACHE_HOME: '/x' }, 'darwin')).toBe('/x/cssctl');
    expect(dirOf({ LOCALAPPDATA: 'C:\\Users\\a\\AppData\\Local', XDG_CACHE_HOME: '/x' }, 'win32')).toBe(
      'C:\\Users\\a\\AppData\\Local\\cssctl\\Cache',
    );
    expect(dirOf({ USERPROFILE: 'C:\\Users\\b' }, 'win32')).toBe(
      'C:\\Users\\b\\AppData\\Local\\cssctl\\Cache',
    );
    expect(dirOf({ HOME: '/h' }, 'linux')).toBe('/h/.cache/cssctl');
    expect(dirOf({ HOME: 'relative', XDG_CACHE_HOME: 'rel' }, 'linux')).toBe(
      join(homedir(), '.cache', 'cssctl'),
    );
  });
});

describe('remoteValues', () => {
  it('no service address: nothing, and no cache folder made', async () => {
    const d = tmp();
    const env = { HOME: d, CSSCTL_CONFIG_DIR: join(d, 'config'), XDG_CACHE_HOME: join(d, 'cache') };
    await expect(remoteValues('connections', { env })).resolves.toEqual([]);
    await expect(remoteValues('scans', { env, globals: { baseUrl: 'not a url' } })).resolves.toEqual([]);
  });

  it('a fresh cache is used without asking; an old one, or one with unsafe names, is not', async () => {
    const d = tmp();
    const env = {
      HOME: d,
      CSSCTL_CONFIG_DIR: join(d, 'config'),
      XDG_CACHE_HOME: join(d, 'cache'),
      CSSCTL_BASE_URL: 'http://127.0.0.1:9',
      CSSCTL_WORKSPACE: 'acme',
    };
    // Find the file the function uses by letting it fail once (nothing cached), then plant entries.
    const now = 1_000_000;
    await remoteValues('connections', { env, now: () => now, timeoutMs: 300 });
    mkdirSync(join(d, 'cache', 'cssctl'), { recursive: true });
    const { createHash } = await import('node:crypto');
    const key = createHash('sha256').update('default\nhttp://127.0.0.1:9\nacme').digest('hex').slice(0, 16);
    const file = join(d, 'cache', 'cssctl', `complete-connections-${key}.json`);
    writeFileSync(file, JSON.stringify({ at: now - 1000, values: ['prod', 'bad name', '$(x)', 'dev'] }));
    await expect(remoteValues('connections', { env, now: () => now })).resolves.toEqual(['prod', 'dev']);
    writeFileSync(file, JSON.stringify({ at: now - 61_000, values: ['prod'] }));
    await expect(remoteValues('connections', { env, now: () => now, timeoutMs: 300 })).resolves.toEqual([]);
  });
});
