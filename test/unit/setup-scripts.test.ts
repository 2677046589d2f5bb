// scripts/lib.sh, the set-up of scripts/try, scripts/test and .ci/run (issue 21), with the system's tools
// replaced by stubs on PATH: which Debian packages it installs and how, what it says when it cannot, and when
// it rebuilds keytar — and that under CI=true what a developer may skip is a failure.
import { execFile } from 'node:child_process';
import {
  chmodSync,
  cpSync,
  existsSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  realpathSync,
  rmSync,
  statSync,
  symlinkSync,
  writeFileSync,
} from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

const LIB = fileURLToPath(new URL('../../scripts/lib.sh', import.meta.url));
let dir: string;
let bin: string;
let log: string;

/**
 * A stub program: logs its name, arguments and build settings (prebuild-install's, and any npm_config_ one,
 * which npm 11 warns about when it does not know it), then runs `body` (sh).
 */
function stub(name: string, body = 'exit 0'): void {
  const file = join(bin, name);
  const settings =
    '$(env | sed -n "s/^prebuild-install_buildFromSource=//p")' +
    '$(env | grep -q "^npm_config_build_from_source=" && echo " npm_config_build_from_source")';
  writeFileSync(file, `#!/bin/sh\necho "${name} $* [build_from_source=${settings}]" >> "$LOG"\n${body}\n`);
  chmodSync(file, 0o755);
}

beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), 'cssctl-setup-'));
  bin = join(dir, 'bin');
  mkdirSync(bin);
  for (const tool of ['env', 'cat', 'mkdir', 'dirname', 'sh', 'rm', 'sed', 'grep', 'tr', 'uname', 'chmod']) {
    const real = ['/usr/bin', '/bin'].map((d) => join(d, tool)).find((p) => existsSync(p));
    if (real) symlinkSync(real, join(bin, tool));
  }
  // dpkg -s: installed unless named in $MISSING.
  stub('dpkg', 'case " $MISSING " in *" $2 "*) exit 1 ;; esac; exit 0');
  stub('id', 'echo "${FAKE_UID:-0}"');
  stub('apt-get', 'exit "${APT_RC:-0}"');
  // node -e "require('keytar')" fails while $KEYTAR_BROKEN names a file that exists; npm rebuild removes it.
  // With $OLD_NODE set, it is older than 22.19.
  stub(
    'node',
    'case "$*" in *keytar*) test ! -e "${KEYTAR_BROKEN:-$HOME/no-such-file}" ;; *-p*) echo "$HOME/no-node-root" ;;' +
      ' *process.versions*) test -z "$OLD_NODE" ;; esac',
  );
  // npm install puts a Node that is new enough into ./node_modules/.bin.
  stub(
    'npm',
    'case "$1" in rebuild) rm -f "$KEYTAR_BROKEN" ;; install) mkdir -p node_modules/.bin &&' +
      ' printf "#!/bin/sh\\nexit 0\\n" > node_modules/.bin/node && chmod +x node_modules/.bin/node ;; esac; exit 0',
  );
  stub('pkg-config', 'exit 1');
  mkdirSync(join(dir, 'work', 'node_modules'), { recursive: true });
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

async function lib(
  script: string,
  env: Record<string, string> = {},
): Promise<{ code: number; stderr: string; calls: string[] }> {
  log = join(dir, `log-${Math.random().toString(36).slice(2)}`);
  writeFileSync(log, '');
  const base = { PATH: bin, LOG: log, HOME: dir };
  const result = await promisify(execFile)('/bin/bash', ['-c', `source '${LIB}'; ${script}`], {
    env: { ...base, ...env },
    cwd: join(dir, 'work'),
  }).then(
    (r) => ({ code: 0, stderr: r.stderr }),
    (err: { code: number; stderr: string }) => ({ code: err.code, stderr: err.stderr }),
  );
  return { ...result, calls: readFileSync(log, 'utf8').trim().split('\n').filter(Boolean) };
}

describe('ensure_packages', () => {
  it('installs nothing when every package is there', async () => {
    const r = await lib('ensure_packages zsh tmux');
    expect(r.code).toBe(0);
    expect(r.calls.filter((c) => c.startsWith('apt-get'))).toEqual([]);
  });

  it('as root: apt-get update, then install of the missing ones only', async () => {
    const r = await lib('ensure_packages zsh tmux fish', { MISSING: 'tmux fish' });
    expect(r.code).toBe(0);
    expect(r.calls.filter((c) => c.startsWith('apt-get')).map((c) => c.replace(/ \[.*/, ''))).toEqual([
      'apt-get update -qq',
      'apt-get install -y -qq tmux fish',
    ]);
    expect(r.stderr).toMatch(/installing Debian packages: tmux fish/);
  });

  it('not root, with sudo: through sudo', async () => {
    stub('sudo', 'exec "$@"');
    try {
      const r = await lib('ensure_packages tmux', { MISSING: 'tmux', FAKE_UID: '1000' });
      expect(r.code).toBe(0);
      expect(
        r.calls.some((c) => c.startsWith('sudo env DEBIAN_FRONTEND=noninteractive apt-get install')),
      ).toBe(true);
    } finally {
      rmSync(join(bin, 'sudo'));
    }
  });

  it('not root and no sudo: one line saying what is missing and what will be skipped; goes on', async () => {
    const r = await lib('ensure_packages libsecret-1-dev tmux && echo went-on >&2', {
      MISSING: 'libsecret-1-dev tmux',
      FAKE_UID: '1000',
    });
    expect(r.code).toBe(0);
    const lines = r.stderr.trim().split('\n');
    expect(lines).toEqual([
      'cssctl: could not install libsecret-1-dev tmux (not root and no sudo): without them the OS keychain (keytar) and the tests that need these tools will be skipped',
      'went-on',
    ]);
    expect(r.calls.filter((c) => c.startsWith('apt-get'))).toEqual([]);
  });

  it('apt-get failing: the same line, naming it; under CI=true that is a failure', async () => {
    const dev = await lib('ensure_packages tmux', { MISSING: 'tmux', APT_RC: '100' });
    expect(dev.code).toBe(0);
    expect(dev.stderr).toMatch(/could not install tmux \(apt-get failed\)/);
    const ci = await lib('ensure_packages tmux', { MISSING: 'tmux', APT_RC: '100', CI: 'true' });
    expect(ci.code).not.toBe(0);
  });
});

describe('ensure_node', () => {
  it('with a Node older than 22.19: Node 24 from the registry package for this machine, no install script', async () => {
    const nodeDir = join(dir, `node-${Math.random().toString(36).slice(2)}`);
    const r = await lib('ensure_node && echo "$PATH" >&2', { OLD_NODE: '1', CSSCTL_NODE_DIR: nodeDir });
    expect(r.code).toBe(0);
    const pkg = `node-${process.platform}-${process.arch}`;
    // node-<os>-<arch> holds the binary; the `node` package would fetch it from a preinstall script.
    expect(r.calls.filter((c) => c.startsWith('npm'))).toEqual([
      `npm install --no-save --no-audit --no-fund --loglevel=warn ${pkg}@24 [build_from_source=]`,
    ]);
    expect(r.stderr).toMatch(/installing Node.js 24 into/);
    expect(r.stderr).toContain(`${nodeDir}/node_modules/.bin:`);
    // Once there, it is used as it is.
    const again = await lib('ensure_node', { OLD_NODE: '1', CSSCTL_NODE_DIR: nodeDir });
    expect(again.code).toBe(0);
    expect(again.calls.filter((c) => c.startsWith('npm'))).toEqual([]);
  });
});

describe('ensure_keytar', () => {
  const broken = () => {
    const f = join(dir, 'keytar-broken');
    writeFileSync(f, '');
    return f;
  };

  it('keytar loads: nothing to do', async () => {
    const r = await lib('ensure_keytar');
    expect(r.code).toBe(0);
    expect(r.calls.filter((c) => c.startsWith('npm'))).toEqual([]);
  });

  it('keytar does not load and libsecret-1-dev is there: npm rebuild keytar, with no setting npm does not know', async () => {
    const r = await lib('ensure_keytar', { KEYTAR_BROKEN: broken() });
    expect(r.code).toBe(0);
    // Built from source through .prebuild-installrc: npm_config_build_from_source made npm 11 warn
    // "Unknown env config" on every command.
    expect(r.calls.filter((c) => c.startsWith('npm'))).toEqual([
      'npm rebuild keytar --no-audit --no-fund --loglevel=warn [build_from_source=]',
    ]);
    expect(r.stderr).toMatch(/building keytar .* now that libsecret-1-dev is installed/);
  });

  it("the checkout's .prebuild-installrc makes keytar's install script build from source (prebuild-install's own rc)", async () => {
    const REPO = fileURLToPath(new URL('../..', import.meta.url));
    const project = join(dir, 'project');
    const pkg = join(project, 'node_modules', 'keytar');
    mkdirSync(pkg, { recursive: true });
    writeFileSync(join(pkg, 'package.json'), '{"name":"keytar","version":"7.9.0"}');
    const rc = createRequire(join(REPO, 'package.json')).resolve('prebuild-install/rc');
    const read = async () =>
      (
        await promisify(execFile)(
          process.execPath,
          ['-p', `String(require(${JSON.stringify(rc)})(require('./package.json')).buildFromSource)`],
          { cwd: pkg, env: { PATH: '/usr/bin:/bin', HOME: dir } },
        )
      ).stdout.trim();
    expect(await read()).toBe('false');
    cpSync(join(REPO, '.prebuild-installrc'), join(project, '.prebuild-installrc'));
    expect(await read()).toBe('true');
  });

  it('keytar does not load and libsecret is missing: one line why, no rebuild; CI=true fails', async () => {
    const env = { KEYTAR_BROKEN: broken(), MISSING: 'libsecret-1-dev' };
    const dev = await lib('ensure_keytar', env);
    expect(dev.code).toBe(0);
    expect(dev.stderr.trim()).toBe(
      'cssctl: keytar is not built (libsecret-1-dev is not installed): credentials go to a file and the keychain tests will be skipped',
    );
    expect(dev.calls.filter((c) => c.startsWith('npm'))).toEqual([]);
    const ci = await lib('ensure_keytar', { ...env, CI: 'true' });
    expect(ci.code).not.toBe(0);
    expect(ci.stderr).toMatch(/CI=true: keytar must load here/);
  });
});

/**
 * One build shared by scripts/try, scripts/test and vitest (issue 29): scripts/build.mjs in a copy of the
 * checkout (its own dist/ and lock; node_modules linked), run as scripts/lib.sh and vitest's global set-up run it.
 */
describe('the build that scripts/try, scripts/test and vitest share', () => {
  const REPO = fileURLToPath(new URL('../..', import.meta.url));
  let copy: string;
  const run = (args: string[], env: Record<string, string> = {}) =>
    promisify(execFile)(args[0]!, args.slice(1), {
      cwd: copy,
      env: { PATH: `${dirname(process.execPath)}:/usr/bin:/bin`, HOME: dir, ...env },
    });
  const ensureBuild = () => run(['/bin/bash', '-c', 'source scripts/lib.sh && ensure_build']);
  /** What vitest's global set-up runs (test/global-setup.ts), from the copy. */
  const globalSetup = () =>
    run([
      process.execPath,
      '--input-type=module',
      '-e',
      "(await import('./test/global-setup.ts')).default()",
    ]);
  const id = (file: string) => {
    const st = statSync(join(copy, 'dist', file));
    return `${st.ino}:${st.mtimeMs}`;
  };

  beforeAll(() => {
    copy = mkdtempSync(join(tmpdir(), 'cssctl-build-'));
    for (const p of [
      'src',
      'test/sandbox',
      'test/global-setup.ts',
      'scripts',
      'bin',
      // the pages of `cssctl help <topic>` and of the man pages
      'docs',
      'licenses',
      'LICENSE',
      'package.json',
      'package-lock.json',
      'tsconfig.json',
    ])
      cpSync(join(REPO, p), join(copy, p), { recursive: true });
    symlinkSync(realpathSync(join(REPO, 'node_modules')), join(copy, 'node_modules'));
  });
  afterAll(() => rmSync(copy, { recursive: true, force: true }));

  it('a build stamps dist/; scripts/lib.sh and vitest then reuse it, until a source changes', async () => {
    await run([process.execPath, 'scripts/build.mjs']);
    const stamp = readFileSync(join(copy, 'dist/.built'), 'utf8');
    expect(stamp).toMatch(new RegExp(`^${process.version.replace(/\./g, '\\.')} [0-9a-f]{64}\\n$`));
    const before = ['cli.cjs', 'help.json', 'sandbox.js'].map(id);
    await ensureBuild(); // scripts/try, scripts/test
    await globalSetup(); // a vitest run
    expect(['cli.cjs', 'help.json', 'sandbox.js'].map(id)).toEqual(before);

    writeFileSync(
      join(copy, 'src/cli.ts'),
      `${readFileSync(join(copy, 'src/cli.ts'), 'utf8')}\n// changed\n`,
    );
    await globalSetup();
    expect(id('cli.cjs')).not.toBe(before[0]);
    expect(readFileSync(join(copy, 'dist/.built'), 'utf8')).not.toBe(stamp);
    const again = id('cli.cjs');
    await ensureBuild();
    expect(id('cli.cjs')).toBe(again);
  }, 60_000);

  it('while builds run (two at once), a reader of dist/ never finds a file missing; they leave one whole build', async () => {
    await run([process.execPath, 'scripts/build.mjs', '--if-changed']);
    // What a build killed in the middle leaves: its staging folder (removed by the next build that holds the lock).
    mkdirSync(join(copy, '.tmp', 'build-999999', 'bench'), { recursive: true });
    const files = ['cli.cjs', 'help.json', 'sandbox.js', 'config-writer.cjs', 'keychain-worker.js'];
    let done = 0;
    const builds = [1, 2].map(() => run([process.execPath, 'scripts/build.mjs']).finally(() => done++));
    const missing = new Set<string>();
    let reads = 0;
    while (done < 2) {
      for (const f of files) {
        try {
          readFileSync(join(copy, 'dist', f));
          reads++;
        } catch (err) {
          missing.add(`${f}: ${(err as NodeJS.ErrnoException).code}`);
        }
      }
      await new Promise((r) => setTimeout(r, 2));
    }
    await Promise.all(builds);
    expect([...missing]).toEqual([]);
    expect(reads).toBeGreaterThan(50);
    // One whole build: the CLI answers from it, nothing was left in the staging folders, and it is up to date.
    const v = await run([process.execPath, 'bin/cssctl.cjs', 'version', '--json']);
    expect(JSON.parse(v.stdout).version).toMatch(/^\d+\.\d+\.\d+/);
    expect(readdirSync(join(copy, '.tmp')).filter((n) => n.startsWith('build-'))).toEqual([]);
    const stamp = id('cli.cjs');
    await ensureBuild();
    expect(id('cli.cjs')).toBe(stamp);
  }, 60_000);
});
