// Signals and other modules: cssctl's SIGINT/SIGTERM handler sits beside theirs (a lock's release, the cursor's
// return) instead of removing them, and one Ctrl-C sent to the whole process group of an export (which runs in
// a second node, bin/cssctl.cjs) is one interrupt, not two.
import { spawn } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BIN, cliSpawn, lines, received, World } from './harness.js';

let w: World;
let dir: string;
beforeAll(async () => {
  w = await World.start();
  await w.login();
  dir = mkdtempSync(join(tmpdir(), 'cssctl-signals-'));
});
afterAll(async () => {
  await w.close();
  rmSync(dir, { recursive: true, force: true });
});

/** Runs cssctl in a process group of its own; once the sandbox has `requests` requests, `signal()` is called. */
async function runThenSignal(
  args: string[],
  env: Record<string, string>,
  requests: number,
  signal: (pid: number) => void,
) {
  const merged: Record<string, string> = {};
  for (const [k, v] of Object.entries({ ...w.env, ...env })) if (v !== undefined) merged[k] = v;
  const [file, argv] = cliSpawn(args);
  const child = spawn(file, argv, { env: merged, stdio: ['ignore', 'pipe', 'pipe'], detached: true });
  let stdout = '';
  let stderr = '';
  child.stdout.setEncoding('utf8').on('data', (d: string) => (stdout += d));
  child.stderr.setEncoding('utf8').on('data', (d: string) => (stderr += d));
  const exited = new Promise<number | null>((resolve) => child.on('close', (code) => resolve(code)));
  try {
    const deadline = Date.now() + 8_000;
    while (received(w.sandbox, '/connections').length < requests && Date.now() < deadline) await sleep(20);
    await sleep(300);
    signal(child.pid!);
    const code = await Promise.race([exited, sleep(5_000).then(() => 'timeout' as const)]);
    expect(code, 'cssctl did not exit within 5 s of the signal').not.toBe('timeout');
    return { code, stdout, stderr };
  } finally {
    if (child.exitCode === null && child.signalCode === null) process.kill(-child.pid!, 'SIGKILL');
  }
}

describe('signals', () => {
  it("Ctrl-C to an export's process group is one interrupt: the resume hint and exit 130", async () => {
    w.sandbox.clearRequests();
    w.sandbox.injectFaults(
      { kind: 'slow', ms: 1, count: 2, path: '/connections' },
      { kind: 'slow', ms: 5_000, path: '/connections' },
    );
    const res = await runThenSignal(['connections', 'list', '--all', '--limit', '1'], {}, 3, (pid) =>
      process.kill(-pid, 'SIGINT'),
    );
    expect(res.code).toBe(130);
    // Counted twice, the second arrival would have forced exit 130 at once, without the hint.
    expect(lines(res.stderr)).toEqual([
      'error: interrupted; resume with: cssctl connections list --all --limit 1 --offset 2',
    ]);
  });

  it("another module's SIGINT handler, added while the command runs, stays and runs", async () => {
    w.sandbox.clearRequests();
    w.sandbox.injectFaults({ kind: 'slow', ms: 5_000, path: '/connections' });
    const marker = join(dir, 'cleaned-up');
    const preload = join(dir, 'other-module.cjs');
    // Waits for cssctl's own handler, then adds one as a library loaded by a command would.
    writeFileSync(
      preload,
      `const t = setInterval(() => {
         if (process.listenerCount('SIGINT') === 0) return;
         clearInterval(t);
         process.on('SIGINT', () => require('fs').writeFileSync(${JSON.stringify(marker)}, 'ran'));
       }, 5);
       t.unref();`,
    );
    // The single executable reads no NODE_OPTIONS; it takes Node's flags as its first argument.
    const exe = !/\.[cm]?js$/.test(BIN);
    const res = await runThenSignal(
      exe ? [`--node-options=--require ${preload}`, 'connections', 'list'] : ['connections', 'list'],
      exe ? {} : { NODE_OPTIONS: `--require ${preload}` },
      1,
      (pid) => process.kill(pid, 'SIGINT'),
    );
    expect(res.code).toBe(130);
    expect(lines(res.stderr)).toEqual(['error: interrupted']);
    expect(existsSync(marker) && readFileSync(marker, 'utf8')).toBe('ran');
  });
});
