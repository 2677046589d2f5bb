// What is generated from the command tree besides dist/help.json and completions/ (src/reference/):
// - by `npm run build` (scripts/build.mjs): dist/man/ — cssctl.1 and one page per command — and the pages of
//   `cssctl help <topic>` for dist/help-topics.cjs; it says when docs/commands.md or package.json `man` no
//   longer match the tree (the build never rewrites a committed file: the tests compare them);
// - by `npm run docs` (`node scripts/gen-docs.mjs --write`, after a build): docs/commands.md and package.json
//   `man`. test/unit/reference.test.ts fails until they match the tree.
import { build } from 'esbuild';
import { Buffer } from 'node:buffer';
import { spawnSync } from 'node:child_process';
import { mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = new URL('..', import.meta.url);
const MAN_DIR = 'dist/man';

/** A module of src/ (TypeScript, with what it imports) bundled in memory and imported. */
async function importSource(entry) {
  const out = await build({
    entryPoints: [fileURLToPath(new URL(entry, root))],
    bundle: true,
    write: false,
    format: 'esm',
    platform: 'node',
    target: 'node22',
    logLevel: 'warning',
  });
  const code = Buffer.from(out.outputFiles[0].contents).toString('base64');
  return import(`data:text/javascript;base64,${code}`);
}

let tools;
const reference = async () => (tools ??= await importSource('src/reference/index.ts'));

const readPage = (page) => readFileSync(new URL(page, root), 'utf8');
const readIfThere = (page) => {
  try {
    return readPage(page);
  } catch {
    return undefined;
  }
};

/** The Markdown of every help topic, by name (inlined into dist/help-topics.cjs). */
export async function helpPages() {
  const { HELP_TOPICS } = await reference();
  return Object.fromEntries(HELP_TOPICS.map((t) => [t.name, readPage(t.page)]));
}

/** The program of the built CLI (dist/cli.cjs, or in `dir`: a build's staging folder), as gen-help.mjs takes it. */
async function builtProgram(dir) {
  const files =
    dir === undefined
      ? undefined
      : { path: (name) => join(dir, name), text: (name) => readFileSync(join(dir, name), 'utf8') };
  const { cli } = (await import('../bin/cssctl.cjs')).loadCli({ cache: false, files });
  return cli.buildProgram({ out() {}, stdout: {}, stderr: {} }, () => undefined, {});
}

/**
 * The pages' date: SOURCE_DATE_EPOCH when set (reproducible builds), else the date of the checkout's last commit
 * (so two builds of one commit make the same pages), else today (UTC).
 */
function manDate() {
  let epoch = Number(process.env.SOURCE_DATE_EPOCH);
  if (!(Number.isFinite(epoch) && epoch > 0)) {
    const r = spawnSync('git', ['log', '-1', '--format=%ct'], { cwd: fileURLToPath(root), encoding: 'utf8' });
    epoch = r.status === 0 ? Number(r.stdout.trim()) : NaN;
  }
  return new Date(Number.isFinite(epoch) && epoch > 0 ? epoch * 1000 : Date.now()).toISOString().slice(0, 10);
}

const manList = (files) => files.map((f) => `${MAN_DIR}/${f}`);

/** Called by scripts/build.mjs once cli.cjs is built in `stage` (the build's folder, moved into dist/ after). */
export async function writeBuildDocs(stage) {
  const ref = await reference();
  const program = await builtProgram(stage);
  const dir = join(stage, 'man');
  rmSync(dir, { recursive: true, force: true });
  mkdirSync(dir, { recursive: true });
  for (const [file, text] of ref.manualPages(program, readPage, manDate()))
    writeFileSync(join(dir, file), text);
  const stale = [];
  if (readIfThere('docs/commands.md') !== ref.commandsMarkdown(program)) stale.push('docs/commands.md');
  const pkg = JSON.parse(readPage('package.json'));
  if (JSON.stringify(pkg.man) !== JSON.stringify(manList(ref.manFiles(program))))
    stale.push('package.json man');
  if (stale.length)
    console.warn(
      `build: ${stale.join(' and ')} out of date with the command tree (npm run docs regenerates it)`,
    );
}

/** `npm run docs`: docs/commands.md and package.json `man` from the built CLI. */
export async function writeDocs() {
  const ref = await reference();
  const program = await builtProgram();
  writeFileSync(new URL('docs/commands.md', root), ref.commandsMarkdown(program));
  console.log('docs/commands.md');
  const text = readPage('package.json');
  const pkg = JSON.parse(text);
  pkg.man = manList(ref.manFiles(program));
  const updated = `${JSON.stringify(pkg, null, 2)}\n`;
  if (updated !== text) {
    writeFileSync(new URL('package.json', root), updated);
    console.log('package.json (man)');
  }
}

if (process.argv[1] === fileURLToPath(import.meta.url) && process.argv.includes('--write')) await writeDocs();
