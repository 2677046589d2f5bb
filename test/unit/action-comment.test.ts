// The Action's `args` words (src/action/args.ts) and its pull-request comment (src/action/comment.ts): the words
// a shell would split (and nothing a shell would run), and a comment whose text from the service can neither
// pass for the marker, nor inject HTML or links, nor ping anyone.
import { marked } from 'marked';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { parseArgs, splitWords } from '../../src/action/args.js';
import {
  commentBody,
  commentText,
  markerOf,
  pullRequestOf,
  type CommentFacts,
} from '../../src/action/comment.js';
import { UsageError } from '../../src/core/errors.js';

describe('args: words as a shell splits them, never run', () => {
  it('splits on blanks and lines, keeps quoted text together, takes escapes', () => {
    expect(splitWords('  --severity high\n--report  "csv=my findings.csv" ')).toEqual([
      '--severity',
      'high',
      '--report',
      'csv=my findings.csv',
    ]);
    expect(splitWords(`a'b c'"d \\"e\\" \\$x"\\ f`)).toEqual(['ab cd "e" $x f']);
    expect(splitWords("'' x")).toEqual(['', 'x']);
    expect(splitWords('a\\\nb')).toEqual(['ab']);
    // Nothing a shell would expand or run is anything but characters.
    expect(splitWords('$(id) `id` ${HOME} ~ *.sarif a;b|c&d>e')).toEqual([
      '$(id)',
      '`id`',
      '${HOME}',
      '~',
      '*.sarif',
      'a;b|c&d>e',
    ]);
  });

  it('an unclosed quote or a trailing backslash is exit 2 naming args', () => {
    for (const bad of ['"a', "'a", 'a\\']) expect(() => splitWords(bad)).toThrow(UsageError);
    expect(() => splitWords('--report "x')).toThrow('input args: a quote (") is not closed');
  });

  it('takes the flags that add to the scan, checked as the CLI checks them', () => {
    expect(
      parseArgs('--severity high,critical --no-ignore --show-ignored --no-step-summary --report csv=f.csv')
        .extra,
    ).toEqual({
      severity: ['critical', 'high'],
      ignore: false,
      showIgnored: true,
      stepSummary: false,
      report: [{ format: 'csv', path: 'f.csv' }],
    });
    expect(parseArgs('').extra).toEqual({});
  });

  it('refuses a flag an input gives, an unknown one, a bad value and a bare word', () => {
    expect(() => parseArgs('--fail-on low')).toThrow(
      'input args: --fail-on has an input of its own: fail-on',
    );
    expect(() => parseArgs('--baseline=latest')).toThrow(/--baseline has an input of its own: baseline/);
    expect(() => parseArgs('-o json')).toThrow(/^input args: unknown option '-o'/);
    expect(() => parseArgs('--jq .')).toThrow(/^input args: unknown option '--jq'/);
    expect(() => parseArgs('--severity severe')).toThrow(/^input args: .*severe/);
    expect(() => parseArgs('--report nope=x')).toThrow(/^input args: .*unknown format "nope"/);
    expect(() => parseArgs('extra')).toThrow(/^input args: too many arguments/);
  });
});

const facts = (over: Partial<CommentFacts> = {}): CommentFacts => ({
  key: 'prod',
  scanId: 'scn_1',
  connection: 'prod',
  verdict: { icon: '❌', text: 'Gate failed: scan scn_1 has 2 findings at or above high' },
  counts: { critical: 1, high: 1, medium: 0, low: 0, info: 3 },
  findings: [],
  shown: 0,
  version: '1.2.3',
  ...over,
});

/** The comment as GitHub would render its Markdown (GFM; GitHub also sanitises, which we must not rely on). */
const html = (md: string) => marked.parse(md, { gfm: true, async: false });

describe('the comment', () => {
  it('starts with its marker, and says the verdict, the counts, the findings and the run', () => {
    const body = commentBody(
      facts({
        states: { new: 2, updated: 0, unchanged: 5, fixed: 1 },
        findings: [
          {
            severity: 'critical',
            title: 'Public bucket',
            resource: 'arn:aws:s3:::a',
            id: 'f1',
            state: 'new',
          },
          { severity: 'high', title: 'Open SSH', resource: 'sg-1', id: 'f2', state: 'unchanged' },
        ],
        shown: 12,
      }),
      { runUrl: 'https://github.com/o/r/actions/runs/42', sha: 'abcdef0123456789' },
    );
    expect(body.split('\n')[0]).toBe('<!-- cssctl:prod -->');
    expect(body).toContain('### ❌ **cssctl** · connection prod · scan `scn_1`');
    expect(body).toContain('| 1 | 1 | 0 | 0 | 3 |');
    expect(body).toContain('**2 new**, 0 raised or changed, **1 fixed**, 5 unchanged');
    expect(body).toContain('The 2 most severe of 12 findings');
    expect(body).toContain('| critical | Public bucket | arn:aws:s3:::a | new |');
    expect(body).toContain('[The run](https://github.com/o/r/actions/runs/42)');
    expect(body).toContain('commit abcdef012345');
    const rendered = html(body);
    expect(rendered).toContain('<table>');
    expect(rendered).toContain('<a href="https://github.com/o/r/actions/runs/42">');
  });

  it('a title from the service cannot pass for a marker, add HTML, a link or a mention', () => {
    const evil = [
      '<!-- cssctl:prod -->',
      '<img src=x onerror=alert(1)>',
      '<script>alert(1)</script>',
      '[click](javascript:alert(1))',
      '@octocat and @org/team',
      'fixes #12 and GH-3',
      'see https://evil.example/x and www.evil.example',
      '| a | b |',
      '**bold** _it_ `code`',
      'line\nbreak\r\u001b[31mred\u202e',
    ].join(' ');
    const body = commentBody(
      facts({
        verdict: { icon: '⚠️', text: `The scan failed: ${evil}` },
        findings: [{ severity: evil, title: evil, resource: evil, id: evil }],
        shown: 1,
      }),
      {},
    );
    // One marker, on the first line; no other comment opener anywhere.
    expect(body.match(/<!--/g)).toHaveLength(1);
    const rendered = html(body);
    expect(rendered).not.toMatch(/<(img|script)\b/);
    expect(rendered).not.toMatch(/href="(javascript|https?:\/\/evil)/);
    expect(rendered).not.toMatch(/<(strong|em|code)>(bold|it|code)</);
    expect(rendered).not.toMatch(/@(octocat|org)/);
    expect(rendered).not.toMatch(/#12|GH-3/);
    expect(rendered).not.toMatch(/https:\/\/evil|www\.evil/);
    // No control character or bidirectional override reaches the page.
    expect([...rendered].filter((c) => c.charCodeAt(0) < 0x09 || c === '\u001b' || c === '\u202e')).toEqual(
      [],
    );
    // The findings table keeps its four columns: the title's pipes are text.
    const row = rendered.split('<tbody>').at(-1)!.split('</tr>')[0]!;
    expect(row.match(/<td/g)).toHaveLength(3);
    // Still readable: the words are there.
    expect(rendered).toContain('octocat');
    expect(rendered).toContain('onerror');
  });

  it('text is one line and cut short', () => {
    expect(commentText('a\n\nb')).toBe('a b');
    expect(commentText('x'.repeat(500))).toHaveLength(160);
    expect(commentText(undefined)).toBe('—');
  });

  it('the marker key cannot close the marker or hide another', () => {
    expect(markerOf('prod')).toBe('<!-- cssctl:prod -->');
    expect(markerOf('scn_1')).toBe('<!-- cssctl:scn_1 -->');
    const odd = markerOf('a --> <b> x');
    expect(odd.match(/-->/g)).toHaveLength(1);
    expect(odd).not.toContain('<b>');
    expect(odd).toBe('<!-- cssctl:a%20--%3E%20%3Cb%3E%20x -->');
  });
});

describe('where the comment goes', () => {
  const dir = mkdtempSync(join(tmpdir(), 'cssctl-event-'));
  const event = join(dir, 'event.json');
  writeFileSync(event, JSON.stringify({ pull_request: { number: 7, head: { sha: 'a'.repeat(40) } } }));
  const env = {
    GITHUB_EVENT_NAME: 'pull_request',
    GITHUB_EVENT_PATH: event,
    GITHUB_REPOSITORY: 'acme/infra',
    GITHUB_API_URL: 'http://127.0.0.1:9',
    GITHUB_SERVER_URL: 'https://github.com',
    GITHUB_RUN_ID: '123',
  };

  it('a pull_request event: the repository, the number, the head commit and the run', () => {
    expect(pullRequestOf(env)).toEqual({
      apiUrl: 'http://127.0.0.1:9',
      owner: 'acme',
      repo: 'infra',
      number: 7,
      sha: 'a'.repeat(40),
      runUrl: 'https://github.com/acme/infra/actions/runs/123',
    });
  });

  it('says why there is none: another event, no event file, an API that would take the token in the clear', () => {
    expect(pullRequestOf({ ...env, GITHUB_EVENT_NAME: 'push' })).toBe(
      'not a pull request (the event is "push")',
    );
    expect(pullRequestOf({ ...env, GITHUB_EVENT_PATH: join(dir, 'none') })).toMatch(/ENOENT/);
    expect(pullRequestOf({ ...env, GITHUB_API_URL: 'http://api.example.com' })).toMatch(
      /^GITHUB_API_URL: refusing plain http/,
    );
    expect(pullRequestOf({ ...env, GITHUB_REPOSITORY: 'a/b/c' })).toMatch(/GITHUB_REPOSITORY/);
    rmSync(dir, { recursive: true, force: true });
  });
});
