// The commands the documentation gives, run as written: the README's five-minute tour against the sandbox;
// docs/completion.md's install lines on a fresh account (an empty HOME) in the real shells (issue 21: they used
// to miss `mkdir -p`, and zsh's `${fpath[1]}` needs root); docs/ci.md's fleet recipe as GitLab would run it.
import { execFile } from 'node:child_process';
import { chmodSync, existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CLI_SHELL, World, hasCommand } from './harness.js';

const run = promisify(execFile);
const page = (path: string) => readFileSync(new URL(`../../${path}`, import.meta.url), 'utf8');
const README = page('README.md');
const COMPLETION = page('docs/completion.md');
const CI = page('docs/ci.md');

/** The first ```sh block after a heading of a page. */
function block(text: string, heading: string): string {
  const at = text.indexOf(`\n${heading}\n`);
  expect(at, heading).toBeGreaterThan(0);
  const m = /```sh\n([\s\S]*?)```/.exec(text.slice(at));
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

describe('Shell completion, as docs/completion.md installs it', () => {
  beforeAll(async () => {
    const lines = block(COMPLETION, '## Installing');
    // As a new user would paste it: every line, stopping at the first that fails.
    await run('bash', ['-euc', lines], { env, timeout: 20_000 });
    // The zsh lines the page puts in ~/.zshrc (shown as comments there).
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

/** The `script:` lines of docs/ci.md's fleet recipe (the `.scan` job), as GitLab would run them. */
function fleetScript(): string {
  const yaml = /```yaml\n# GitLab: one job per connection[\s\S]*?```/.exec(CI)![0];
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

describe('Many jobs, one workspace: the docs/ci.md recipe against the sandbox', () => {
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

describe("the README's five-minute tour, against the sandbox", () => {
  let w: World;
  beforeAll(async () => {
    w = await World.start({ scanStepMs: 50 });
  });
  afterAll(async () => {
    await w?.close();
  });

  it('runs line by line as written, once logged in (as the README says, the login line is skipped)', async () => {
    const lines = block(README, '## A five-minute tour')
      .split('\n')
      .filter((l) => l.trim() !== '' && !l.startsWith('#'));
    expect(lines[0]).toMatch(/^cssctl login /);
    await w.login();
    const cwd = join(dir, 'tour');
    mkdirSync(cwd);
    const tourEnv = { ...env, ...w.env, PATH: env.PATH!, CSSCTL_POLL_BASE_MS: '50' };
    for (const line of lines.slice(1)) {
      const res = await run('bash', ['-c', line], { env: tourEnv, cwd, timeout: 60_000 }).then(
        (r) => ({ code: 0, ...r }),
        (e: { code: number; stdout: string; stderr: string }) => e,
      );
      // The gate's line may find something at or above high: exit 10 is its answer, not a failure.
      expect(line.includes('--fail-on') ? [0, 10] : [0], `${line}\n${res.stderr}`).toContain(res.code);
      if (!line.includes('>')) expect(res.stdout, line).not.toBe('');
    }
    const csv = readFileSync(join(cwd, 'findings.csv'), 'utf8').split('\n');
    expect(csv[0]).toMatch(/(^|,)severity(,|$)/);
    expect(csv.length).toBeGreaterThan(10);
  });
});
