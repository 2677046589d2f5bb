// A terminal 0 columns wide (issue 20 #5): `script`, `docker -t` and some CI runners give one. ora divides by
// the width and cleared lines without end (11.6 MB in 10 s); spinners and progress now need 20 columns.
import { spawn } from 'node:child_process';
import { setTimeout as sleep } from 'node:timers/promises';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CLI_SHELL, World, hasCommand } from './harness.js';
import { Tmux, describeTmux, envPrefix } from './tmux.js';
import { skipped } from '../helpers/skip.js';

// eslint-disable-next-line no-control-regex
const CLEAR_LINE = /\u001b\[0?K/g;
const SPINNER = /[⠋⠙⠹⠸⠼⠴⠦⠧⠇⠏]/;

let w: World;
beforeAll(async () => {
  w = await World.start({ rateLimit: 100_000, scanRateLimit: 100_000, scanStepMs: 400 });
  await w.login('acme');
  w.env = { ...w.env, CSSCTL_POLL_BASE_MS: '100' };
});
afterAll(() => w.close());

const q = (s: string) => `'${s.replace(/'/g, `'\\''`)}'`;

/**
 * Runs cssctl under `script` (a pseudo-terminal whose size is 0×0 when script's own stdin is not a terminal);
 * gives up after `limitMs`, reporting how much it had written by then.
 */
async function underScript(
  args: string[],
  limitMs = 10_000,
  /** Keep script's own input open this long, then end it (script passes the end on to the pty as ^D). */
  inputForMs?: number,
): Promise<{ code: number | null; out: string; bytes: number; killed: boolean }> {
  const env: Record<string, string> = { TERM: 'xterm-256color' };
  for (const [k, v] of Object.entries(w.env)) if (v !== undefined) env[k] = v;
  const line = `${CLI_SHELL} ${args.map(q).join(' ')}`;
  const child = spawn('script', ['-qec', line, '/dev/null'], {
    env,
    stdio: [inputForMs === undefined ? 'ignore' : 'pipe', 'pipe', 'pipe'],
  });
  if (inputForMs !== undefined) setTimeout(() => child.stdin?.end(), inputForMs);
  let out = '';
  let bytes = 0;
  child.stdout!.setEncoding('utf8').on('data', (d: string) => {
    bytes += Buffer.byteLength(d);
    if (out.length < 200_000) out += d;
  });
  child.stderr!.resume();
  const exited = new Promise<number | null>((resolve) => child.on('close', (code) => resolve(code)));
  const result = await Promise.race([exited, sleep(limitMs).then(() => 'timeout' as const)]);
  if (result === 'timeout') child.kill('SIGKILL');
  return { code: result === 'timeout' ? null : result, out, bytes, killed: result === 'timeout' };
}

describe.skipIf(!hasCommand('script'))(
  'under script -qec (a terminal 0 columns wide)',
  skipped(
    'script(1) is not installed',
    'apt-get install bsdutils, then bash scripts/test test/e2e/narrow-terminal.test.ts',
  ),
  () => {
    it('the pseudo-terminal really reports 0 columns', async () => {
      const probe = spawn(
        'script',
        ['-qec', `${q(process.execPath)} -e 'console.log("cols=" + process.stderr.columns)'`, '/dev/null'],
        { stdio: ['ignore', 'pipe', 'ignore'] },
      );
      let text = '';
      probe.stdout.setEncoding('utf8').on('data', (d: string) => (text += d));
      await new Promise((r) => probe.on('close', r));
      expect(text).toMatch(/cols=0\b/);
    });

    it('connections list: the table and exit 0, no spinner and no endless line clearing', async () => {
      const res = await underScript(['connections', 'list']);
      expect(res.killed, `still running after 10 s, ${res.bytes} bytes written`).toBe(false);
      expect(res.code).toBe(0);
      expect(res.out).toMatch(/ALIAS/);
      expect(res.out).not.toMatch(SPINNER);
      expect(res.out.match(CLEAR_LINE) ?? []).toHaveLength(0);
      expect(res.bytes).toBeLessThan(20_000);
    });

    it('login with its prompt on the pty and the input ending: exit 130, not exit 13', async () => {
      const res = await underScript(
        ['login', '--profile', 'eof', '--base-url', w.url, '-w', 'acme'],
        10_000,
        1_500,
      );
      expect(res.killed).toBe(false);
      expect(res.code).toBe(130);
      // eslint-disable-next-line no-control-regex
      expect(res.out.replace(/\u001b\[[\d;]*m/g, '')).toContain('error: interrupted');
    });

    it('scans create --wait: the poll with its 1 s progress ticker ends, and prints no spinner', async () => {
      const res = await underScript(['scans', 'create', '--connection', 'prod', '--wait'], 20_000);
      expect(res.killed, `still running after 20 s, ${res.bytes} bytes written`).toBe(false);
      expect(res.code).toBe(0);
      expect(res.out).toMatch(/Scan scn_\w+ completed/);
      expect(res.out).not.toMatch(SPINNER);
      expect(res.bytes).toBeLessThan(20_000);
    });
  },
);

describeTmux('a terminal narrower than 20 columns (tmux)', () => {
  let tmux: Tmux;
  beforeAll(() => {
    tmux = new Tmux(w.dir);
  });
  afterAll(() => tmux.kill());

  /** Every screen seen while `connections list` waits 1.5 s for its answer, and the last one. */
  async function screens(width: number): Promise<{ seen: string[]; last: string }> {
    w.sandbox.injectFaults({ kind: 'slow', ms: 1_500, path: '/connections' });
    const env = envPrefix({ ...w.env, TERM: 'xterm-256color' });
    const line = `${env} ${CLI_SHELL} connections list`;
    const session = tmux.start(`${line}\necho EXIT=$?\nsleep 60\n`, { width, height: 40 });
    const seen: string[] = [];
    const until = Date.now() + 15_000;
    for (;;) {
      const screen = tmux.screen(session);
      seen.push(screen);
      if (/EXIT=\d+/.test(screen) || Date.now() > until) return { seen, last: screen };
      await sleep(40);
    }
  }

  it('Ctrl-D at the email or the password prompt: exit 130, not an unsettled await (exit 13)', async () => {
    for (const atPassword of [false, true]) {
      const env = envPrefix({ ...w.env, TERM: 'xterm-256color' });
      const line = `${env} ${CLI_SHELL} login --profile ctrl-d --base-url ${q(w.url)} -w acme`;
      const session = tmux.start(`${line}\necho EXIT=$?\nsleep 60\n`);
      await tmux.waitFor(session, /Email/);
      if (atPassword) {
        tmux.type(session, w.cred().email);
        tmux.key(session, 'Enter');
        await tmux.waitFor(session, /Password/);
      }
      tmux.key(session, 'C-d');
      const screen = await tmux.waitFor(session, /EXIT=\d+/);
      expect(screen).toMatch(/EXIT=130/);
      expect(screen).toContain('error: interrupted');
      expect(screen).not.toMatch(/unsettled top-level await/);
    }
  });

  it('19 columns: no spinner while it waits; 20 columns: the spinner', async () => {
    const narrow = await screens(19);
    expect(narrow.last).toMatch(/EXIT=0/);
    expect(narrow.seen.some((s) => SPINNER.test(s))).toBe(false);
    const wide = await screens(20);
    expect(wide.last).toMatch(/EXIT=0/);
    expect(wide.seen.some((s) => SPINNER.test(s))).toBe(true);
  });
});
