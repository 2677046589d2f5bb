// A reader that leaves early is exit 0 whichever stream it held (cli-contract.md §15): `cssctl findings list
// 2>&1 | head -2` under pipefail, through real pipes made by bash, hints included.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CLI_SHELL, World, runCli } from './harness.js';

let w: World;

beforeAll(async () => {
  w = await World.start();
  await w.login();
}, 30_000);

afterAll(async () => {
  await w?.close();
});

/** Runs `<cssctl> <args> <redirections> | <reader>` in bash; prints the status of cssctl, then of the pipe. */
function piped(args: string, redirect: string, reader: string) {
  const script = `set -o pipefail; ${CLI_SHELL} ${args} ${redirect} | ${reader} >/dev/null; echo "$? \${PIPESTATUS[0]}" >&3`;
  return runCli(['-c', `exec 3>&1; (${script}) 2>/dev/null`], w.env, { command: 'bash' });
}

describe('a reader that leaves early', () => {
  it('findings list 2>&1 | head -2: exit 0, though the hint went to the closed pipe', async () => {
    for (let i = 0; i < 4; i++) {
      const r = await piped('findings list', '2>&1', 'head -2');
      expect(r.stdout.trim(), r.stderr).toBe('0 0');
    }
  });

  it('only stderr on the pipe, which closes at once (2>&1 >/dev/null | head -0): exit 0', async () => {
    for (let i = 0; i < 4; i++) {
      const r = await piped('findings list --connection prod', '2>&1 >/dev/null', 'head -0');
      expect(r.stdout.trim(), r.stderr).toBe('0 0');
    }
  });

  it('an error is still an error when the reader held stderr: its exit code stays', async () => {
    const r = await piped('scans get scn_does_not_exist', '2>&1', 'head -0');
    expect(r.stdout.trim()).toBe('5 5');
  });
});
