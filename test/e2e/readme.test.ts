// The README's shell-completion install lines, run as written on a fresh account (an empty HOME), work in the
// real shells (issue 21: they used to miss `mkdir -p`, and zsh's `${fpath[1]}` needs root).
import { execFile } from 'node:child_process';
import { chmodSync, existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CLI_SHELL, World, hasCommand } from './harness.js';

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
  writeFileSync(join(bin, 'cssctl'), `#!/bin/sh\nexec ${CLI_SHELL} "$@"\n`);
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

/** The `script:` lines of the README's fleet recipe (the `.scan` job), as GitLab would run them. */
function fleetScript(): string {
  const yaml = /```yaml\n# GitLab: one job per connection[\s\S]*?```/.exec(README)![0];
  const script = yaml.slice(yaml.indexOf('  script:\n') + 10, yaml.indexOf('  retry:'));
  const out: string[] = [];
  let literal = false;
  for (const line of script.split('\n')) {
    if (/^ {4}- \|$/.test(line)) literal = true;
    else if (/^ {4}- /.test(line)) {
      literal = false;
      out.push(line.slice(6));
    } else if (literal && line.startsWith('      ')) out.push(line.slice(6));
  }
  return out.join('\n');
}

describe('Many jobs, one workspace: the README recipe against the sandbox', () => {
  let w: World;
  beforeAll(async () => {
    // One new scan per ten minutes: a second job cannot afford to wait for the budget (--max-wait 120).
    w = await World.start({ scanRateLimit: 1, rateWindowSeconds: 600, rateLimit: 100_000, scanStepMs: 50 });
  });
  afterAll(async () => {
    await w?.close();
  });

  async function job(connection: string, cwd: string): Promise<{ code: number; stderr: string }> {
    mkdirSync(cwd, { recursive: true });
    const c = w.cred();
    const jobEnv = {
      ...env,
      ...w.env,
      PATH: env.PATH!,
      CSSCTL_BASE_URL: w.url,
      CSSCTL_WORKSPACE: 'acme',
      CSSCTL_CREDENTIAL_STORE: 'file',
      CSSCTL_PASSWORD: c.password,
      CSSCTL_POLL_BASE_MS: '50',
      CONNECTION: connection,
      // Each job on its own runner: its own config folder, nothing shared but the service.
      CSSCTL_CONFIG_DIR: join(cwd, 'config'),
    };
    const script = fleetScript().replace('--email ci@acme.example', `--email ${c.email}`);
    try {
      const r = await run('bash', ['-eo', 'pipefail', '-c', script], { env: jobEnv, cwd, timeout: 60_000 });
      return { code: 0, stderr: r.stderr };
    } catch (err) {
      const e = err as { code: number; stderr: string };
      return { code: e.code, stderr: e.stderr };
    }
  }

  it('the first job scans and reports; the next, with the budget spent, exits 8 having created nothing', async () => {
    const first = await job('prod', join(dir, 'job1'));
    expect([0, 10], first.stderr).toContain(first.code);
    expect(readFileSync(join(dir, 'job1', 'junit.xml'), 'utf8')).toMatch(/<testsuites/);
    const posts = () => w.sandbox.requests.filter((r) => r.method === 'POST' && r.path === '/api/v1/scans');
    expect(posts().map((r) => r.status)).toEqual([201]);
    const second = await job('staging', join(dir, 'job2'));
    expect(second.code, second.stderr).toBe(8);
    expect(second.stderr).toMatch(/--max-wait/);
    // Its create was refused (429), so no second scan exists: running the job again later is safe.
    expect(posts().map((r) => r.status)).toEqual([201, 429]);
    expect(existsSync(join(dir, 'job2', 'junit.xml'))).toBe(false);
  });
});
