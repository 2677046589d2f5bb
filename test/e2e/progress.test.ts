import { afterAll, beforeAll, expect, it } from 'vitest';
import { parseFaults } from '../sandbox/faults.js';
import { CLI_SHELL, World } from './harness.js';
import { Tmux, describeTmux, envPrefix } from './tmux.js';

/** The progress line of a long read, on a real terminal (tmux), with the sandbox slowed down. */
describeTmux('progress of a read of many pages', () => {
  let w: World;
  let tmux: Tmux;
  beforeAll(async () => {
    w = await World.start({
      rateLimit: 100_000,
      findingsPerWorkspace: 400,
      faults: parseFaults('slow:400%100@GET/findings'),
    });
    await w.login('acme');
    tmux = new Tmux(w.dir);
  });
  afterAll(async () => {
    tmux.kill();
    await w.close();
  });

  function start(args: string[], env: Record<string, string | undefined> = {}): string {
    const e = envPrefix({ ...w.env, TERM: 'xterm-256color', ...env });
    const quoted = args.map((a) => `'${a}'`).join(' ');
    return tmux.start(`${e} ${CLI_SHELL} ${quoted} > '${w.dir}/out.txt'\necho EXIT=$?\nsleep 30\n`);
  }

  it('items of the total, rate and time left, updated in place; gone at the end; stdout untouched', async () => {
    const s = start(['findings', 'list', '--all', '--limit', '50', '-o', 'ndjson']);
    const shown = await tmux.waitFor(s, /Reading: \d+ of 400 \(\d+%\) · [\d,]+\/s · \d+s left/, 15_000);
    // One line, updated in place: never two progress lines on the screen.
    expect(shown.match(/Reading:/g)).toHaveLength(1);
    const done = await tmux.waitFor(s, /EXIT=\d+/, 20_000);
    expect(done).toMatch(/EXIT=0/);
    expect(done).not.toContain('Reading:');
    const { readFileSync } = await import('node:fs');
    const out = readFileSync(`${w.dir}/out.txt`, 'utf8');
    expect(out.split('\n').filter(Boolean)).toHaveLength(400);
    expect(out).not.toContain('Reading');
    expect(out).not.toContain('\r');
  });

  it('never with --quiet or CI=true', async () => {
    for (const [args, env] of [
      [['--quiet'], {}],
      [[], { CI: 'true' }],
    ] as const) {
      const s = start(['findings', 'list', '--all', '--limit', '50', '-o', 'ndjson', ...args], env);
      let seen = false;
      for (;;) {
        const screen = tmux.screen(s);
        if (/Reading:/.test(screen)) seen = true;
        if (/EXIT=\d+/.test(screen)) break;
        await new Promise((r) => setTimeout(r, 50));
      }
      expect(seen).toBe(false);
    }
  }, 30_000);

  it('findings summary --by shows it too; a rate-limit wait is a countdown on the line', async () => {
    const limited = await World.start({
      rateLimit: 3,
      rateWindowSeconds: 3,
      findingsPerWorkspace: 400,
      maxPageSize: 50,
      defaultPageSize: 50,
    });
    await limited.login('acme');
    const e = envPrefix({ ...limited.env, TERM: 'xterm-256color' });
    const s = tmux.start(
      `${e} ${CLI_SHELL} findings summary --by connection --max-wait 60 > /dev/null\necho EXIT=$?\nsleep 30\n`,
    );
    // (limit 1000 per page is capped by the sandbox; each page is one request of the window's four)
    await tmux.waitFor(s, /Reading: \d+ of 400.*rate limited, resuming in \d+s/, 20_000);
    const done = await tmux.waitFor(s, /EXIT=\d+/, 30_000);
    expect(done).toMatch(/EXIT=0/);
    expect(done).not.toContain('resuming in');
    expect(done).not.toContain('rate limit reached;');
    await limited.close();
  }, 60_000);
});

it('not on a pipe: stderr has no progress line', async () => {
  const w = await World.start({
    findingsPerWorkspace: 200,
    faults: parseFaults('slow:300%100@GET/findings'),
  });
  try {
    await w.login('acme');
    const res = await w.run(['findings', 'list', '--all', '--limit', '50', '-o', 'ndjson']);
    expect(res.code).toBe(0);
    expect(res.stderr).not.toContain('\r');
    expect(res.stderr).not.toContain('Reading');
  } finally {
    await w.close();
  }
});
