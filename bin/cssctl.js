#!/usr/bin/env node
// The executable: checks the runtime, answers `--version` and `… --help` from the text the build took from
// the CLI itself (dist/help.json, see scripts/gen-help.mjs), and otherwise loads the bundled CLI.
const [major, minor] = process.versions.node.split('.').map(Number);
if (major < 22 || (major === 22 && minor < 19)) {
  process.stderr.write(`error: cssctl needs Node.js 22.19 or newer; this is ${process.versions.node}\n`);
  process.exit(1);
}
// cssctl decides colour itself (FORCE_COLOR beats NO_COLOR); without this Node warns when both are set.
if (process.env.FORCE_COLOR !== undefined) delete process.env.NO_COLOR;

if (import.meta.main && !answerEarly(process.argv.slice(2))) await loadCli().cli.run();

/**
 * The CLI (dist/cli.cjs, one CommonJS bundle), compiled by node:vm with the V8 code cache the build took after
 * running a few commands (scripts/code-cache.mjs): V8 then compiles almost nothing, where Node's own compile
 * cache would hold only the bundle's top level and leave every function to be compiled when first called.
 * The cache belongs to one V8 and its flags; without a match (another Node, V8 flags in NODE_OPTIONS) V8
 * compiles from source as it goes. --verbose requires the bundle instead: stack traces then go through its
 * source map (dist/cli.cjs.map), which node:vm scripts do not get. Nothing is written anywhere.
 * @param {{ cache?: boolean }} [options] cache: false compiles from source (scripts/code-cache.mjs).
 */
export function loadCli({ cache = true } = {}) {
  const path = process
    .getBuiltinModule('node:url')
    .fileURLToPath(new URL('../dist/cli.cjs', import.meta.url));
  let cjsRequire;
  const require = (id) => (cjsRequire ??= process.getBuiltinModule('node:module').createRequire(path))(id);
  if (process.argv.includes('--verbose') || process.env.CSSCTL_DEBUG === '1') {
    process.setSourceMapsEnabled(true);
    return { cli: require(path), from: 'require' };
  }
  const fs = process.getBuiltinModule('node:fs');
  const source = fs.readFileSync(path, 'utf8');
  let cachedData;
  if (cache) {
    try {
      cachedData = fs.readFileSync(new URL(`../dist/${codeCacheName(source)}`, import.meta.url));
    } catch {
      // no cache for this bundle and this V8: compiled from source
    }
  }
  // The bundle is written as a function expression taking what Node gives a CommonJS module (the build).
  const { Script } = process.getBuiltinModule('node:vm');
  const script = new Script(source, { filename: path, cachedData });
  const module = { exports: {} };
  const dir = process.getBuiltinModule('node:path').dirname(path);
  // Built-in modules straight from Node, without the CommonJS loader's resolution and tracing.
  const requireForCli = (id) => process.getBuiltinModule(id) ?? require(id);
  script.runInThisContext().call(module.exports, module.exports, requireForCli, module, path, dir);
  const from = !cachedData
    ? 'source'
    : script.cachedDataRejected
      ? 'source (code cache refused)'
      : 'code cache';
  return { cli: module.exports, script, from };
}

/**
 * The code cache's file in dist/ for this bundle (the build id on its first line, see scripts/build.mjs), V8
 * and CPU architecture. V8 checks a cache against the length of the source only: the id keeps a cache from
 * ever meeting another bundle.
 */
export function codeCacheName(source) {
  const build = /^\/\*cssctl-build:(\w+)\*\//.exec(source)?.[1] ?? 'none';
  return `cli-${build}-${process.versions.v8}-${process.arch}.cache`;
}

/** `cssctl --version`, `cssctl [command…] --help|-h`: printed from dist/help.json when it has the answer. */
function answerEarly(args) {
  const last = args[args.length - 1];
  const version = args.length === 1 && last === '--version';
  if (!version && last !== '--help' && last !== '-h') return false;
  const fs = process.getBuiltinModule('node:fs');
  let text;
  try {
    const generated = JSON.parse(fs.readFileSync(new URL('../dist/help.json', import.meta.url), 'utf8'));
    if (version) text = `${generated.version}\n`;
    else {
      const entry = generated.help[args.slice(0, -1).join(' ')];
      if (!entry || args.slice(0, -1).some((a) => a.startsWith('-'))) return false;
      // On a terminal commander wraps to its width: answered here at the width of a pipe (80) and from the
      // width where nothing wraps; other widths go to the CLI.
      text = entry.text;
      if (process.getBuiltinModule('node:tty').isatty(1)) {
        const columns = process.stdout.columns ?? 0;
        if (columns >= entry.wideFrom) text = entry.wide;
        else if (columns !== generated.width) return false;
      }
    }
  } catch {
    return false; // no dist/help.json (a partial build): the CLI answers
  }
  try {
    fs.writeSync(1, text);
  } catch (err) {
    // As the CLI does (cli-contract.md §3): a reader leaving early is quiet; anything else is exit 1.
    if (err.code !== 'EPIPE') {
      process.stderr.write(`error: cannot write output: ${err.message}\n`);
      process.exitCode = 1;
    }
  }
  return true;
}
