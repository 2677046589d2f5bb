// What CI runs where (issue 35): the end-to-end suite once, against the single executable; the files where the
// Node or the install matters against the package (CSSCTL_SHIPPED_E2E); what only the checkout shows with the unit
// tests (CSSCTL_CHECKOUT_E2E, `CSSCTL_TEST_SET=checkout bash scripts/test`). A test that skips against another
// cssctl must then be in a set that runs it, or CI would test it nowhere. And scripts/test itself, with vitest
// replaced by a stub: which files each set hands it, the shards, and the one closing line.
import { execFile, execFileSync } from 'node:child_process';
import {
  chmodSync,
  copyFileSync,
  existsSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

const ROOT = fileURLToPath(new URL('../../', import.meta.url));

/** A list of scripts/lib.sh, as bash reads it. */
function set(name: string): string[] {
  return execFileSync('bash', ['-c', `source scripts/lib.sh; printf '%s\\n' "\${${name}[@]}"`], {
    cwd: ROOT,
    encoding: 'utf8',
  })
    .trim()
    .split('\n');
}

const e2eFiles = readdirSync(join(ROOT, 'test/e2e'))
  .filter((f) => f.endsWith('.test.ts'))
  .map((f) => `test/e2e/${f}`);
/** The lines of a file that are code (comments left out). */
const code = (file: string) =>
  readFileSync(join(ROOT, file), 'utf8')
    .split('\n')
    .filter((l) => !/^\s*(\/\/|\*|\/\*)/.test(l));

describe('the test sets of scripts/lib.sh', () => {
  const shipped = set('CSSCTL_SHIPPED_E2E');
  const checkout = set('CSSCTL_CHECKOUT_E2E');

  it('name files that exist', () => {
    expect(shipped.length).toBeGreaterThan(10);
    expect(checkout.length).toBeGreaterThan(3);
    for (const f of [...shipped, ...checkout]) expect(existsSync(join(ROOT, f)), f).toBe(true);
  });

  it('every file with tests skipped against any other cssctl (CSSCTL_TEST_BIN) runs with the checkout', () => {
    const skipsAgainstAnother = e2eFiles.filter((f) =>
      code(f).some((l) => l.includes('process.env.CSSCTL_TEST_BIN') && !l.includes('.test(')),
    );
    // package.test.ts packs the checkout; code-cache.test.ts runs its launcher; the Action's are built from it.
    expect(skipsAgainstAnother).toEqual(
      expect.arrayContaining(['test/e2e/package.test.ts', 'test/e2e/code-cache.test.ts']),
    );
    expect(skipsAgainstAnother.filter((f) => !checkout.includes(f))).toEqual([]);
  });

  it('every file with tests only a Node-loaded cssctl runs is run against the package', () => {
    // `!/\.[cm]?js$/.test(BIN)`: the single executable; its tests skip there and run on the package's Nodes.
    const nodeOnly = e2eFiles.filter(
      (f) =>
        f !== 'test/e2e/exe.test.ts' &&
        code(f).some((l) => l.includes('.test(BIN)') || l.includes('.test(CLI')),
    );
    expect(nodeOnly).toEqual(expect.arrayContaining(['test/e2e/jq.test.ts', 'test/e2e/mcp.test.ts']));
    expect(nodeOnly.filter((f) => !shipped.includes(f))).toEqual([]);
  });
});

describe('scripts/test, with vitest replaced by a stub', () => {
  let dir: string;
  let repo: string;
  let log: string;
  beforeAll(() => {
    dir = mkdtempSync(join(tmpdir(), 'cssctl-test-script-'));
    repo = join(dir, 'repo');
    mkdirSync(join(repo, 'scripts'), { recursive: true });
    for (const f of ['test', 'summary.mjs']) copyFileSync(join(ROOT, 'scripts', f), join(repo, 'scripts', f));
    // The real lib.sh's lists, with set-up that does nothing and a keyring that only says it was used.
    writeFileSync(
      join(repo, 'scripts/lib.sh'),
      `source ${JSON.stringify(join(ROOT, 'scripts/lib.sh'))}
ensure_packages() { :; }
ensure_node() { :; }
ensure_deps() { :; }
ensure_build() { echo "build" >> "$LOG"; }
with_keyring() { echo "keyring" >> "$LOG"; "$@"; }
`,
    );
    // npx vitest run …: logs its arguments, writes a report of 2 passed (1 failed where FAIL names its shard).
    const bin = join(dir, 'bin');
    mkdirSync(bin);
    writeFileSync(
      join(bin, 'npx'),
      `#!/bin/sh
echo "vitest $*" >> "$LOG"
echo ran
out=""; shard=""
for a in "$@"; do
  case "$a" in --outputFile.json=*) out="\${a#--outputFile.json=}" ;; --shard=*) shard="\${a#--shard=}" ;; esac
done
failed=0; [ -n "$FAIL" ] && [ "$FAIL" = "$shard" ] && failed=1
printf '{"numPassedTests":2,"numFailedTests":%s,"numPendingTests":0,"numTodoTests":0,"testResults":[]}' "$failed" > "$out"
printf '[]' > "$CSSCTL_UNHANDLED_FILE"
exit $failed
`,
    );
    chmodSync(join(bin, 'npx'), 0o755);
  });
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  async function scriptsTest(
    env: Record<string, string>,
    args: string[] = [],
  ): Promise<{ code: number; out: string; calls: string[] }> {
    log = join(dir, `log-${Math.random().toString(36).slice(2)}`);
    writeFileSync(log, '');
    const base = {
      PATH: `${join(dir, 'bin')}:${process.env.PATH}`,
      LOG: log,
      HOME: dir,
      DBUS_SESSION_BUS_ADDRESS: '',
    };
    let code = 0;
    let out: string;
    try {
      out = (
        await promisify(execFile)('bash', [join(repo, 'scripts/test'), ...args], { env: { ...base, ...env } })
      ).stdout;
    } catch (err) {
      const e = err as { code: number; stdout: string };
      code = e.code;
      out = e.stdout;
    }
    return { code, out, calls: readFileSync(log, 'utf8').trim().split('\n') };
  }

  const vitestCalls = (calls: string[]) => calls.filter((c) => c.startsWith('vitest '));

  it('by default: every test (no file named), built first, in a keyring; its own closing line', async () => {
    const r = await scriptsTest({});
    expect(r.code).toBe(0);
    expect(r.calls[0]).toBe('build');
    expect(r.calls).toContain('keyring');
    const [call] = vitestCalls(r.calls);
    expect(call).toMatch(
      /^vitest vitest run .*--outputFile\.json=\.tmp\/vitest\.json .*--reporter=\.\/scripts\/vitest-unhandled\.mjs$/,
    );
    expect(r.out.trim().split('\n').at(-1)).toBe('2 passed, 0 failed');
  });

  it('CSSCTL_TEST_SET=checkout: the unit tests, test/release and the checkout files, then any arguments', async () => {
    const r = await scriptsTest({ CSSCTL_TEST_SET: 'checkout' }, ['--bail=1']);
    const [call] = vitestCalls(r.calls);
    expect(call).toContain(
      `vitest-unhandled.mjs test/unit test/release ${set('CSSCTL_CHECKOUT_E2E').join(' ')} --bail=1`,
    );
    expect(r.code).toBe(0);
  });

  it('CSSCTL_TEST_SHARDS=2: two vitest processes, a shard and a keyring each; the line counts both', async () => {
    const r = await scriptsTest({ CSSCTL_TEST_SHARDS: '2', CSSCTL_TEST_REPORT: '.tmp/x/run.json' }, [
      'test/e2e',
    ]);
    const calls = vitestCalls(r.calls).sort();
    expect(calls).toHaveLength(2);
    expect(calls[0]).toMatch(
      /--outputFile\.json=\.tmp\/x\/run\.shard-1\.json .*--shard=1\/2 --passWithNoTests test\/e2e$/,
    );
    expect(calls[1]).toMatch(
      /--outputFile\.json=\.tmp\/x\/run\.shard-2\.json .*--shard=2\/2 --passWithNoTests test\/e2e$/,
    );
    expect(r.calls.filter((c) => c === 'keyring')).toHaveLength(2);
    // Each shard's lines say which it is.
    expect(r.out).toMatch(/^\[1\/2\] ran$/m);
    expect(r.out).toMatch(/^\[2\/2\] ran$/m);
    expect(r.out.trim().split('\n').at(-1)).toBe('4 passed, 0 failed');
    expect(r.code).toBe(0);
  });

  it('a failing shard fails the run and is counted', async () => {
    const r = await scriptsTest({ CSSCTL_TEST_SHARDS: '2', FAIL: '2/2' });
    expect(r.code).toBe(1);
    expect(r.out.trim().split('\n').at(-1)).toBe('4 passed, 1 failed');
  });

  it('CSSCTL_TEST_BIN: nothing is built; a set or a shard count it does not know is exit 2', async () => {
    const r = await scriptsTest({ CSSCTL_TEST_BIN: '/usr/bin/true' });
    expect(r.calls).not.toContain('build');
    expect((await scriptsTest({ CSSCTL_TEST_SET: 'some' })).code).toBe(2);
    expect((await scriptsTest({ CSSCTL_TEST_SHARDS: 'two' })).code).toBe(2);
  });
});
