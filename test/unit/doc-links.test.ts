// Every relative link of README.md and docs/*.md leads somewhere: an existing file, and, with a #fragment, a
// heading of that page (anchors as GitHub makes them). The README stays a front door: at most 200 lines, one
// line per topic, and an install section that only gives what works.
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { anchors, links, parseMarkdown, slug } from '../../src/help/markdown.js';

const ROOT = fileURLToPath(new URL('../../', import.meta.url));
const read = (page: string) => readFileSync(join(ROOT, page), 'utf8');
const PAGES = [
  'README.md',
  ...readdirSync(join(ROOT, 'docs'))
    .filter((f) => f.endsWith('.md'))
    .map((f) => `docs/${f}`),
];

/**
 * Pages other branches are writing at the same time (docs/install.md: issue 29): a link to one may point at
 * nothing until that branch is merged. Once the page exists it is checked like any other.
 */
const PENDING = new Set(['docs/install.md']);

describe('links between the pages', () => {
  it.each(PAGES)('%s: every relative link resolves, anchors included', (page) => {
    const broken: string[] = [];
    for (const { href, text } of links(parseMarkdown(read(page)))) {
      if (/^[a-z][a-z+.-]*:/i.test(href)) continue; // https:, mailto:
      const [path, fragment] = href.split('#') as [string, string | undefined];
      const target = path === '' ? join(ROOT, page) : resolve(dirname(join(ROOT, page)), decodeURI(path));
      const name = relative(ROOT, target);
      if (name.startsWith('..')) {
        broken.push(`${text} → ${href}: outside the repository`);
        continue;
      }
      if (!existsSync(target)) {
        if (!PENDING.has(name)) broken.push(`${text} → ${href}: no such file`);
        continue;
      }
      if (fragment === undefined) continue;
      if (!statSync(target).isFile() || !target.endsWith('.md')) {
        broken.push(`${text} → ${href}: an anchor in a file that is not a Markdown page`);
        continue;
      }
      if (!anchors(parseMarkdown(readFileSync(target, 'utf8'))).has(fragment))
        broken.push(`${text} → ${href}: no heading with that anchor in ${name}`);
    }
    expect(broken).toEqual([]);
  });

  it('the check can fail: a missing page, a missing anchor', () => {
    const blocks = parseMarkdown('# A title\n\n## Usage: `--jq`\n\nSee [b](#usage---jq) and [c](#nope).\n');
    expect([...anchors(blocks)]).toEqual(['a-title', 'usage---jq']);
    expect(links(blocks).map((l) => l.href)).toEqual(['#usage---jq', '#nope']);
  });

  it('anchors are made as GitHub makes them', () => {
    expect(slug('Filtering JSON with `--jq`')).toBe('filtering-json-with---jq');
    expect(slug('At a glance: `findings summary`')).toBe('at-a-glance-findings-summary');
    expect(slug('`cssctl scans wait`')).toBe('cssctl-scans-wait');
    expect(slug('From a clone: `scripts/try` and `scripts/test`')).toBe(
      'from-a-clone-scriptstry-and-scriptstest',
    );
    expect(slug('Reports: what survives each format, and memory')).toBe(
      'reports-what-survives-each-format-and-memory',
    );
    const seen = new Map<string, number>();
    expect(['Files', 'Files', 'Files'].map((h) => slug(h, seen))).toEqual(['files', 'files-1', 'files-2']);
  });
});

describe('the pages speak to users', () => {
  /** What a page must not show a user: a file they do not have, or a note meant for the developers. */
  function internal(text: string): string[] {
    const found: string[] = [];
    for (const m of text.matchAll(/[^\n]*\b(cli-contract|service-api)(\.md)?\b[^\n]*/g))
      found.push(`cites ${m[1]}.md: ${m[0].trim()}`);
    for (const m of text.matchAll(/[^\n]*\*\*\(?assumed\b[^\n]*/gi))
      found.push(`an internal note: ${m[0].trim()}`);
    return found;
  }

  /**
   * Installing cssctl by a name on a registry: nobody owns `cssctl` there yet, so whoever registers it would have
   * their code installed (a tarball or folder path, `./…`, is a way that works today).
   */
  function installsByName(text: string): string[] {
    const re =
      /\b(?:npm (?:install|i|add)(?: +-{1,2}[\w=-]+)* +|npx +(?:-{1,2}[\w=-]+ +)*|pnpm (?:add|dlx)(?: +-{1,2}[\w=-]+)* +|yarn (?:global )?add +|brew install +|scoop install +)(?:@[\w-]+\/)?cssctl(?:@[\w.^~-]+)?(?=[\s`'"]|$)/gm;
    return [...text.matchAll(re)].map((m) => m[0]);
  }

  /** "the README's X recipe" must name a recipe the README has. */
  function missingRecipes(text: string, readme: string): string[] {
    return [...text.matchAll(/README's ([\w ]+?) recipe/g)]
      .filter((m) => !readme.toLowerCase().includes(m[1]!.toLowerCase()))
      .map((m) => m[0]);
  }

  it.each(PAGES)('%s: cites no internal file, shows no internal note, installs by no name', (page) => {
    const text = read(page);
    expect(internal(text)).toEqual([]);
    expect(installsByName(text)).toEqual([]);
    expect(missingRecipes(text, read('README.md'))).toEqual([]);
  });

  it('the checks can fail', () => {
    expect(internal('See cli-contract.md §14.\nAnd `../shared/service-api.md` too.')).toHaveLength(2);
    expect(internal('It reads `GET /x` **(assumed**: no endpoint shown).')).toHaveLength(1);
    expect(internal('A contract, an API, assumed nothing.')).toEqual([]);
    for (const line of [
      'npm install --global cssctl',
      'npm i -g cssctl@1.2.0',
      'npx cssctl scans list',
      'npx -y cssctl',
      'brew install cssctl',
      'pnpm add -g cssctl',
      'yarn global add cssctl',
    ])
      expect(installsByName(`- run: ${line}\n`), line).toHaveLength(1);
    for (const line of [
      'npm install --global ./vendor/cssctl-0.1.0.tgz',
      'npm install -g --allow-scripts=keytar ./cssctl-0.1.0.tgz',
      'npm install cssctl-helper',
    ])
      expect(installsByName(`${line}\n`), line).toEqual([]);
    expect(missingRecipes("as in the README's Jenkins recipe", '## Install')).toHaveLength(1);
  });
});

describe('the README', () => {
  const readme = read('README.md');
  const pkg = JSON.parse(read('package.json')) as { name: string; version: string };

  it('is a front door: at most 200 lines', () => {
    expect(readme.split('\n').length).toBeLessThanOrEqual(200);
  });

  it('links one page per topic', () => {
    const targets = links(parseMarkdown(readme)).map((l) => l.href.split('#')[0]);
    for (const page of [
      'docs/install.md',
      'docs/usage.md',
      'docs/commands.md',
      'docs/ci.md',
      'docs/baselines.md',
      'docs/ignore-file.md',
      'docs/reports.md',
      'docs/formats.md',
      'docs/webhooks.md',
      'docs/mcp.md',
      'docs/config.md',
      'docs/environment.md',
      'docs/exit-codes.md',
      'docs/completion.md',
    ])
      expect(targets, page).toContain(page);
  });

  it('installs only in ways that work today: from a clone, the tarball npm pack makes', () => {
    const install = readme.slice(readme.indexOf('## Install'), readme.indexOf('## Try it from a clone'));
    expect(install).toContain('not on a package registry yet');
    expect(install).not.toMatch(/npm install (-g|--global) cssctl\b|RELEASE_URL|curl /);
    expect(install).toMatch(/^npm ci && npm pack\b/m);
    expect(install).toContain(`npm install -g --allow-scripts=keytar ./${pkg.name}-${pkg.version}.tgz`);
    expect(install).toContain('npm run build:exe');
    // The Node that scripts/try brings, where scripts/lib.sh puts it.
    expect(read('scripts/lib.sh')).toContain('${CSSCTL_NODE_DIR:-$HOME/.cache/cssctl-node}');
    expect(install).toContain('export PATH="$HOME/.cache/cssctl-node/node_modules/.bin:$PATH"');
  });

  it('gives the two commands from a clone, with the line scripts/test ends with', () => {
    expect(readme).toContain('bash scripts/try');
    expect(readme).toMatch(/bash scripts\/test +# every test.*ends with "N passed, N failed"/);
    // .ci/run runs that same command, and scripts/summary.mjs prints that line.
    expect(read('.ci/run')).toMatch(/^bash scripts\/test\b/m);
    expect(read('scripts/summary.mjs')).toContain('`${report.numPassedTests ?? 0} passed, ${failed} failed');
  });
});
