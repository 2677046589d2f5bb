import { execFileSync } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CLI_SHELL, World, hasCommand } from './harness.js';

/** A real terminal: tmux runs cssctl in a pane; send-keys types, capture-pane reads the screen. */

const socket = `cssctl-test-${process.pid}`;
const tmux = (...args: string[]) => execFileSync('tmux', ['-L', socket, ...args], { encoding: 'utf8' });
const screen = (s: string) => tmux('capture-pane', '-p', '-J', '-t', s);

async function waitFor(session: string, pattern: RegExp, ms = 10_000): Promise<string> {
  const until = Date.now() + ms;
  for (;;) {
    const text = screen(session);
    if (pattern.test(text)) return text;
    if (Date.now() > until) throw new Error(`timed out waiting for ${pattern} on screen:\n${text}`);
    await new Promise((r) => setTimeout(r, 50));
  }
}

// In CI tmux is installed by .ci/run: missing there is a failure, not a skip.
const run = hasCommand('tmux') || process.env.CI === 'true' ? describe : describe.skip;

run('interactive login on a terminal', () => {
  let w: World;
  let n = 0;
  beforeAll(async () => {
    w = await World.start();
  });
  afterAll(async () => {
    try {
      tmux('kill-server');
    } catch {
      // no server left
    }
    await w.close();
  });

  /** Starts `cssctl <args>` in a new tmux session; the pane stays after exit and shows EXIT=<code>. */
  function start(args: string[]): string {
    const session = `s${++n}`;
    const script = join(w.dir, `${session}.sh`);
    const env = Object.entries(w.env)
      .filter(([, v]) => v !== undefined)
      .map(([k, v]) => `${k}='${v}'`)
      .join(' ');
    const quoted = args.map((a) => `'${a}'`).join(' ');
    writeFileSync(
      script,
      `env -i ${env} TERM=xterm-256color ${CLI_SHELL} ${quoted}\necho EXIT=$?\nsleep 30\n`,
    );
    tmux('new-session', '-d', '-s', session, '-x', '160', '-y', '30', `sh '${script}'`);
    return session;
  }

  it('asks for the email, masks the password, and logs in', async () => {
    const c = w.cred();
    const s = start(['login', '--base-url', w.url, '-w', 'acme']);
    await waitFor(s, /\? Email/);
    tmux('send-keys', '-t', s, '-l', c.email);
    tmux('send-keys', '-t', s, 'Enter');
    await waitFor(s, /\? Password for/);
    tmux('send-keys', '-t', s, '-l', c.password);
    const typed = await waitFor(s, new RegExp(`\\*{${c.password.length}}`));
    expect(typed).not.toContain(c.password);
    tmux('send-keys', '-t', s, 'Enter');
    const done = await waitFor(s, /EXIT=\d+/);
    expect(done).toMatch(/EXIT=0/);
    expect(done).toContain(`Logged in to ${w.url} as ${c.email}`);
    expect(done).not.toContain(c.password);
  });

  it('Ctrl-C at the password prompt stops with exit 130 and stores nothing', async () => {
    const s = start([
      'login',
      '--base-url',
      w.url,
      '-w',
      'acme',
      '--email',
      w.cred().email,
      '--profile',
      'ctrlc',
    ]);
    await waitFor(s, /\? Password for/);
    tmux('send-keys', '-t', s, 'C-c');
    const done = await waitFor(s, /EXIT=\d+/);
    expect(done).toMatch(/EXIT=130/);
    // Nothing stored, not even the profile: a --profile naming no profile is exit 2.
    const status = await w.run(['auth', 'status', '--profile', 'ctrlc']);
    expect(status.code).toBe(2);
  });

  it('--password-stdin on a terminal says it is waiting and does not echo the password', async () => {
    const c = w.cred();
    const s = start([
      'login',
      '--base-url',
      w.url,
      '-w',
      'acme',
      '--email',
      c.email,
      '--password-stdin',
      '--profile',
      'tty-stdin',
    ]);
    await waitFor(s, /waiting for the password on stdin/);
    tmux('send-keys', '-t', s, '-l', c.password);
    await new Promise((r) => setTimeout(r, 300));
    expect(screen(s)).not.toContain(c.password);
    tmux('send-keys', '-t', s, 'Enter');
    const done = await waitFor(s, /EXIT=\d+/);
    expect(done).toMatch(/EXIT=0/);
    expect(done).not.toContain(c.password);
  });

  it('a bad workspace or email typed at the prompt asks again instead of ending the login', async () => {
    const c = w.cred();
    const s = start(['login', '--base-url', w.url, '--profile', 'tty-reask']);
    await waitFor(s, /\? Workspace slug/);
    tmux('send-keys', '-t', s, '-l', 'has space');
    tmux('send-keys', '-t', s, 'Enter');
    await waitFor(s, /invalid workspace slug/);
    tmux('send-keys', '-t', s, 'C-u');
    tmux('send-keys', '-t', s, 'BSpace');
    for (let i = 0; i < 12; i++) tmux('send-keys', '-t', s, 'BSpace');
    tmux('send-keys', '-t', s, '-l', 'acme');
    tmux('send-keys', '-t', s, 'Enter');
    await waitFor(s, /\? Email/);
    tmux('send-keys', '-t', s, '-l', 'not-an-email');
    tmux('send-keys', '-t', s, 'Enter');
    await waitFor(s, /invalid email address/);
    for (let i = 0; i < 14; i++) tmux('send-keys', '-t', s, 'BSpace');
    tmux('send-keys', '-t', s, '-l', c.email);
    tmux('send-keys', '-t', s, 'Enter');
    await waitFor(s, /\? Password for/);
    tmux('send-keys', '-t', s, '-l', c.password);
    tmux('send-keys', '-t', s, 'Enter');
    const done = await waitFor(s, /EXIT=\d+/);
    expect(done).toMatch(/EXIT=0/);
    expect(done).toContain('workspace acme');
  });
});
