// The ignore file's resource globs (cli-contract.md §8: `*` any run, `?` one character): anchored at both ends,
// `?` exactly one character, and matched without backtracking, however many stars a glob has.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { IgnoreRules, globMatcher } from '../../src/report/ignore/stage.js';
import { parseIgnoreText } from '../../src/report/ignore/file.js';
import { finding } from '../helpers/report.js';

/** The reference: glob matching by its definition, over code points (dynamic programming, no shortcut). */
function reference(glob: string, text: string): boolean {
  const g = Array.from(glob);
  const t = Array.from(text);
  // m[j]: the first i characters of the glob match the first j of the text.
  let m = t.map(() => false).concat(false);
  m[0] = true;
  for (const c of g) {
    const next = m.map(() => false);
    if (c === '*') {
      let any = false;
      for (let j = 0; j <= t.length; j++) next[j] = any ||= m[j]!;
    } else for (let j = 1; j <= t.length; j++) next[j] = m[j - 1]! && (c === '?' || c === t[j - 1]);
    m = next;
  }
  return m[t.length]!;
}

describe('ignore-file resource globs', () => {
  it('a glob is anchored at both ends', () => {
    expect(globMatcher('arn:aws:s3:::acme')('arn:aws:s3:::acme')).toBe(true);
    expect(globMatcher('arn:aws:s3:::acme')('arn:aws:s3:::acme-data')).toBe(false);
    expect(globMatcher('arn:aws:s3:::acme')('x-arn:aws:s3:::acme')).toBe(false);
    expect(globMatcher('*acme')('arn:aws:s3:::acme-data')).toBe(false);
    expect(globMatcher('acme*')('my-acme-data')).toBe(false);
    expect(globMatcher('*acme*')('my-acme-data')).toBe(true);
    expect(globMatcher('')('')).toBe(true);
    expect(globMatcher('')('x')).toBe(false);
  });

  it('? is exactly one character, never none, never two; a character is a code point', () => {
    expect(globMatcher('a?c')('abc')).toBe(true);
    expect(globMatcher('a?c')('ac')).toBe(false);
    expect(globMatcher('a?c')('abbc')).toBe(false);
    expect(globMatcher('bucket-?')('bucket-')).toBe(false);
    expect(globMatcher('bucket-?')('bucket-\u{1F600}')).toBe(true);
    expect(globMatcher('bucket-??')('bucket-\u{1F600}')).toBe(false);
    expect(globMatcher('*?')('')).toBe(false);
    expect(globMatcher('?*?')('a')).toBe(false);
    // Regular-expression characters are literal.
    expect(globMatcher('a.c')('abc')).toBe(false);
    expect(globMatcher('(a|b)+[x]$')('(a|b)+[x]$')).toBe(true);
    expect(globMatcher('a\\*')('a\\xyz')).toBe(true);
  });

  it('agrees with the reference matcher on any glob and text', () => {
    const alphabet = fc.constantFrom('a', 'b', '-', '*', '?', '.', '\u{1F600}', '\n');
    const str = (max: number) => fc.array(alphabet, { maxLength: max }).map((a) => a.join(''));
    fc.assert(
      fc.property(str(8), str(12), (glob, text) => {
        expect(globMatcher(glob)(text)).toBe(reference(glob, text));
      }),
      { numRuns: 5000 },
    );
    // Texts made from the glob itself (so that matches are common, not only misses).
    fc.assert(
      fc.property(
        str(8),
        fc.array(fc.constantFrom('', 'a', 'ab-', '\u{1F600}'), { maxLength: 9 }),
        (glob, fill) => {
          let k = 0;
          const text = Array.from(glob)
            .map((c) => (c === '*' ? (fill[k++] ?? '') : c === '?' ? 'b' : c))
            .join('');
          expect(globMatcher(glob)(text)).toBe(true);
          expect(reference(glob, text)).toBe(true);
        },
      ),
      { numRuns: 2000 },
    );
  });

  it('many stars against long dashed names end at once (no backtracking)', () => {
    // As a regular expression ([\s\S]* per star) these took 12 s (×7 for each further star), deaf to signals.
    const rules = new IgnoreRules(
      parseIgnoreText(
        `version: 1\nignore:\n  - rule: r1\n    resource: "arn:aws:s3:::${'*-'.repeat(9)}q"\n    reason: x\n    expires: never\n`,
        '/x/.cssctl-ignore.yaml',
        '.cssctl-ignore.yaml',
      ).file,
      Date.parse('2026-12-01T00:00:00Z'),
    );
    const long = `arn:aws:s3:::${Array.from({ length: 40 }, (_, i) => `p${i}`).join('-')}`;
    for (let i = 0; i < 3; i++)
      expect(rules.check(finding({ id: `f${i}`, rule_id: 'r1', resource: long })).info).toBeUndefined();
    expect(rules.check(finding({ id: 'g', rule_id: 'r1', resource: `${long}-q` })).info).toBeDefined();
    // Linear: a glob of 200 stars against a text of 100,000 characters.
    const many = globMatcher(`${'*-'.repeat(200)}x*q`);
    expect(many(`${'-'.repeat(100_000)}q`)).toBe(false);
    expect(many(`${'-'.repeat(100_000)}xq`)).toBe(true);
  }, 5_000);
});
