// Completion of values only the service knows (issue 21): connection aliases after --connection and recent
// scan ids for <scan_id>, through the hidden `cssctl __complete`, in the real shells. Bounded (a service that
// never answers costs a TAB 1.5 s, then nothing), quiet, cached a minute in $XDG_CACHE_HOME/cssctl without
// any token, and never a refresh: an expired session offers nothing rather than writing new tokens.
import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import { chmodSync, mkdirSync, readFileSync, readdirSync, writeFileSync } from 'node:fs';
import { createServer, type Server, type Socket } from 'node:net';
import { dirname, join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CLI_SHELL, World, hasCommand, received, runCli } from './harness.js';
import { Tmux, describeTmux, envPrefix } from './tmux.js';

let w: World;
let env: Record<string, string>;
let acmeAliases: string[];
let globexAliases: string[];
let recentScans: string[];
let hung: Server;
const sockets: Socket[] = [];
let hungUrl: string;

const execFileAsync = promisify(execFile);
const sorted = (xs: readonly string[]) => [...xs].sort();

beforeAll(async () => {
  w = await World.start({ rateLimit: 100_000 });
  await w.login('acme');
  await w.login('globex', 'owner', [], { env: { CSSCTL_PROFILE: 'g' } });
  const bin = join(w.dir, 'bin');
  mkdirSync(bin);
  writeFileSync(join(bin, 'cssctl'), `#!/bin/sh\nexec ${CLI_SHELL} "$@"\n`);
  chmodSync(join(bin, 'cssctl'), 0o755);
  env = {
    PATH: `${bin}:${dirname(process.execPath)}:/usr/local/bin:/usr/bin:/bin`,
    HOME: w.home,
    LANG: 'C.UTF-8',
    CSSCTL_CONFIG_DIR: w.configDir,
    XDG_CACHE_HOME: join(w.dir, 'cache'),
  };
  const aliases = async (profile: string) =>
    (
      JSON.parse(
        (await w.run(['connections', 'list', '--all', '--json'], { env: { CSSCTL_PROFILE: profile } }))
          .stdout,
      ) as {
        alias: string;
      }[]
    ).map((c) => c.alias);
  acmeAliases = await aliases('default');
  globexAliases = await aliases('g');
  expect(acmeAliases.length).toBeGreaterThan(1);
  expect(sorted(globexAliases)).not.toEqual(sorted(acmeAliases));
  const scans = JSON.parse((await w.run(['scans', 'list', '--limit', '20', '--json'])).stdout) as {
    scan_id: string;
  }[];
  recentScans = scans.map((s) => s.scan_id);
  expect(recentScans.length).toBeGreaterThan(0);
  // A service that accepts connections and never answers.
  hung = createServer((s) => {
    sockets.push(s);
    s.on('error', () => undefined);
  });
  await new Promise<void>((r) => hung.listen(0, '127.0.0.1', r));
  hungUrl = `http://127.0.0.1:${(hung.address() as { port: number }).port}`;
});
afterAll(async () => {
  for (const s of sockets) s.destroy();
  hung?.close();
  await w?.close();
});

/** A fresh cache folder, so each case asks the service. */
let cacheN = 0;
function freshCache(): Record<string, string> {
  return { XDG_CACHE_HOME: join(w.dir, `cache-${++cacheN}`) };
}

describe('cssctl __complete connections|scans', () => {
  it('prints the aliases and recent scan ids of the workspace in effect; --profile picks another', async () => {
    const e = { ...env, ...freshCache() };
    const conns = await runCli(['__complete', 'connections'], e);
    expect(conns.code).toBe(0);
    expect(conns.stderr).toBe('');
    expect(sorted(conns.stdout.trim().split('\n'))).toEqual(sorted(acmeAliases));
    const scans = await runCli(['__complete', 'scans'], e);
    expect(scans.stdout.trim().split('\n')).toEqual(recentScans);
    const g = await runCli(['__complete', 'connections', '--profile', 'g'], e);
    expect(sorted(g.stdout.trim().split('\n'))).toEqual(sorted(globexAliases));
  });

  it('caches the answer a minute in $XDG_CACHE_HOME/cssctl, with no token in it', async () => {
    const e = { ...env, ...freshCache() };
    w.sandbox.clearRequests();
    await runCli(['__complete', 'connections'], e);
    expect(received(w.sandbox, '/connections')).toHaveLength(1);
    const again = await runCli(['__complete', 'connections'], e);
    expect(sorted(again.stdout.trim().split('\n'))).toEqual(sorted(acmeAliases));
    expect(received(w.sandbox, '/connections')).toHaveLength(1);
    const dir = join(e.XDG_CACHE_HOME!, 'cssctl');
    // The folder is shared with the code cache (bin/cssctl.cjs): the completion files are complete-*.json.
    const files = readdirSync(dir).filter((f) => f.startsWith('complete-'));
    expect(files).toHaveLength(1);
    const cached = readFileSync(join(dir, files[0]!), 'utf8');
    const creds = JSON.parse(readFileSync(join(w.configDir, 'credentials.json'), 'utf8')) as {
      profiles: Record<string, { access_token: string; refresh_token: string }>;
    };
    for (const t of Object.values(creds.profiles)) {
      expect(cached).not.toContain(t.access_token);
      expect(cached).not.toContain(t.refresh_token);
    }
  });

  it.each([
    ['not logged in', ['--profile', 'nobody']],
    ['a closed port', ['--base-url', 'http://127.0.0.1:9']],
  ])('%s: nothing, exit 0, nothing on stderr', async (_name, args) => {
    const res = await runCli(['__complete', 'connections', ...args], { ...env, ...freshCache() });
    expect(res).toMatchObject({ code: 0, stdout: '', stderr: '' });
  });

  it('a service that never answers: nothing, within the bound', async () => {
    const e = { ...env, ...freshCache(), CSSCTL_BASE_URL: hungUrl };
    // Tokens issued by another base URL are never sent there: use CSSCTL_TOKEN to reach the hung service.
    const token = await w.sandbox.issueAccessToken(w.cred('acme').email, 3600);
    const res = await runCli(['__complete', 'scans'], { ...e, CSSCTL_TOKEN: token }, { timeoutMs: 8000 });
    expect(res).toMatchObject({ code: 0, stdout: '', stderr: '' });
    expect(res.ms).toBeLessThan(5000);
    expect(sockets.length).toBeGreaterThan(0);
  });

  it('an expired session: nothing, and no refresh (no tokens are written at TAB time)', async () => {
    await w.login('acme', 'owner', [], { env: { CSSCTL_PROFILE: 'old' } });
    const file = join(w.configDir, 'credentials.json');
    const creds = JSON.parse(readFileSync(file, 'utf8')) as {
      profiles: Record<string, { expires_at: number }>;
    };
    creds.profiles.old!.expires_at = Date.now() - 1000;
    writeFileSync(file, JSON.stringify(creds));
    const before = readFileSync(file, 'utf8');
    w.sandbox.clearRequests();
    const res = await runCli(['__complete', 'connections', '--profile', 'old'], { ...env, ...freshCache() });
    expect(res).toMatchObject({ code: 0, stdout: '', stderr: '' });
    expect(w.sandbox.requests).toHaveLength(0);
    expect(readFileSync(file, 'utf8')).toBe(before);
  });
});

/** The shell, run without blocking: the sandbox answers from this process. */
async function sh(cmd: string, args: string[], extra: Record<string, string> = {}): Promise<string> {
  const { stdout } = await execFileAsync(cmd, args, {
    encoding: 'utf8',
    env: { ...env, ...extra },
    timeout: 20_000,
  });
  return stdout;
}

describe.runIf(hasCommand('bash') || process.env.CI === 'true')('bash', () => {
  const complete = async (words: string[], cur: string) =>
    (
      await sh(
        'bash',
        [
          '-c',
          'source <(cssctl completion bash) && COMP_WORDS=("$@") && COMP_CWORD=$(($# - 1)) && _cssctl && printf "%s\\n" "${COMPREPLY[@]}"',
          'bash',
          'cssctl',
          ...words,
          cur,
        ],
        freshCache(),
      )
    )
      .split('\n')
      .filter(Boolean);

  it('scans create --connection <TAB>: the aliases', async () => {
    expect(sorted(await complete(['scans', 'create', '--connection'], ''))).toEqual(sorted(acmeAliases));
    expect(await complete(['scans', 'create', '--connection'], 'pr')).toEqual(
      acmeAliases.filter((a) => a.startsWith('pr')),
    );
  });

  it('--profile g scans create --connection <TAB>: the aliases of that profile’s workspace', async () => {
    expect(sorted(await complete(['--profile', 'g', 'scans', 'create', '--connection'], ''))).toEqual(
      sorted(globexAliases),
    );
  });

  it('findings list --connection a,<TAB>: the other aliases after the comma; scans create takes one', async () => {
    const [first, second] = acmeAliases as [string, string];
    const rest = acmeAliases.filter((a) => a !== first);
    expect(sorted(await complete(['findings', 'list', '--connection'], `${first},`))).toEqual(
      sorted(rest.map((a) => `${first},${a}`)),
    );
    expect(await complete(['findings', 'list', '--connection'], `${first},${second.slice(0, 2)}`)).toEqual(
      rest.filter((a) => a.startsWith(second.slice(0, 2))).map((a) => `${first},${a}`),
    );
    // One alias only: no list, so nothing after a comma.
    expect(await complete(['scans', 'create', '--connection'], `${first},`)).toEqual([]);
  });

  it('scans wait <TAB> and scans get <TAB>: the recent scan ids', async () => {
    expect(sorted(await complete(['scans', 'wait'], ''))).toEqual(sorted(recentScans));
    expect(sorted(await complete(['scans', 'get'], ''))).toEqual(sorted(recentScans));
  });
});

describe.runIf(hasCommand('fish') || process.env.CI === 'true')('fish', () => {
  /** Each candidate with its description (the text after a tab), as fish lists them. */
  const complete = async (line: string) =>
    (
      await sh('fish', ['--no-config', '-c', 'cssctl completion fish | source; complete -C "$CSSCTL_LINE"'], {
        ...freshCache(),
        CSSCTL_LINE: `cssctl ${line}`,
      })
    )
      .split('\n')
      .filter(Boolean);

  it('scans create --connection <TAB> and scans wait <TAB>', async () => {
    expect(sorted(await complete('scans create --connection '))).toEqual(sorted(acmeAliases));
    expect(sorted(await complete('scans wait '))).toEqual(sorted(recentScans));
    expect(sorted(await complete('--profile g scans create --connection '))).toEqual(sorted(globexAliases));
  });

  it('findings list --connection a,<TAB>: the other aliases after the comma', async () => {
    const first = acmeAliases[0]!;
    const rest = acmeAliases.filter((a) => a !== first);
    expect(sorted(await complete(`findings list --connection ${first},`))).toEqual(
      sorted(rest.map((a) => `${first},${a}`)),
    );
  });

  it('values are listed without the flag’s description; the flag keeps it', async () => {
    const values = await complete('findings list --severity ');
    expect(values.length).toBe(5);
    for (const v of values) expect(v).not.toContain('\t');
    const flag = await complete('findings list --sever');
    expect(flag).toHaveLength(1);
    expect(flag[0]).toMatch(/^--severity\t\S/);
    const outputs = await complete('findings list -o ');
    for (const v of outputs) expect(v).not.toContain('\t');
  });
});

describeTmux('zsh at a real terminal (tmux)', () => {
  let tmux: Tmux;
  beforeAll(() => {
    tmux = new Tmux(w.dir);
  });
  afterAll(() => tmux.kill());

  it('scans create --connection <TAB> and scans wait <TAB> list the values from the service', async () => {
    const zdot = join(w.dir, 'zdot');
    mkdirSync(zdot);
    writeFileSync(
      join(zdot, '.zshrc'),
      `PS1='%% '\nautoload -Uz compinit && compinit -u -d ${zdot}/.zcompdump\nsource <(cssctl completion zsh)\n`,
    );
    const s = tmux.start(`${envPrefix({ ...env, ZDOTDIR: zdot, TERM: 'xterm-256color' })} zsh -i\n`);
    await tmux.waitFor(s, /^% /m);
    const tab = async (line: string, expected: RegExp) => {
      tmux.key(s, 'C-u');
      tmux.key(s, 'C-l');
      await tmux.waitFor(s, /^\s*%\s*$/);
      tmux.type(s, line);
      tmux.key(s, 'Tab');
      return tmux.waitFor(s, expected);
    };
    const all = (xs: readonly string[]) => new RegExp(xs.map((x) => `(?=[\\s\\S]*\\b${x}\\b)`).join(''));
    await tab('cssctl scans create --connection ', all(acmeAliases.slice(0, 5)));
    // A list flag: after a comma, the aliases not given yet.
    const [first, ...rest] = acmeAliases as [string, ...string[]];
    const listed = await tab(`cssctl findings list --connection ${first},`, all(rest.slice(0, 4)));
    expect(listed.split('\n').slice(1).join('\n')).not.toMatch(new RegExp(`\\b${first}\\b`));
    // The ids share their prefix: the first TAB inserts it, the second lists them.
    await tab('cssctl scans wait ', /^% cssctl scans wait scn_\s*$/m);
    tmux.key(s, 'Tab');
    await tmux.waitFor(s, all(recentScans.slice(0, 5)));
  });
});

describeTmux('no values from the service: nothing offered, not file names (tmux)', () => {
  let tmux: Tmux;
  let cwd: string;
  beforeAll(() => {
    tmux = new Tmux(w.dir);
    cwd = join(w.dir, 'cwd');
    mkdirSync(cwd);
    writeFileSync(join(cwd, 'scn_notes.txt'), '');
  });
  afterAll(() => tmux.kill());

  // The service cannot be reached: __complete prints nothing.
  const down = () => ({
    ...env,
    ...freshCache(),
    CSSCTL_BASE_URL: 'http://127.0.0.1:9',
    TERM: 'xterm-256color',
  });

  async function tabTwice(s: string, line: string): Promise<string> {
    await tmux.waitFor(s, /^\$ $/m);
    tmux.type(s, line);
    tmux.key(s, 'Tab');
    await new Promise((r) => setTimeout(r, 600));
    tmux.key(s, 'Tab');
    await new Promise((r) => setTimeout(r, 2500)); // each TAB asks __complete (bounded at 1.5 s)
    return tmux.screen(s);
  }

  it('bash: scans wait scn_<TAB> completes no file; --payload-file scn_<TAB> still does', async () => {
    const start = () =>
      tmux.start(`cd '${cwd}'\n${envPrefix({ ...down(), PS1: '$ ' })} bash --norc --noprofile -i\n`);
    const s = start();
    tmux.type(s, 'source <(cssctl completion bash); clear\n');
    const screen = await tabTwice(s, 'cssctl scans wait scn_');
    expect(screen).toMatch(/^\$ cssctl scans wait scn_\s*$/m);
    expect(screen).not.toContain('scn_notes.txt');
    tmux.key(s, 'C-u');
    tmux.type(s, 'clear\n');
    const files = await tabTwice(s, 'cssctl webhooks verify --payload-file scn_');
    expect(files).toContain('scn_notes.txt');
  });

  it('zsh: scans wait scn_<TAB> completes no file', async () => {
    const zdot = join(w.dir, 'zdot-down');
    mkdirSync(zdot);
    writeFileSync(
      join(zdot, '.zshrc'),
      `PS1='$ '\nautoload -Uz compinit && compinit -u -d ${zdot}/.zcompdump\nsource <(cssctl completion zsh)\n`,
    );
    const s = tmux.start(`cd '${cwd}'\n${envPrefix({ ...down(), ZDOTDIR: zdot })} zsh -i\n`);
    const screen = await tabTwice(s, 'cssctl scans wait scn_');
    expect(screen).toMatch(/^\$ cssctl scans wait scn_\s*$/m);
    expect(screen).not.toContain('scn_notes.txt');
  });
});
