// Output that cannot be written (cli-contract.md §3): a full disk, /dev/full, a closed stdout. The built
// binary runs with its stdout on the device under test; nothing here may end with exit 0 and a cut file.
import { execFileSync, spawn } from 'node:child_process';
import { closeSync, mkdirSync, openSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { cliSpawn, World, errorLine, received, type CliResult } from './harness.js';

let w: World;

beforeAll(async () => {
  w = await World.start({ findingsPerWorkspace: 3000 });
  await w.login();
}, 30_000);

afterAll(async () => {
  await w?.close();
});

/** Runs cssctl with stdout on `fd` (opened by the caller), stderr collected. */
function runTo(args: string[], fd: number | 'pipe-closed-early' | 'pipe-closed-at-once'): Promise<CliResult> {
  const started = Date.now();
  return new Promise((resolve, reject) => {
    const child = spawn(...cliSpawn(args), {
      env: w.env as NodeJS.ProcessEnv,
      stdio: ['ignore', typeof fd === 'string' ? 'pipe' : fd, 'pipe'],
    });
    let stderr = '';
    child.stderr!.setEncoding('utf8').on('data', (d: string) => (stderr += d));
    // A reader that leaves after the first bytes, as `| head -c 1` does, or before any (`| true`).
    if (fd === 'pipe-closed-at-once') child.stdout?.destroy();
    else child.stdout?.once('data', () => child.stdout?.destroy());
    const timer = setTimeout(() => {
      child.kill('SIGKILL');
      reject(new Error(`cssctl ${args.join(' ')} did not finish\n${stderr}`));
    }, 20_000);
    child.on('error', reject);
    child.on('close', (code) => {
      clearTimeout(timer);
      resolve({ code, stdout: '', stderr, ms: Date.now() - started });
    });
  });
}

async function toDevFull(args: string[]): Promise<CliResult> {
  const fd = openSync('/dev/full', 'w');
  try {
    return await runTo(args, fd);
  } finally {
    closeSync(fd);
  }
}

describe('stdout that cannot be written is exit 1 with one error line', () => {
  it('connections list --json > /dev/full (the error as JSON, as --json asks)', async () => {
    const res = await toDevFull(['connections', 'list', '--json']);
    expect(res.code).toBe(1);
    const err = JSON.parse(res.stderr) as { error: { detail: string; exit_code: number } };
    expect(err.error).toMatchObject({
      detail: 'cannot write output: no space left on the device (ENOSPC)',
      exit_code: 1,
    });
  });

  it('a table and csv > /dev/full alike', async () => {
    for (const fmt of ['table', 'csv']) {
      const res = await toDevFull(['connections', 'list', '-o', fmt]);
      expect(res.code, fmt).toBe(1);
      expect(errorLine(res), fmt).toMatch(
        /^error: cannot write output: no space left on the device \(ENOSPC\)$/,
      );
    }
  });

  it('api --paginate > /dev/full stops fetching pages nobody can receive', async () => {
    const before = received(w.sandbox, '/findings').length;
    const res = await toDevFull(['api', '--paginate', '/findings?limit=100']);
    expect(res.code).toBe(1);
    expect(errorLine(res)).toMatch(/cannot write output: no space left/);
    const pages = received(w.sandbox, '/findings').length - before;
    expect(pages).toBeGreaterThan(0);
    expect(pages).toBeLessThan(30); // 3,000 findings are 30 pages: the export stopped early
  });

  it('a reader leaving early (| head) stays quiet: no error line', async () => {
    const res = await runTo(['api', '--paginate', '/findings?limit=100'], 'pipe-closed-early');
    expect(res.stderr).toBe('');
    expect(res.code).toBe(0);
  });

  it("a reader leaving after a gated command's output keeps the gate's exit code (| head -1)", async () => {
    // The scan's summary is written before the gate decides exit 10: the reader leaving must not race it.
    const made = await w.run(['scans', 'create', '--connection', 'prod', '--wait', '--json']);
    expect(made.code, made.stderr).toBe(0);
    const scan = JSON.parse(made.stdout) as { scan_id: string; critical_count: number };
    expect(scan.critical_count).toBeGreaterThan(0);
    for (let i = 0; i < 8; i++) {
      const res = await runTo(
        ['scans', 'wait', scan.scan_id, '--fail-on', 'critical', '--json'],
        i % 2 ? 'pipe-closed-early' : 'pipe-closed-at-once',
      );
      expect(res.code, `run ${i}: ${res.stderr}`).toBe(10);
      expect(res.stderr).toMatch(/at or above critical/);
    }
  });
});

/** A 64 KiB tmpfs: an export that fills it must fail, not leave a file cut at 64 KiB with exit 0. */
const canMount = (() => {
  if (process.platform !== 'linux' || process.getuid?.() !== 0) return false;
  try {
    execFileSync('sh', ['-c', 'command -v mount && command -v umount'], { stdio: 'ignore' });
    return true;
  } catch {
    return false;
  }
})();

describe.skipIf(!canMount)('an export onto a full disk (a 64 KiB tmpfs; needs root)', () => {
  let dir: string;
  let mounted = false;
  beforeAll(() => {
    dir = join(w.dir, 'small');
    mkdirSync(dir);
    try {
      execFileSync('mount', ['-t', 'tmpfs', '-o', 'size=64k', 'tmpfs', dir], { stdio: 'ignore' });
      mounted = true;
    } catch {
      mounted = false; // no CAP_SYS_ADMIN (an unprivileged container): /dev/full covers ENOSPC above
    }
  });
  afterAll(() => {
    if (mounted) execFileSync('umount', [dir]);
  });

  it('api --paginate > small/out.json is exit 1 with one error line', async (ctx) => {
    if (!mounted) ctx.skip();
    const file = join(dir, 'out.json');
    const fd = openSync(file, 'w');
    let res: CliResult;
    try {
      res = await runTo(['api', '--paginate', '/findings?limit=100'], fd);
    } finally {
      closeSync(fd);
    }
    expect(res.code).toBe(1);
    expect(errorLine(res)).toMatch(/cannot write output: no space left on the device/);
    expect(statSync(file).size).toBeLessThanOrEqual(64 * 1024); // the cut file is the one the error names
  });
});

describe('a closed stdout (>&-)', () => {
  // Not detectable from JavaScript: before any script runs, Node replaces a closed fd 0-2 with /dev/null
  // opened read-write (PlatformInit in src/node.cc), so writes succeed. That fd is indistinguishable from
  // the /dev/null a daemon or `systemd StandardOutput=null` hands a process on purpose, so cssctl cannot
  // tell the two apart without failing those. This test pins the Node behaviour docs/design.md names.
  it('reaches the process as /dev/null opened O_RDWR', () => {
    const probe = `const fs = require('fs');
      const flags = /flags:\\s*(\\d+)/.exec(fs.readFileSync('/proc/self/fdinfo/1', 'utf8'))[1];
      process.stderr.write(fs.readlinkSync('/proc/self/fd/1') + ' ' + (parseInt(flags, 8) & 3));`;
    const out = execFileSync('sh', ['-c', `exec "$0" -e "$1" 2>&1 1>&-`, process.execPath, probe], {
      encoding: 'utf8',
    });
    // O_RDWR = 2: Node's own open; a shell's `> /dev/null` would be O_WRONLY = 1.
    expect(out.trim()).toBe('/dev/null 2');
  });
});
