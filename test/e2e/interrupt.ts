import { spawn } from 'node:child_process';
import { setTimeout as sleep } from 'node:timers/promises';
import { expect } from 'vitest';
import { cliSpawn } from './harness.js';

export interface Interrupted {
  code: number | null;
  stdout: string;
  stderr: string;
}

/**
 * Runs cssctl, waits until `ready()` says it is far enough along (e.g. the sandbox has seen N requests), then
 * sends SIGINT (or `signal`) and waits for the exit.
 */
export async function interruptWhen(
  args: string[],
  env: Record<string, string | undefined>,
  ready: (out: { stdout: string; stderr: string }) => boolean,
  settleMs = 300,
  signal: NodeJS.Signals = 'SIGINT',
): Promise<Interrupted> {
  const clean: Record<string, string> = {};
  for (const [k, v] of Object.entries(env)) if (v !== undefined) clean[k] = v;
  const child = spawn(...cliSpawn(args), { env: clean, stdio: ['ignore', 'pipe', 'pipe'] });
  let stdout = '';
  let stderr = '';
  child.stdout.setEncoding('utf8').on('data', (d: string) => (stdout += d));
  child.stderr.setEncoding('utf8').on('data', (d: string) => (stderr += d));
  const exited = new Promise<number | null>((resolve) => child.on('close', (code) => resolve(code)));
  try {
    const deadline = Date.now() + 10_000;
    while (!ready({ stdout, stderr }) && Date.now() < deadline) await sleep(20);
    expect(ready({ stdout, stderr }), `never ready:\n${stderr}`).toBe(true);
    await sleep(settleMs);
    child.kill(signal);
    const code = await Promise.race([exited, sleep(5_000).then(() => 'timeout' as const)]);
    expect(code, `cssctl did not exit within 5 s of ${signal}`).not.toBe('timeout');
    return { code: code as number | null, stdout, stderr };
  } finally {
    if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
  }
}

/** Splits a printed shell command (as cssctl quotes it) back into its arguments. */
export function shellSplit(cmd: string): string[] {
  const out: string[] = [];
  const re = /'((?:[^']|'\\'')*)'|(\S+)/g;
  for (let m = re.exec(cmd); m; m = re.exec(cmd))
    out.push(m[1] !== undefined ? m[1].replace(/'\\''/g, "'") : m[2]!);
  return out;
}
