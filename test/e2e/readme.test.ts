// The README's shell-completion install lines, run as written on a fresh account (an empty HOME), work in the
// real shells (issue 21: they used to miss `mkdir -p`, and zsh's `${fpath[1]}` needs root).
import { execFile } from 'node:child_process';
import { chmodSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BIN, hasCommand } from './harness.js';

const run = promisify(execFile);
const README = readFileSync(new URL('../../README.md', import.meta.url), 'utf8');

/** The first ```sh block after a heading. */
function block(heading: string): string {
  const at = README.indexOf(`\n${heading}\n`);
  expect(at, heading).toBeGreaterThan(0);
  const m = /```sh\n([\s\S]*?)```/.exec(README.slice(at));
  return m![1]!;
}

let dir: string;
let env: Record<string, string>;
beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), 'cssctl-readme-'));
  const bin = join(dir, 'bin');
  mkdirSync(bin);
  writeFileSync(join(bin, 'cssctl'), `#!/bin/sh\nexec '${process.execPath}' '${BIN}' "$@"\n`);
  chmodSync(join(bin, 'cssctl'), 0o755);
  const home = join(dir, 'home');
  mkdirSync(home);
  env = {
    PATH: `${bin}:${dirname(process.execPath)}:/usr/local/bin:/usr/bin:/bin`,
    HOME: home,
    LANG: 'C.UTF-8',
    TERM: 'dumb',
    CSSCTL_CONFIG_DIR: join(dir, 'config'),
  };
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const sh = async (cmd: string, args: string[]) =>
  (await run(cmd, args, { env, encoding: 'utf8', timeout: 20_000 })).stdout;

describe('Shell completion, as the README installs it', () => {
  beforeAll(async () => {
    const lines = block('### Shell completion');
    // As a new user would paste it: every line, stopping at the first that fails.
    await run('bash', ['-euc', lines], { env, timeout: 20_000 });
    // The zsh lines the README puts in ~/.zshrc (shown as comments there).
    const zshrc = [...lines.matchAll(/^#\s+(fpath=.*)$/gm)].map((m) => m[1]!);
    expect(zshrc).toEqual(['fpath=(~/.zfunc $fpath)']);
    writeFileSync(join(env.HOME!, '.zshrc'), `${zshrc.join('\n')}\nautoload -Uz compinit && compinit -u\n`);
  });

  it.runIf(hasCommand('bash') || process.env.CI === 'true')('bash: ~/.bashrc binds _cssctl', async () => {
    expect(await sh('bash', ['-ic', 'complete -p cssctl'])).toMatch(/-F _cssctl cssctl/);
  });

  it.runIf(hasCommand('bash') || process.env.CI === 'true')(
    'bash: the bash-completion user folder holds the script',
    async () => {
      const file = join(env.HOME!, '.local/share/bash-completion/completions/cssctl');
      expect(await sh('bash', ['-c', `source '${file}' && complete -p cssctl`])).toMatch(/-F _cssctl cssctl/);
    },
  );

  it.runIf(hasCommand('zsh') || process.env.CI === 'true')(
    'zsh: ~/.zfunc on fpath, found by compinit',
    async () => {
      expect((await sh('zsh', ['-ic', 'print -r -- $_comps[cssctl]'])).trim()).toBe('_cssctl');
    },
  );

  it.runIf(hasCommand('fish') || process.env.CI === 'true')(
    'fish: completes from ~/.config/fish/completions',
    async () => {
      const out = await sh('fish', ['-c', 'complete -C "cssctl webh"']);
      expect(out.split('\n')[0]).toMatch(/^webhooks\b/);
    },
  );
});
