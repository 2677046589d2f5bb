// scripts/summary.mjs, the closing line of scripts/test (issue 21): unhandled errors and test files that
// could not run are failures, named, never a silent "0 failed"; over several runs (.ci/run, issue 35) the counts
// are summed and only what no run tested is counted as skipped.
import { execFile } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { afterAll, describe, expect, it } from 'vitest';

const SCRIPT = fileURLToPath(new URL('../../scripts/summary.mjs', import.meta.url));
const dir = mkdtempSync(join(tmpdir(), 'cssctl-summary-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

let n = 0;
/** Writes a report (and its unhandled errors beside it, as scripts/test leaves them); returns its path. */
function written(report: unknown, unhandled?: unknown, folder = dir, name = `r${++n}`): string {
  const r = join(folder, `${name}.json`);
  writeFileSync(r, JSON.stringify(report));
  if (unhandled !== undefined)
    writeFileSync(join(folder, `${name}-unhandled.json`), JSON.stringify(unhandled));
  return r;
}

async function summary(report: unknown, unhandled?: unknown): Promise<{ code: number; lines: string[] }> {
  return summarize([written(report, unhandled)]);
}

async function summarize(args: string[]): Promise<{ code: number; lines: string[] }> {
  try {
    const { stdout } = await promisify(execFile)(process.execPath, [SCRIPT, ...args], { cwd: dir });
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

  describe('several runs (.ci/run: the shipped runs and the checkout)', () => {
    const test = (fullName: string, status: string, skip?: string) => ({
      fullName,
      title: fullName,
      status,
      meta: skip ? { skip } : {},
    });
    const run = (passed: number, failed: number, file: string, tests: ReturnType<typeof test>[]) => ({
      numPassedTests: passed,
      numFailedTests: failed,
      numPendingTests: tests.filter((t) => t.status === 'skipped').length,
      numTodoTests: 0,
      testResults: [
        { name: join(dir, file), status: failed ? 'failed' : 'passed', message: '', assertionResults: tests },
      ],
    });
    const why = 'they pack the checkout; to run: bash scripts/test test/e2e/package.test.ts';

    it('sums the counts; a test skipped in one run that ran in another is not skipped', async () => {
      const exe = written(
        run(2, 0, 'package.test.ts', [
          test('packs', 'skipped', why),
          test('runs', 'passed'),
          test('b', 'passed'),
        ]),
        [],
      );
      const checkout = written(run(1, 0, 'package.test.ts', [test('packs', 'passed')]), []);
      expect(await summarize([exe, checkout])).toEqual({
        code: 0,
        lines: ['1 skipped in one run ran in another (not counted as skipped)', '3 passed, 0 failed'],
      });
    });

    it('a test skipped in every run is named once, and counted in each run it was skipped in', async () => {
      const a = written(run(1, 0, 'x.test.ts', [test('never', 'skipped', why), test('ok', 'passed')]), []);
      const b = written(run(0, 0, 'x.test.ts', [test('never', 'skipped', why)]), []);
      const res = await summarize([a, b]);
      expect(res.lines).toEqual([
        `skipped 2 in x.test.ts: ${why}`,
        '  - never',
        '1 passed, 0 failed, 2 skipped',
      ]);
    });

    it('failures and problems of any run count, named by the run', async () => {
      const folder = join(dir, 'runs');
      mkdirSync(folder);
      written(run(5, 0, 'a.test.ts', [test('a', 'passed')]), [], folder, 'exe');
      written(run(3, 1, 'b.test.ts', [test('b', 'failed')]), [], folder, 'node22');
      written(run(2, 0, 'c.test.ts', [test('c', 'passed')]), undefined, folder, 'node26');
      const res = await summarize([folder]);
      expect(res.code).toBe(1);
      expect(res.lines).toEqual([
        '[node26] the unhandled-error report is missing: vitest did not finish',
        '10 passed, 2 failed',
      ]);
    });

    it('a run whose report is missing is a failure', async () => {
      const a = written(run(4, 0, 'a.test.ts', [test('a', 'passed')]), []);
      const res = await summarize([a, join(dir, 'nowhere.json')]);
      expect(res.code).toBe(1);
      expect(res.lines.at(-1)).toBe('4 passed, 1 failed');
    });
  });
});
