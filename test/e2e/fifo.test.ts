// "No file operation anywhere may make the process deaf to Ctrl-C and SIGTERM" (issue 20 #4): FIFOs named
// by --input, --payload-file and --secret-file, a password on a pipe that never writes, and FIFOs in the
// place of cssctl's own files. Before, a FIFO without a writer blocked the process with signals ignored.
import { execFileSync, spawn } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sign } from '../../src/core/webhook-signature.js';
import { CLI, errorLine, lines, runCli } from './harness.js';
import { interruptWhen } from './interrupt.js';

let dir: string;
let env: Record<string, string | undefined>;

beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), 'cssctl-fifo-'));
  env = {
    PATH: process.env.PATH,
    HOME: dir,
    LANG: 'C.UTF-8',
    CSSCTL_CONFIG_DIR: join(dir, 'config'),
    CSSCTL_TOKEN: 'fifo-test-token',
    // Nothing listens there: these commands must stop before any request.
    CSSCTL_BASE_URL: 'http://127.0.0.1:9',
    CSSCTL_WORKSPACE: 'acme',
    CSSCTL_WEBHOOK_SECRET: 'whsec_fifo',
  };
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

let n = 0;
function fifo(): string {
  const path = join(dir, `fifo-${++n}`);
  execFileSync('mkfifo', [path]);
  return path;
}

describe('a FIFO without a writer: Ctrl-C and SIGTERM still stop the command at once (exit 130)', () => {
  const cases: [string, NodeJS.Signals, (f: string) => string[]][] = [
    ['api --input', 'SIGINT', (f) => ['api', '/connections', '--input', f]],
    [
      'webhooks verify --payload-file',
      'SIGTERM',
      (f) => ['webhooks', 'verify', '--signature', 'x', '--payload-file', f],
    ],
    [
      'webhooks verify --secret-file',
      'SIGINT',
      (f) => ['webhooks', 'verify', '--signature', 'x', '--secret-file', f, '--payload-file', '/dev/null'],
    ],
  ];
  it.each(cases)('%s (%s)', async (_name, signal, args) => {
    const res = await interruptWhen(args(fifo()), env, () => true, 500, signal);
    expect(res.code, res.stderr).toBe(130);
    expect(lines(res.stderr)).toEqual(['error: interrupted']);
  });

  it('login --password-stdin on a pipe that never writes (SIGINT)', async () => {
    const clean: Record<string, string> = {};
    for (const [k, v] of Object.entries({ ...env, CSSCTL_TOKEN: undefined }))
      if (v !== undefined) clean[k] = v;
    const child = spawn(
      CLI[0],
      [
        ...CLI.slice(1),
        'login',
        '--base-url',
        'http://127.0.0.1:9',
        '-w',
        'acme',
        '--email',
        'a@b.example',
        '--password-stdin',
      ],
      { env: clean, stdio: ['pipe', 'pipe', 'pipe'] },
    );
    let stderr = '';
    child.stderr.setEncoding('utf8').on('data', (d: string) => (stderr += d));
    const exited = new Promise<number | null>((resolve) => child.on('close', resolve));
    await sleep(500);
    child.kill('SIGINT');
    const code = await Promise.race([exited, sleep(5_000).then(() => 'timeout' as const)]);
    if (code === 'timeout') child.kill('SIGKILL');
    expect(code, stderr).toBe(130);
    child.stdin.destroy();
  });
});

describe('a FIFO that does get a writer is read whole, as a file would be', () => {
  it('webhooks verify --payload-file <fifo>: the valid signature of what was written', async () => {
    const payload = '{"event":"scan.completed","data":{"id":"scn_1"}}';
    const path = fifo();
    const run = runCli(
      ['webhooks', 'verify', '--signature', sign('whsec_fifo', payload), '--payload-file', path],
      env,
    );
    await sleep(300);
    // Opening for writing waits for the reader cssctl holds open.
    writeFileSync(path, payload);
    const res = await run;
    expect(res.code, res.stderr).toBe(0);
    expect(res.stderr).toContain('The signature is valid.');
  });
});

describe("a FIFO in the place of cssctl's own files is refused at once", () => {
  it('config.json: one error line naming it, exit 1, no wait', async () => {
    const cfg = join(dir, 'cfg-fifo');
    mkdirSync(cfg);
    execFileSync('mkfifo', [join(cfg, 'config.json')]);
    const res = await runCli(
      ['connections', 'list'],
      { ...env, CSSCTL_CONFIG_DIR: cfg },
      { timeoutMs: 10_000 },
    );
    expect(res.code).toBe(1);
    expect(errorLine(res)).toBe(`error: cannot read ${join(cfg, 'config.json')}: not a regular file`);
  });

  it('credentials.json and ratelimit-state.json: no wait either', async () => {
    const cfg = join(dir, 'cfg-fifo-2');
    mkdirSync(cfg);
    execFileSync('mkfifo', [join(cfg, 'credentials.json')]);
    execFileSync('mkfifo', [join(cfg, 'ratelimit-state.json')]);
    writeFileSync(join(cfg, 'config.json'), '{"profiles":{}}');
    const status = await runCli(
      ['auth', 'status'],
      { ...env, CSSCTL_TOKEN: undefined, CSSCTL_CONFIG_DIR: cfg },
      {
        timeoutMs: 10_000,
      },
    );
    expect(status.code).toBe(1);
    expect(errorLine(status)).toMatch(/credentials\.json: not a valid credential file/);
    // The remembered rate-limit windows are read before the first request: the request is still made.
    const list = await runCli(
      ['connections', 'list'],
      { ...env, CSSCTL_CONFIG_DIR: cfg },
      { timeoutMs: 10_000 },
    );
    expect(errorLine(list)).toMatch(/^error: cannot connect to 127\.0\.0\.1:9: connection refused/);
  });
});
