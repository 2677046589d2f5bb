import { execFileSync } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BIN, World, hasCommand } from './harness.js';

/** `scans wait` on a real terminal (tmux): the spinner with status and elapsed time, and Ctrl-C. */

const socket = `cssctl-scans-${process.pid}`;
const tmux = (...args: string[]) => execFileSync('tmux', ['-L', socket, ...args], { encoding: 'utf8' });
const screen = (s: string) => tmux('capture-pane', '-p', '-J', '-t', s);

async function waitFor(session: string, pattern: RegExp, ms = 15_000): Promise<string> {
  const until = Date.now() + ms;
  for (;;) {
    const text = screen(session);
    if (pattern.test(text)) return text;
    if (Date.now() > until) throw new Error(`timed out waiting for ${pattern} on screen:\n${text}`);
    await new Promise((r) => setTimeout(r, 50));
  }
}

const run = hasCommand('tmux') || process.env.CI === 'true' ? describe : describe.skip;

run('scans wait on a terminal', () => {
  let w: World;
  let n = 0;
  beforeAll(async () => {
    w = await World.start({ scanStepMs: 2_500 });
    await w.login('acme');
  });
  afterAll(async () => {
    try {
      tmux('kill-server');
    } catch {
      // no server left
    }
    await w.close();
  });

  function start(args: string[]): string {
    const session = `s${++n}`;
    const script = join(w.dir, `scans-${session}.sh`);
    const env = Object.entries({ ...w.env, CSSCTL_POLL_BASE_MS: '200' })
      .filter(([, v]) => v !== undefined)
      .map(([k, v]) => `${k}='${v}'`)
      .join(' ');
    const quoted = args.map((a) => `'${a}'`).join(' ');
    writeFileSync(
      script,
      // The shell survives the Ctrl-C (a trap with a command is reset to default in cssctl), to print EXIT.
      `trap : INT\nenv -i ${env} TERM=xterm-256color '${process.execPath}' '${BIN}' ${quoted} > '${script}.out'\necho EXIT=$?\nsleep 30\n`,
    );
    tmux('new-session', '-d', '-s', session, '-x', '160', '-y', '30', `sh '${script}'`);
    return session;
  }

  it('a spinner shows the status and the elapsed time, then a clean summary line', async () => {
    const s = start(['scans', 'create', '--connection', 'prod', '--wait']);
    await waitFor(s, /Scan scn_\w+: queued \(\d+\.\ds\)/);
    await waitFor(s, /Scan scn_\w+: running \([1-9]\.\ds\)/);
    const done = await waitFor(s, /EXIT=\d+/);
    expect(done).toMatch(/EXIT=0/);
    expect(done).toMatch(/✓ Scan scn_\w+ completed: \d+ findings/);
    // The spinner line is gone: no leftover "queued"/"running" frame above the summary.
    expect(done).not.toMatch(/: running \(/);
  });

  it('Ctrl-C while waiting: exit 130 and the scans wait command that resumes', async () => {
    const s = start(['scans', 'create', '--connection', 'prod', '--wait', '--fail-on', 'high']);
    const shown = await waitFor(s, /Scan (scn_\w+): queued/);
    const id = /Scan (scn_\w+): queued/.exec(shown)![1]!;
    tmux('send-keys', '-t', s, 'C-c');
    const done = await waitFor(s, /EXIT=\d+/);
    expect(done).toMatch(/EXIT=130/);
    expect(done).toContain(`error: interrupted; resume with: cssctl scans wait ${id} --fail-on high`);
  });
});
