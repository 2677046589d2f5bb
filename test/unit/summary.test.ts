// scripts/summary.mjs, the closing line of scripts/test (issue 21): unhandled errors and test files that
// could not run are failures, named, never a silent "0 failed".
import { execFile } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { afterAll, describe, expect, it } from 'vitest';

const SCRIPT = fileURLToPath(new URL('../../scripts/summary.mjs', import.meta.url));
const dir = mkdtempSync(join(tmpdir(), 'cssctl-summary-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

let n = 0;
async function summary(report: unknown, unhandled?: unknown): Promise<{ code: number; lines: string[] }> {
  const r = join(dir, `r${++n}.json`);
  const u = join(dir, `u${n}.json`);
  writeFileSync(r, JSON.stringify(report));
  if (unhandled !== undefined) writeFileSync(u, JSON.stringify(unhandled));
  try {
    const { stdout } = await promisify(execFile)(process.execPath, [SCRIPT, r, u], { cwd: dir });
    return { code: 0, lines: stdout.trim().split('\n') };
  } catch (err) {
    const e = err as { code: number; stdout: string };
    return { code: e.code, lines: e.stdout.trim().split('\n') };
  }
}

const passing = {
  numPassedTests: 3,
  numFailedTests: 0,
  numPendingTests: 1,
  numTodoTests: 0,
  testResults: [{ name: join(dir, 'a.test.ts'), status: 'passed', message: '', assertionResults: [] }],
};

describe('scripts/summary.mjs', () => {
  it('a clean run: the counts, exit 0', async () => {
    expect(await summary(passing, [])).toEqual({ code: 0, lines: ['3 passed, 0 failed, 1 skipped'] });
  });

  it('an unhandled error is printed and counted as a failure', async () => {
    const res = await summary(passing, [
      {
        name: 'Error',
        message: 'write EPIPE',
        stack: 'Error: write EPIPE\n    at afterWriteDispatched (x.js:1:1)',
      },
    ]);
    expect(res.code).toBe(1);
    expect(res.lines[0]).toBe('unhandled error: Error: write EPIPE');
    expect(res.lines[1]).toMatch(/at afterWriteDispatched/);
    expect(res.lines.at(-1)).toBe('3 passed, 1 failed, 1 skipped (1 unhandled error)');
  });

  it('a test file that failed without a failing test (it could not load) is named and counted', async () => {
    const res = await summary(
      {
        ...passing,
        testResults: [
          {
            name: join(dir, 'b.test.ts'),
            status: 'failed',
            message: 'Cannot find module x',
            assertionResults: [],
          },
        ],
      },
      [],
    );
    expect(res).toEqual({
      code: 1,
      lines: ['test file failed: b.test.ts: Cannot find module x', '3 passed, 1 failed, 1 skipped'],
    });
  });

  it('skipped tests are named with why and how to run them, by file and reason (issue 28 #22)', async () => {
    const test = (fullName: string, status: string, skip?: string) => ({
      fullName,
      title: fullName,
      status,
      meta: skip ? { skip } : {},
    });
    const res = await summary(
      {
        ...passing,
        numPendingTests: 4,
        testResults: [
          {
            name: join(dir, 'exe.test.ts'),
            status: 'passed',
            message: '',
            assertionResults: [
              test('runs with no node', 'skipped', 'they test the executable; to run: npm run build:exe'),
              test('runs an export', 'skipped', 'they test the executable; to run: npm run build:exe'),
              test('passes', 'passed'),
            ],
          },
          {
            name: join(dir, 'b.test.ts'),
            status: 'passed',
            message: '',
            assertionResults: [test('something', 'skipped'), test('later', 'todo')],
          },
        ],
      },
      [],
    );
    expect(res).toEqual({
      code: 0,
      lines: [
        'skipped 2 in exe.test.ts: they test the executable; to run: npm run build:exe',
        '  - runs with no node',
        '  - runs an export',
        'skipped 1 in b.test.ts: no reason given (see the skip in that file)',
        '  - something',
        'skipped 1 in b.test.ts: a todo',
        '  - later',
        '3 passed, 0 failed, 4 skipped',
      ],
    });
  });

  it('no unhandled-error report (the reporter did not run to the end) is a failure', async () => {
    const res = await summary(passing);
    expect(res.code).toBe(1);
    expect(res.lines[0]).toMatch(/unhandled-error report is missing/);
  });

  it('no test report at all is a failure', async () => {
    const res = await promisify(execFile)(process.execPath, [SCRIPT, join(dir, 'none.json')]).catch(
      (e: { code: number; stdout: string }) => e,
    );
    expect((res as { code: number }).code).toBe(1);
    expect(res.stdout).toMatch(/0 passed, 1 failed/);
  });
});
