import { afterAll, beforeAll, expect, it } from 'vitest';
import { CLI_SHELL, World } from './harness.js';
import { Tmux, describeTmux, envPrefix } from './tmux.js';

/** `scans wait` on a real terminal (tmux): the spinner with status and elapsed time, and Ctrl-C. */

describeTmux('scans wait on a terminal', () => {
  let w: World;
  let tmux: Tmux;
  beforeAll(async () => {
    w = await World.start({ scanStepMs: 2_500 });
    await w.login('acme');
    tmux = new Tmux(w.dir);
  });
  afterAll(async () => {
    tmux.kill();
    await w.close();
  });

  function start(args: string[]): string {
    const env = envPrefix({ ...w.env, CSSCTL_POLL_BASE_MS: '200', TERM: 'xterm-256color' });
    const quoted = args.map((a) => `'${a}'`).join(' ');
    // The shell survives the Ctrl-C (a trap with a command is reset to default in cssctl), to print EXIT.
    return tmux.start(`trap : INT\n${env} ${CLI_SHELL} ${quoted} > /dev/null\necho EXIT=$?\nsleep 30\n`);
  }

  it('a spinner shows the status and the elapsed time, then a clean summary line', async () => {
    const s = start(['scans', 'create', '--connection', 'prod', '--wait']);
    await tmux.waitFor(s, /Scan scn_\w+: queued \(\d+\.\ds\)/, 15_000);
    await tmux.waitFor(s, /Scan scn_\w+: running \([1-9]\.\ds\)/, 15_000);
    const done = await tmux.waitFor(s, /EXIT=\d+/, 15_000);
    expect(done).toMatch(/EXIT=0/);
    expect(done).toMatch(/✓ Scan scn_\w+ completed: \d+ findings/);
    // The spinner line is gone: no leftover "queued"/"running" frame above the summary.
    expect(done).not.toMatch(/: running \(/);
  });

  it('Ctrl-C while waiting: exit 130 and the scans wait command that resumes', async () => {
    const s = start(['scans', 'create', '--connection', 'prod', '--wait', '--fail-on', 'high']);
    const shown = await tmux.waitFor(s, /Scan (scn_\w+): queued/, 15_000);
    const id = /Scan (scn_\w+): queued/.exec(shown)![1]!;
    tmux.key(s, 'C-c');
    const done = await tmux.waitFor(s, /EXIT=\d+/, 15_000);
    expect(done).toMatch(/EXIT=130/);
    expect(done).toContain(`error: interrupted; resume with: cssctl scans wait ${id} --fail-on high`);
  });
});
