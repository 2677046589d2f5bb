import { execFileSync } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe } from 'vitest';
import { hasCommand } from './harness.js';

/**
 * A real terminal for tests: tmux runs a program in a pane on a private server; send-keys types and
 * capture-pane reads the screen. In CI tmux is installed by .ci/run: missing there is a failure, not a skip.
 */
export const describeTmux = hasCommand('tmux') || process.env.CI === 'true' ? describe : describe.skip;

export class Tmux {
  private readonly socket = `cssctl-test-${process.pid}-${Math.random().toString(36).slice(2, 8)}`;
  private n = 0;

  constructor(private readonly dir: string) {}

  cmd(...args: string[]): string {
    return execFileSync('tmux', ['-L', this.socket, ...args], { encoding: 'utf8' });
  }

  /** Runs a shell script in a new session, 160×30 unless told (width/columns, height/rows); returns its name. */
  start(
    script: string,
    size: { width?: number; height?: number; columns?: number; rows?: number } = {},
  ): string {
    const session = `s${++this.n}`;
    const file = join(this.dir, `tmux-${session}.sh`);
    writeFileSync(file, script);
    const x = String(size.columns ?? size.width ?? 160);
    const y = String(size.rows ?? size.height ?? 30);
    this.cmd('new-session', '-d', '-s', session, '-x', x, '-y', y, `sh '${file}'`);
    return session;
  }

  /** The screen as text (escapes: with the colour and style sequences). */
  screen(session: string, escapes = false): string {
    return this.cmd('capture-pane', '-p', '-J', ...(escapes ? ['-e'] : []), '-t', session);
  }

  type(session: string, text: string): void {
    this.cmd('send-keys', '-t', session, '-l', text);
  }

  key(session: string, ...keys: string[]): void {
    this.cmd('send-keys', '-t', session, ...keys);
  }

  async waitFor(session: string, pattern: RegExp, ms = 10_000, escapes = false): Promise<string> {
    const until = Date.now() + ms;
    for (;;) {
      const text = this.screen(session, escapes);
      if (pattern.test(text)) return text;
      if (Date.now() > until) throw new Error(`timed out waiting for ${pattern} on screen:\n${text}`);
      await new Promise((r) => setTimeout(r, 50));
    }
  }

  kill(): void {
    try {
      this.cmd('kill-server');
    } catch {
      // no server left
    }
  }
}

/** `env -i` with exactly these variables, shell-quoted, for a tmux script. */
export function envPrefix(env: Record<string, string | undefined>): string {
  const q = (s: string) => `'${s.replace(/'/g, `'\\''`)}'`;
  return `env -i ${Object.entries(env)
    .filter((e): e is [string, string] => e[1] !== undefined)
    .map(([k, v]) => `${k}=${q(v)}`)
    .join(' ')}`;
}
