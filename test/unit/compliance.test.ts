// `cssctl compliance [--fail-under <0-100>]` (cli-contract.md §14) through its run function: GET /compliance, the
// table and json, the gate (exit 10), the step summary, a 404 (exit 5) and answers of the wrong shape (exit 1).
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { execFileSync } from 'node:child_process';
import { InvalidArgumentError } from 'commander';
import { describe, expect, it } from 'vitest';
import { readCompliance } from '../../src/api/compliance.js';
import { parseFailUnder } from '../../src/commands/compliance/index.js';
import { compliance, readComplianceScore } from '../../src/commands/compliance/compliance.js';
import { renderComplianceSummary } from '../../src/report/compliance.js';
import { json, verbWorld } from '../helpers/verb.js';

const answer = { score: 64.5, threshold: 70, computed_at: '2026-01-02T03:04:05Z', critical_count: 2 };

const tmp = () => mkdtempSync(join(tmpdir(), 'cssctl-compliance-'));

describe('cssctl compliance', () => {
  it('table: one field a line — score, threshold, whether below, when — then the service’s other fields', async () => {
    const w = verbWorld([json(answer)], { output: 'table' });
    expect(await w.run(compliance, {})).toBe(0);
    expect(w.stdout.text.split('\n')).toEqual([
      'SCORE            64.5',
      'THRESHOLD        70',
      'BELOW THRESHOLD  yes',
      // Local time, as every table shows one (test/unit/record-times.test.ts pins the zone).
      expect.stringMatching(/^COMPUTED {9}2026-01-0[12] \d\d:\d\d$/),
      'CRITICAL COUNT   2',
      '',
    ]);
    expect(w.requests()).toEqual(['GET /compliance']);
  });

  it('json: the service’s object as it is', async () => {
    const odd = { ...answer, threshold: 60, extra: { nested: [1] }, below_threshold: 'theirs' };
    const w = verbWorld([json(odd)], { output: 'json' });
    expect(await w.run(compliance, {})).toBe(0);
    expect(JSON.parse(w.stdout.text)).toEqual(odd);
  });

  it('without a threshold the table says nothing about being below it', async () => {
    const w = verbWorld([json({ score: 90 })], { output: 'table' });
    expect(await w.run(compliance, {})).toBe(0);
    expect(w.stdout.text).toBe('SCORE  90\n');
  });

  it('a service field that reads like one of the lines says it is the service’s', async () => {
    const w = verbWorld([json({ score: 90, threshold: 80, below_threshold: 'theirs' })], { output: 'table' });
    expect(await w.run(compliance, {})).toBe(0);
    expect(w.stdout.text).toMatch(/^BELOW THRESHOLD {12}no$/m);
    expect(w.stdout.text).toMatch(/^BELOW THRESHOLD \(SERVICE\) {2}theirs$/m);
  });

  it('--fail-under: exit 10 with a line naming score and limit, after the output', async () => {
    const w = verbWorld([json(answer)], { output: 'json' });
    expect(await w.run(compliance, { failUnder: 80 })).toBe(10);
    expect(JSON.parse(w.stdout.text)).toEqual(answer);
    expect(w.stderr.text).toContain('compliance score 64.5 is below --fail-under 80');
  });

  it('--fail-under: a score equal to the limit, or above it, passes', async () => {
    for (const failUnder of [64.5, 50, 0]) {
      const w = verbWorld([json(answer)], { output: 'table' });
      expect(await w.run(compliance, { failUnder })).toBe(0);
      expect(w.stdout.text).toContain(`FAIL UNDER       ${failUnder}: passed`);
      expect(w.stderr.text).toContain(`compliance score 64.5 is at or above --fail-under ${failUnder}`);
    }
  });

  it('the logic is a function that returns the data (for other front ends)', async () => {
    const w = verbWorld([json(answer)]);
    const result = await readComplianceScore(w.ctx, { failUnder: 80 });
    expect(result).toEqual({
      compliance: answer,
      belowThreshold: true,
      gate: { failUnder: 80, failed: true },
    });
  });

  it('a 404 is exit 5: this service does not publish a compliance score', async () => {
    const w = verbWorld([json({ detail: 'Not Found' }, 404)], { output: 'table' });
    expect(await w.run(compliance, { failUnder: 80 })).toBe(5);
    expect(w.stderr.text).toBe('error: this service does not publish a compliance score\n');
    expect(w.stdout.text).toBe('');
  });

  it.each([
    [[1, 2], /the service's compliance answer is not an object \(\[1,2\]\)/],
    [{ threshold: 70 }, /the service's compliance answer has no score/],
    [{ score: null }, /has no score/],
    [{ score: '64' }, /has a score that is not a number: "64"/],
    [{ score: 140 }, /has a score of 140, outside 0–100/],
    [{ score: -1 }, /has a score of -1, outside 0–100/],
    [{ score: 50, threshold: 'high' }, /has a threshold that is not a number: "high"/],
    [{ score: 50, threshold: 101 }, /has a threshold of 101, outside 0–100/],
  ])('a wrong-shaped answer %j is exit 1 with a clear line, nothing printed', async (body, message) => {
    const w = verbWorld([json(body)], { output: 'table' });
    expect(await w.run(compliance, { failUnder: 10 })).toBe(1);
    expect(w.stderr.text).toMatch(message);
    expect(w.stdout.text).toBe('');
  });

  // JSON reads 1e400 as Infinity, which the line once showed as "not a number: null".
  it.each([
    ['{"score":1e400}', 'score'],
    ['{"score":-1e400}', 'score'],
    ['{"score":50,"threshold":1e999}', 'threshold'],
  ])('%s: one line saying the %s is too large, never "null"', async (body, field) => {
    const w = verbWorld([{ status: 200, headers: { 'content-type': 'application/json' }, body }]);
    expect(await w.run(compliance, {})).toBe(1);
    expect(w.stderr.text).toBe(
      `error: the service's compliance answer has a ${field} too large to be a score (outside 0–100)\n`,
    );
    expect(w.stdout.text).toBe('');
  });

  it('an empty body is not a score', () => {
    expect(() => readCompliance(undefined)).toThrow(/is not an object \(an empty body\)/);
  });
});

describe('--fail-under values (exit 2 before any request)', () => {
  it.each(['0', '80', '100', '72.5', ' 90 '])('%j is a score', (v) => {
    expect(parseFailUnder(v)).toBe(Number(v));
  });
  it.each(['101', '-1', 'abc', '', '1e2', '80%', 'Infinity', '100.5'])('%j is refused', (v) => {
    expect(() => parseFailUnder(v)).toThrow(InvalidArgumentError);
    expect(() => parseFailUnder(v)).toThrow('expected a score from 0 to 100');
  });
});

describe('the step summary', () => {
  it('appends a section when GITHUB_STEP_SUMMARY names a file, keeping what was there', async () => {
    const file = join(tmp(), 'summary.md');
    writeFileSync(file, '# earlier step\n');
    const w = verbWorld([json(answer)], { output: 'table', env: { GITHUB_STEP_SUMMARY: file } });
    expect(await w.run(compliance, { failUnder: 80 })).toBe(10);
    const md = readFileSync(file, 'utf8');
    expect(md.startsWith('# earlier step\n\n### cssctl compliance score\n')).toBe(true);
    expect(md).toContain('| Workspace | acme |');
    expect(md).toContain('| Score | 64\\.5 |');
    expect(md).toContain('| Threshold | 70 — the score is below it |');
    expect(md).toContain('| Gate | ❌ `--fail-under 80` failed: 64\\.5 is below 80 (exit 10) |');
  });

  it('not with --no-step-summary; a FIFO is a warning, never a wait', async () => {
    const dir = tmp();
    const file = join(dir, 'summary.md');
    const off = verbWorld([json(answer)], { env: { GITHUB_STEP_SUMMARY: file } });
    expect(await off.run(compliance, { stepSummary: false })).toBe(0);
    expect(() => readFileSync(file)).toThrow();
    const fifo = join(dir, 'fifo');
    execFileSync('mkfifo', [fifo]);
    const w = verbWorld([json(answer)], { env: { GITHUB_STEP_SUMMARY: fifo } });
    expect(await w.run(compliance, {})).toBe(0);
    expect(w.stderr.text).toMatch(/did not append the step summary to .*fifo .*: it is a FIFO/);
  });

  it('passes, or has no gate, in words; service text never becomes Markdown', () => {
    const ok = renderComplianceSummary(
      { score: 92, threshold: 70 },
      { failUnder: 80, failed: false },
      'acme',
    );
    expect(ok).toContain('| Gate | ✅ `--fail-under 80` passed: 92 is at or above 80 |');
    expect(ok).toContain('| Threshold | 70 |');
    const none = renderComplianceSummary({ score: 92, computed_at: '|x|\n# h' }, undefined, '<b>ws</b>');
    expect(none).toContain('| Gate | none (no `--fail-under`) |');
    expect(none).toContain('| Computed | \\|x\\| \\# h |');
    expect(none).toContain('| Workspace | \\<b\\>ws\\</b\\> |');
  });
});
