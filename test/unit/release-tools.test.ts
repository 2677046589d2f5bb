// A release that cannot be made says so before building anything, in one line, and a release that fails or is
// stopped leaves no process behind (issue 33 #10: with qemu-user-static alone, `npm run release` crashed a minute
// in with `spawn qemu-aarch64 ENOENT` and a stack trace, and left the code cache's sandbox running).
import { spawn, spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync, symlinkSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';

const ROOT = fileURLToPath(new URL('../..', import.meta.url));
const buildExe = (await import(pathToFileURL(join(ROOT, 'scripts/build-exe.mjs')).href)) as {
  missingTools: (targets: string[], o?: { path?: string; sysroot?: string }) => string | undefined;
  HOST: string;
};
const codeCache = (await import(pathToFileURL(join(ROOT, 'scripts/code-cache.mjs')).href)) as {
  writeCodeCache: (o: { runner: string[]; out: string }) => Promise<void>;
};

/** A folder for PATH holding links to the named programs only. */
function binWith(names: string[]) {
  const dir = mkdtempSync(join(tmpdir(), 'cssctl-path-'));
  for (const n of names) {
    const found = spawnSync('sh', ['-c', `command -v ${n}`], { encoding: 'utf8' }).stdout.trim();
    if (found) symlinkSync(found, join(dir, n));
  }
  return dir;
}
const made: string[] = [];
afterAll(() => {
  for (const d of made) rmSync(d, { recursive: true, force: true });
});

/** The live children of `pid`: pid and command line. */
const childrenOf = (pid: number) =>
  spawnSync('ps', ['-o', 'pid=,stat=,args=', '--ppid', String(pid)], { encoding: 'utf8' })
    .stdout.split('\n')
    .map((l) => /^\s*(\d+)\s+(\S+)\s+(.*)$/.exec(l))
    .filter((m) => m !== null && !m[2]!.startsWith('Z') && !m[3]!.startsWith('ps '))
    .map((m) => `${m![1]} ${m![3]}`);
const alive = (pid: number) => spawnSync('kill', ['-0', String(pid)]).status === 0;

describe.runIf(buildExe.HOST === 'linux-x64')(
  'what a release needs, checked before anything is built',
  () => {
    it('names qemu-aarch64 when neither it nor qemu-aarch64-static is on PATH, with the package to install', () => {
      const bin = binWith(['git', 'npm', 'node']);
      made.push(bin);
      expect(buildExe.missingTools(['linux-x64', 'linux-arm64'], { path: bin })).toMatch(
        /^missing qemu-aarch64 \(neither it nor qemu-aarch64-static is on PATH\), needed to build and run cssctl-linux-arm64 here; on Debian: apt-get install qemu-user\. Nothing was built\.$/,
      );
      // qemu-user-static's emulator is enough.
      const staticOnly = mkdtempSync(join(tmpdir(), 'cssctl-path-'));
      made.push(staticOnly);
      symlinkSync('/bin/true', join(staticOnly, 'qemu-aarch64-static'));
      expect(buildExe.missingTools(['linux-arm64'], { path: staticOnly })).toBeUndefined();
    });

    it('names the arm64 libraries that are missing and their Debian packages', () => {
      const qemu = mkdtempSync(join(tmpdir(), 'cssctl-path-'));
      made.push(qemu);
      symlinkSync('/bin/true', join(qemu, 'qemu-aarch64'));
      expect(buildExe.missingTools(['linux-arm64'], { path: qemu, sysroot: '/nonexistent' })).toBe(
        'missing the arm64 libraries in /nonexistent (ld-linux-aarch64.so.1, libc.so.6, libstdc++.so.6, ' +
          'libgcc_s.so.1, libatomic.so.1), needed to build and run cssctl-linux-arm64 here; on Debian: ' +
          'apt-get install libc6-arm64-cross libstdc++6-arm64-cross libgcc-s1-arm64-cross libatomic1-arm64-cross. ' +
          'Nothing was built.',
      );
      expect(buildExe.missingTools(['linux-x64'], { path: '', sysroot: '/nonexistent' })).toBeUndefined();
      expect(buildExe.missingTools(['darwin-arm64'])).toMatch(
        /cssctl-darwin-arm64 is built on a darwin-arm64 machine/,
      );
    });

    it('npm run release without qemu-aarch64: one line naming it, exit 1, nothing built, no process left', () => {
      const bin = binWith(['git', 'npm', 'node']);
      made.push(bin);
      const before = existsSync(join(ROOT, 'dist', 'release')) ? 'kept' : 'none';
      const r = spawnSync(process.execPath, [join(ROOT, 'scripts/release.mjs')], {
        cwd: ROOT,
        env: { PATH: bin, HOME: process.env.HOME },
        encoding: 'utf8',
        timeout: 60_000,
      });
      expect(r.status).toBe(1);
      expect(r.stdout).toBe('');
      expect(r.stderr).toMatch(
        /^release: missing qemu-aarch64 .*apt-get install qemu-user\. Nothing was built\.\n$/,
      );
      expect(r.stderr).not.toMatch(/\n\s+at /);
      // dist/release is removed only once the build starts: a release that cannot start leaves it as it was.
      expect(existsSync(join(ROOT, 'dist', 'release')) ? 'kept' : 'none').toBe(before);
    });
  },
);

describe('the code cache: no process left behind', () => {
  it('a runner that cannot be started is an error line, and the sandbox it trained against is stopped', async () => {
    const out = join(mkdtempSync(join(tmpdir(), 'cssctl-cc-')), 'cli.cache');
    made.push(join(out, '..'));
    await expect(codeCache.writeCodeCache({ runner: ['/nonexistent/qemu-aarch64'], out })).rejects.toThrow(
      /^build: could not take the code cache \(\/nonexistent\/qemu-aarch64 could not be started: spawn \/nonexistent\/qemu-aarch64 ENOENT; see above\)$/,
    );
    // Give the killed sandbox a moment to be reaped.
    for (let i = 0; i < 50 && childrenOf(process.pid).length; i++)
      await new Promise((r) => setTimeout(r, 100));
    expect(childrenOf(process.pid)).toEqual([]);
    expect(existsSync(out)).toBe(false);
  });

  it('a build stopped by SIGTERM stops its children (the sandbox, the training) and exits 143', async () => {
    const script = `
      const { installStopHandlers, writeCodeCache } = await import(${JSON.stringify(pathToFileURL(join(ROOT, 'scripts/code-cache.mjs')).href)});
      installStopHandlers('test');
      await writeCodeCache({ runner: ['sh', '-c', 'echo training; sleep 60', 'sh'], out: ${JSON.stringify(join(tmpdir(), 'cssctl-never.cache'))} });
    `;
    const child = spawn(process.execPath, ['--input-type=module', '-e', script], {
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let stderr = '';
    child.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
    await new Promise<void>((resolve) =>
      child.stdout.on('data', (d: Buffer) => d.toString().includes('training') && resolve()),
    );
    const grandchildren = childrenOf(child.pid!).map((c) => Number(c.split(' ')[0]));
    expect(grandchildren.length).toBe(2); // the sandbox and the training
    const code = await new Promise<number | null>((resolve) => {
      child.once('exit', (c) => resolve(c));
      child.kill('SIGTERM');
    });
    expect(code).toBe(143);
    expect(stderr).toBe('test: stopped (SIGTERM)\n');
    for (let i = 0; i < 50 && grandchildren.some(alive); i++) await new Promise((r) => setTimeout(r, 100));
    expect(grandchildren.filter(alive)).toEqual([]);
  }, 60_000);
});
