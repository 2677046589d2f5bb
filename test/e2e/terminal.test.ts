import { execFileSync } from 'node:child_process';
import { existsSync, readFileSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { CLI_SHELL, World, hasCommand } from './harness.js';
import { Tmux, describeTmux, envPrefix } from './tmux.js';

/**
 * cssctl in a real terminal (tmux): login's prompts, the masked password, a wrong password and Ctrl-C
 * leaving nothing stored; spinners and colour on a TTY and none of either in a pipe.
 */

// eslint-disable-next-line no-control-regex
const ESC = /\u001b\[/;
const SPINNER = /[⠋⠙⠹⠸⠼⠴⠦⠧⠇⠏]/;

describeTmux('cssctl at a terminal', () => {
  let w: World;
  let tmux: Tmux;
  // The keychain is a possible store when the suite runs inside its D-Bus session (scripts/test).
  const dbus = process.env.DBUS_SESSION_BUS_ADDRESS;
  beforeAll(async () => {
    w = await World.start();
    tmux = new Tmux(w.dir);
  });
  afterAll(async () => {
    tmux.kill();
    await w.close();
  });

  /** Runs `cssctl <args>` (then `rest`, shell text) in a new session; the pane shows EXIT=<code> at the end. */
  function cssctl(args: string[], rest = '', extraEnv: Record<string, string | undefined> = {}): string {
    const q = (s: string) => `'${s.replace(/'/g, `'\\''`)}'`;
    const env = envPrefix({ ...w.env, DBUS_SESSION_BUS_ADDRESS: dbus, TERM: 'xterm-256color', ...extraEnv });
    const line = `${env} ${CLI_SHELL} ${args.map(q).join(' ')} ${rest}`;
    return tmux.start(`${line}\necho EXIT=$?\nsleep 60\n`);
  }

  /** Nothing of this profile anywhere: not in config.json, credentials.json or the keychain. */
  async function nothingStored(profile: string): Promise<void> {
    const status = await w.run(['auth', 'status', '--profile', profile], {
      env: { DBUS_SESSION_BUS_ADDRESS: dbus },
    });
    // Not in config.json: a --profile naming no profile is exit 2 naming it (cli-contract.md §2).
    expect(status.code, status.stderr).toBe(2);
    expect(status.stderr).toContain(`no profile named "${profile}"`);
    for (const file of ['config.json', 'credentials.json']) {
      const path = join(w.configDir, file);
      if (existsSync(path))
        expect(Object.keys(JSON.parse(readFileSync(path, 'utf8')).profiles ?? {})).not.toContain(profile);
    }
    if (dbus && hasCommand('secret-tool')) {
      let found = '';
      try {
        found = execFileSync('secret-tool', ['lookup', 'service', 'cssctl', 'account', profile], {
          encoding: 'utf8',
          env: { ...process.env, DBUS_SESSION_BUS_ADDRESS: dbus },
        });
      } catch {
        // not found: secret-tool exits 1
      }
      expect(found).toBe('');
    }
  }

  const login = (profile: string, extra: string[] = []) =>
    cssctl(['login', '--base-url', w.url, '-w', 'acme', '--profile', profile, ...extra]);

  it('prompts for the email and the password, masks it, and stores the session', async () => {
    const c = w.cred();
    const s = login('term-ok');
    await tmux.waitFor(s, /\? Email/);
    tmux.type(s, c.email);
    tmux.key(s, 'Enter');
    await tmux.waitFor(s, /\? Password for/);
    tmux.type(s, c.password);
    const typed = await tmux.waitFor(s, new RegExp(`\\*{${c.password.length}}`));
    expect(typed).not.toContain(c.password);
    tmux.key(s, 'Enter');
    const done = await tmux.waitFor(s, /EXIT=\d+/);
    expect(done).toMatch(/EXIT=0/);
    expect(done).not.toContain(c.password);
    // The control for the cases below: a login that succeeds is found by auth status.
    const status = await w.run(['auth', 'status', '--profile', 'term-ok'], {
      env: { DBUS_SESSION_BUS_ADDRESS: dbus },
    });
    expect(status.code, status.stderr).toBe(0);
  });

  it('a wrong password: one clear error, exit 3, the password never shown, nothing stored', async () => {
    const c = w.cred();
    const wrong = `${c.password}-wrong`;
    const s = login('term-wrong', ['--email', c.email]);
    await tmux.waitFor(s, /\? Password for/);
    tmux.type(s, wrong);
    await tmux.waitFor(s, new RegExp(`\\*{${wrong.length}}`));
    tmux.key(s, 'Enter');
    const done = await tmux.waitFor(s, /EXIT=\d+/);
    expect(done).toMatch(/EXIT=3/);
    expect(done).toMatch(/^error: .*(password|credentials|unauthori[sz]ed|401)/im);
    expect(done).not.toMatch(/^\s+at /m);
    expect(done).not.toContain(wrong);
    await nothingStored('term-wrong');
  });

  it('Ctrl-C at the password prompt: exit 130, nothing stored', async () => {
    const s = login('term-ctrlc', ['--email', w.cred().email]);
    await tmux.waitFor(s, /\? Password for/);
    tmux.type(s, 'half-typed');
    tmux.key(s, 'C-c');
    const done = await tmux.waitFor(s, /EXIT=\d+/);
    expect(done).toMatch(/EXIT=130/);
    expect(done).not.toContain('half-typed');
    await nothingStored('term-ctrlc');
  });

  it('Ctrl-C at the email prompt: exit 130, nothing stored', async () => {
    const s = login('term-ctrlc-email');
    await tmux.waitFor(s, /\? Email/);
    tmux.key(s, 'C-c');
    const done = await tmux.waitFor(s, /EXIT=\d+/);
    expect(done).toMatch(/EXIT=130/);
    await nothingStored('term-ctrlc-email');
  });

  // Passes once the harden-store branch (the notice in login) is merged; skipped while login lacks it.
  const loginSource = readFileSync(
    fileURLToPath(new URL('../../src/commands/auth/login.ts', import.meta.url)),
    'utf8',
  );
  it.skipIf(!/waiting for the password on stdin/i.test(loginSource))(
    '--password-stdin on a terminal says it is waiting for the password on stdin',
    async () => {
      const c = w.cred();
      const s = login('term-stdin', ['--email', c.email, '--password-stdin']);
      await tmux.waitFor(s, /waiting for the password on stdin/i);
      tmux.type(s, c.password);
      tmux.key(s, 'Enter');
      const done = await tmux.waitFor(s, /EXIT=\d+/);
      expect(done).toMatch(/EXIT=0/);
      expect(done).not.toContain(c.password);
    },
  );

  it('a spinner and colour on a terminal; neither when piped', async () => {
    await w.login('acme', 'owner', ['--profile', 'term-list']);
    const args = ['connections', 'list', '--profile', 'term-list'];
    // The answer is held back, so the spinner is on screen long enough to be seen.
    w.sandbox.injectFaults({ kind: 'slow', ms: 1_500, path: '/connections' });
    const tty = cssctl(args);
    const spinning = await tmux.waitFor(tty, /Fetching connections/);
    expect(spinning).toMatch(SPINNER);
    const done = await tmux.waitFor(tty, /EXIT=\d+/, 10_000, true);
    expect(done).toMatch(/EXIT=0/);
    expect(done).toMatch(ESC); // the table's bold header

    w.sandbox.injectFaults({ kind: 'slow', ms: 1_500, path: '/connections' });
    const out = join(w.dir, 'piped.txt');
    const piped = cssctl(args, `2>&1 | cat > '${out}'`);
    await tmux.waitFor(piped, /EXIT=\d+/);
    const bytes = readFileSync(out, 'utf8');
    expect(bytes.length).toBeGreaterThan(0);
    expect(bytes).not.toMatch(ESC);
    expect(bytes).not.toMatch(SPINNER);
    expect(bytes).not.toContain('Fetching');
    expect(readdirSync(w.dir)).toContain('piped.txt');
  });
});
