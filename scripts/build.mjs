// Bundles the CLI and the sandbox service. The CLI is one file: a verb's modules are still evaluated only when
// it runs (esbuild turns an import() of a bundled module into a lazy initialiser), and one file starts
// ~10 ms sooner than ~40 code-split chunks, each resolved, read and linked on its own (`npm run bench`).
//
// Shared by everything that builds in one checkout (`npm run build`, scripts/try and scripts/test through
// scripts/lib.sh ensure_build, vitest's global set-up, `npm pack`, build:exe): a build holds the checkout's build
// lock (.tmp/build.lock; scripts/lib.sh's `npm ci` takes it too), is made in a folder of its own and moved into
// dist/ file by file (each a rename: a cssctl, sandbox or test running from dist/ meanwhile never finds a file missing),
// and ends by writing dist/.built, which names the Node and the inputs it was built from. `--if-changed` (what
// scripts/lib.sh, vitest and prepack run) builds only when that stamp does not match: a test run leaves a
// dist/ that the next scripts/try reuses, and the reverse.
import { build as esbuild } from 'esbuild';
import { spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import {
  mkdirSync,
  readdirSync,
  readFileSync,
  realpathSync,
  renameSync,
  rmSync,
  lstatSync,
  statSync,
  writeFileSync,
} from 'node:fs';
import { isBuiltin } from 'node:module';
import { constants as http2Constants } from 'node:http2';
import { dirname, join, relative, sep } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = fileURLToPath(new URL('..', import.meta.url));
const dist = join(root, 'dist');
const STAMP = join(dist, '.built');
const ifChanged = process.argv.includes('--if-changed');

/** What a build is made from: a change to any of these (or another Node) makes the next one build again. */
const INPUTS = [
  'src',
  'test/sandbox',
  // the scripts that make dist/ (not the benchmark, the single executable's or the release's)
  'scripts/build.mjs',
  'scripts/notices.mjs',
  'scripts/gen-help.mjs',
  'scripts/gen-docs.mjs',
  // the pages of `cssctl help <topic>` (inlined into dist/help-topics.cjs) and the man pages' sections
  'docs',
  'bin',
  'licenses',
  'LICENSE',
  'package.json',
  'package-lock.json',
  'tsconfig.json',
  // what `npm ci` installed (the bundle holds the dependencies)
  'node_modules/.package-lock.json',
];

/** The stamp of a build from the inputs as they are now: the Node, and a hash of the inputs' paths and bytes. */
export function inputStamp(dir = root) {
  const h = createHash('sha256');
  const add = (rel) => {
    let st;
    try {
      st = statSync(join(dir, rel));
    } catch {
      return;
    }
    if (st.isDirectory()) {
      for (const name of readdirSync(join(dir, rel)).sort()) add(join(rel, name));
    } else if (st.isFile()) {
      h.update(`${rel}\0${st.size}\0`);
      h.update(readFileSync(join(dir, rel)));
    }
  };
  for (const rel of INPUTS) add(rel);
  return `${process.version} ${h.digest('hex')}\n`;
}

const readStamp = () => {
  try {
    return readFileSync(STAMP, 'utf8');
  } catch {
    return undefined;
  }
};

/**
 * undici as a request uses it (src/core/http/undici.ts imports its Agent, EnvHttpProxyAgent and request API
 * from undici's own files, pinned to one exact version in package.json): all of it bundled, nothing of undici
 * required at run time. undici's index would also load fetch, WebSocket, the cache and the mocks (~60 ms on
 * every request command; `npm run bench`, "bare GET, whole undici"). Two of its built-in imports get stand-ins:
 * - `node:http2` (~10 ms to load) only when a connection negotiates HTTP/2: undici's h2 client reads
 *   constants at load time, so they are inlined here and `connect` loads the module on first use;
 * - `node:assert` (~1.5 ms to load) only when an assertion fails: undici calls nothing but `assert(value)`;
 * - `node:http` (~3 ms) never: undici's core/util.js and dispatcher/client.js read two of its values at load
 *   time, `IncomingMessage` (undici nulls the socket of such a body before destroying it; cssctl never hands
 *   undici a node:http message) and `maxHeaderSize` (the default, which src/core/http/undici.ts always
 *   overrides with MAX_HEADER_SIZE, the same 16 KiB).
 */
const undiciParts = {
  name: 'undici-parts',
  setup(b) {
    const lib = `${realpathSync(fileURLToPath(new URL('../node_modules/undici/lib', import.meta.url)))}${sep}`;
    const readsHttp = /[\\/]undici[\\/]lib[\\/](core[\\/]util|dispatcher[\\/]client)\.js$/;
    b.onResolve({ filter: /^node:http$/ }, (a) =>
      readsHttp.test(a.importer) ? { path: 'http', namespace: 'undici-http' } : undefined,
    );
    b.onLoad({ filter: /.*/, namespace: 'undici-http' }, () => ({
      contents: `module.exports = { IncomingMessage: class IncomingMessage {}, maxHeaderSize: 16384 };`,
      loader: 'js',
    }));
    b.onResolve({ filter: /^node:http2$/ }, (a) =>
      a.importer.endsWith('client-h2.js') ? { path: 'http2', namespace: 'lazy-http2' } : undefined,
    );
    b.onLoad({ filter: /.*/, namespace: 'lazy-http2' }, () => ({
      contents: `module.exports = { constants: ${JSON.stringify(http2Constants)},
        connect: (...args) => process.getBuiltinModule('node:http2').connect(...args) };`,
      loader: 'js',
    }));
    b.onResolve({ filter: /^node:assert$/ }, (a) =>
      a.importer.startsWith(lib) ? { path: 'assert', namespace: 'lazy-assert' } : undefined,
    );
    b.onLoad({ filter: /.*/, namespace: 'lazy-assert' }, () => ({
      contents: `module.exports = function assert(value, message) {
        if (!value) process.getBuiltinModule('node:assert').ok(value, message);
      };`,
      loader: 'js',
    }));
  },
};

/**
 * Built-in modules Node has loaded before any script runs (measured on Node 24: each costs under 0.4 ms when
 * taken). A CommonJS bundle requires them as they are: no stand-in, and a named import of one costs nothing
 * (a bundled stand-in is a CommonJS module, which esbuild copies export by export into every module that
 * imports it: ~3 ms at start-up for fs, path and process alone).
 */
const LOADED_AT_START = new Set([
  'async_hooks',
  'buffer',
  'constants',
  'diagnostics_channel',
  'events',
  'fs',
  'module',
  'os',
  'path',
  'process',
  'querystring',
  'string_decoder',
  'timers',
  'url',
  'util',
  'util/types',
  'vm',
]);

/**
 * Node's other built-in modules, taken with process.getBuiltinModule instead of an ESM `import`: an import
 * makes Node build the module's ESM face, which reads every export and so loads what they lazily stand for
 * (`import … from 'node:crypto'` loads all of webcrypto; `node:http` loads Node's internal undici). A
 * module that is an object is loaded on the first use of one of its exports, so `commander` importing
 * child_process costs nothing until a command spawns one (crypto ~9 ms, http ~6, child_process ~6, tty ~4).
 */
const lazyBuiltins = {
  name: 'lazy-builtins',
  setup(b) {
    const cjs = b.initialOptions.format === 'cjs';
    b.onResolve({ filter: /^(node:)?[a-z_]+(\/[a-z_]+)?$/ }, (a) => {
      const name = a.path.replace(/^node:/, '');
      if (!isBuiltin(`node:${name}`)) return undefined;
      // `import process from 'node:process'` (chalk, ora): the global itself, not a copy of its ~80 properties.
      if (cjs && name === 'process')
        // `require('process')` (yaml) wants the object itself as module.exports, not an ES module's namespace.
        return { path: 'process', namespace: a.kind === 'require-call' ? 'process-cjs' : 'process-global' };
      if (cjs && LOADED_AT_START.has(name)) return { path: `node:${name}`, external: true };
      return { path: name, namespace: 'builtin' };
    });
    b.onLoad({ filter: /.*/, namespace: 'process-global' }, () => ({
      contents: 'export default process;',
      loader: 'js',
    }));
    b.onLoad({ filter: /.*/, namespace: 'process-cjs' }, () => ({
      contents: 'module.exports = process;',
      loader: 'js',
    }));
    b.onLoad({ filter: /.*/, namespace: 'builtin' }, async (a) => {
      const id = JSON.stringify(`node:${a.path}`);
      const mod = process.getBuiltinModule(`node:${a.path}`);
      if (typeof mod === 'function' || a.path === 'process') {
        return { contents: `module.exports = process.getBuiltinModule(${id});`, loader: 'js' };
      }
      const keys = JSON.stringify(Object.keys(mod));
      return {
        contents: `let m; const load = () => (m ??= process.getBuiltinModule(${id}));
          for (const k of ${keys})
            Object.defineProperty(exports, k, {
              enumerable: true,
              configurable: true, // graceful-fs redefines some
              get: () => load()[k],
              set: (v) => { load()[k] = v; }, // graceful-fs patches fs
            });`,
        loader: 'js',
      };
    });
  },
};

/**
 * conf (config.json's schema, atomic writes and migrations) with ajv: a file of their own, dist/config-writer.cjs,
 * required only by the commands that change config.json (src/core/config-writer.ts). In the CLI's bundle they
 * would grow it by a third and, compiled by the login the code cache is trained on, grow the cache every
 * command reads (docs/config.md).
 */
const configWriterApart = {
  name: 'config-writer-apart',
  setup(b) {
    b.onResolve({ filter: /[\\/]config-writer\.js$/ }, () => ({
      path: './config-writer.cjs',
      external: true,
    }));
  },
};

/**
 * jq (--jq only): jq-wasm's JavaScript bundled into a file of its own, dist/jq.cjs (130 KB), and its WebAssembly
 * beside it, dist/jq.wasm (0.9 MB), loaded only when --jq is given, by jq's own thread (src/jq/engine.ts), never by
 * the bundle. Nothing is loaded from node_modules at run time, and the single executable carries both as assets. The plugin keeps an
 * import of jq-wasm in src/ (a type aside) from putting those 1.4 MB into the bundle every command loads.
 */
const jqApart = {
  name: 'jq-apart',
  setup(b) {
    b.onResolve({ filter: /^jq-wasm$/ }, () => ({ path: './jq.cjs', external: true }));
  },
};

/**
 * jq-wasm keeps all of jq's output until jq ends; cssctl writes each result as jq yields it. Its two output
 * callbacks are given hooks, and two built-in modules it would load for nothing are left alone
 * (src/jq/worker-code.ts JQ_WASM_PATCHES; made the same way when jq-wasm is loaded from node_modules). The build
 * stops when the text is not there (another jq-wasm than the one package.json pins).
 */
const jqOutputHooks = {
  name: 'jq-output-hooks',
  setup(b) {
    b.onLoad({ filter: /[\\/]jq-wasm[\\/]dist[\\/]index\.cjs$/ }, async (a) => {
      // The same changes jq's thread and src/jq/here.ts make (Node runs the .ts file as it is: types stripped).
      const { patchJqWasm } = await import('../src/jq/worker-code.ts');
      return {
        contents: patchJqWasm(readFileSync(a.path, 'utf8')),
        loader: 'js',
      };
    });
  },
};

/**
 * The pages of `cssctl help <topic>` (src/help/pages.ts) with their renderer and marked: a file of their own,
 * dist/help-topics.cjs, required only by `help <topic>`, so no other command loads the text.
 */
const helpTopicsApart = {
  name: 'help-topics-apart',
  setup(b) {
    b.onResolve({ filter: /[\\/]help[\\/]pages\.js$/ }, () => ({
      path: './help-topics.cjs',
      external: true,
    }));
  },
};

/**
 * The MCP SDK (`cssctl mcp` only, src/mcp/sdk.ts): the parts of @modelcontextprotocol/sdk the stdio server uses
 * (its Server, the protocol's schemas, built on zod, and ajv for the tools' input schemas), bundled into a file
 * of their own, dist/mcp.cjs, required only when `mcp` runs. The server's own code (src/mcp/) stays in the CLI's
 * bundle, evaluated only then, so it shares the verbs and the core with every command.
 */
const mcpSdkApart = {
  name: 'mcp-sdk-apart',
  setup(b) {
    b.onResolve({ filter: /^\.\/sdk\.js$/ }, (a) =>
      /[\\/]src[\\/]mcp[\\/][^\\/]+$/.test(a.importer) ? { path: './mcp.cjs', external: true } : undefined,
    );
  },
};

const pkg = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8'));
const common = {
  bundle: true,
  platform: 'node',
  format: 'esm',
  target: 'node22',
  sourcemap: false,
  legalComments: 'none',
  // keytar is a native, optional addon: it is loaded at run time when present.
  external: ['keytar'],
  define: { __CSSCTL_VERSION__: JSON.stringify(pkg.version) },
  // Bundled CommonJS dependencies call require(); give them one in the ESM output.
  banner: {
    js: "const require = process.getBuiltinModule('node:module').createRequire(import.meta.url);",
  },
  logLevel: 'warning',
};

/**
 * Builds everything into `stage`, a folder of this build's own: esbuild is told the files are in dist/ (so the
 * source map names the sources from there) and hands them over unwritten.
 */
async function buildInto(stage) {
  const bundle = async (options) => {
    const result = await esbuild({ ...options, absWorkingDir: root, write: false });
    for (const f of result.outputFiles) {
      const to = join(stage, relative(dist, f.path));
      mkdirSync(dirname(to), { recursive: true });
      writeFileSync(to, f.contents);
    }
    return result;
  };
  const cliBuild = await bundle({
    ...common,
    metafile: true,
    // CommonJS, so bin/cssctl.cjs can compile it as a classic script with a V8 code cache (scripts/code-cache.mjs);
    // a module (ESM) can only be given Node's compile cache, which holds the top level and none of the
    // functions compiled while the CLI runs.
    format: 'cjs',
    entryPoints: { cli: 'src/cli.ts' },
    outExtension: { '.js': '.cjs' },
    // undiciParts first: its node:http2 stand-in wins over the lazy built-in.
    plugins: [configWriterApart, jqApart, helpTopicsApart, mcpSdkApart, undiciParts, lazyBuiltins],
    // An import() of a bundled module is a lazy initialiser (a script compiled by node:vm has no loader for
    // import()); the files kept apart (config-writer.cjs, help-topics.cjs, mcp.cjs) and keytar, in the keychain
    // helper, are required (jq.cjs by jq's own thread).
    supported: { 'dynamic-import': false },
    // The bundle is one function expression, called at once when Node's CommonJS loader runs the file (and
    // --verbose does, for source maps); run as a script by node:vm it evaluates to the function, which
    // bin/cssctl.cjs calls. So V8 is given the file's own text: no wrapper to join to 680 KB of source.
    // `arguments` tells the two apart: the loader runs a module inside a function, node:vm at the top level
    // (where `module` and `require` may be globals, as under `node -e`).
    banner: {
      js: `((fn) => typeof arguments == 'object' ? fn(exports, require, module, __filename, __dirname) : fn)(
function (exports, require, module, __filename, __dirname) { 'use strict';
var __cssctl_url = require('node:url').pathToFileURL(__filename).href;`,
    },
    footer: { js: '})' },
    // As in Node's own build of undici: leaves out its experimental Milo parser (two more WASM modules).
    define: { ...common.define, esbuildDetection: 'true', 'import.meta.url': '__cssctl_url' },
    outdir: dist,
    // Read only under --verbose (bin/cssctl.cjs), so stack traces name the TypeScript sources.
    sourcemap: 'linked',
    sourcesContent: false,
    // Identifiers are not shortened, so functions and classes keep their names (--verbose stack traces, error
    // names) without esbuild's keepNames, whose ~1,000 Object.defineProperty calls cost start-up ~3–8 ms.
    minifyWhitespace: true,
    minifySyntax: true,
  });
  // The build id: the bundle's hash on its first line, which names its code cache (bin/cssctl.cjs codeCacheFile).
  const stampBuildId = (name) => {
    const file = join(stage, name);
    const text = readFileSync(file, 'utf8');
    const id = createHash('sha256').update(text).digest('hex').slice(0, 16);
    writeFileSync(file, `/*cssctl-build:${id}*/${text}`);
  };
  stampBuildId('cli.cjs');
  // The bench's yardstick for one GET "with the undici parts cssctl loads" (scripts/bench/bare-request.mjs).
  await bundle({
    ...common,
    entryPoints: { 'undici-parts': 'src/core/http/undici.ts' },
    plugins: [undiciParts, lazyBuiltins],
    define: { ...common.define, esbuildDetection: 'true' },
    outdir: join(dist, 'bench'),
    minify: true,
  });
  await bundle({ ...common, entryPoints: { sandbox: 'test/sandbox/main.ts' }, outdir: dist });
  const configWriterBuild = await bundle({
    ...common,
    metafile: true,
    format: 'cjs',
    entryPoints: { 'config-writer': 'src/core/config-writer.ts' },
    outExtension: { '.js': '.cjs' },
    plugins: [lazyBuiltins],
    banner: {},
    outdir: dist,
    minify: true,
  });
  const jqBuild = await bundle({
    ...common,
    metafile: true,
    format: 'cjs',
    // jq-wasm's JavaScript without its WebAssembly inlined (130 KB instead of 1.3 MB to compile, and no base64 to
    // decode): src/jq/worker-code.ts reads dist/jq.wasm, copied below, and hands it to loadJq.
    entryPoints: { jq: 'node_modules/jq-wasm/dist/index.cjs' },
    // Its node:fs/promises (which loads readline and the REPL's history in a worker) is loaded only if used: it
    // is not, the thread hands loadJq the WebAssembly.
    plugins: [jqOutputHooks, lazyBuiltins],
    outExtension: { '.js': '.cjs' },
    banner: {},
    outdir: dist,
    minify: true,
  });
  writeFileSync(join(stage, 'jq.wasm'), readFileSync(join(root, 'node_modules/jq-wasm/dist/build/jq.wasm')));
  const mcpBuild = await bundle({
    ...common,
    metafile: true,
    format: 'cjs',
    entryPoints: { mcp: 'src/mcp/sdk.ts' },
    outExtension: { '.js': '.cjs' },
    plugins: [lazyBuiltins],
    banner: {},
    outdir: dist,
    minify: true,
  });
  // Compiled with a code cache of its own (bin/cssctl.cjs loadApartCached), named by this id.
  stampBuildId('mcp.cjs');
  // The help topics' pages, inlined from docs/ (src/help/topics.ts names them).
  const docs = await import('./gen-docs.mjs');
  const helpTopicsBuild = await bundle({
    ...common,
    metafile: true,
    format: 'cjs',
    entryPoints: { 'help-topics': 'src/help/pages.ts' },
    outExtension: { '.js': '.cjs' },
    plugins: [lazyBuiltins],
    banner: {},
    // The pages' text; src/help/pages.ts reads docs/ (through import.meta.url) only when run from the sources.
    define: {
      ...common.define,
      __CSSCTL_HELP_PAGES__: JSON.stringify(await docs.helpPages()),
      'import.meta.url': '"file:///"',
    },
    outdir: dist,
    minify: true,
  });
  // keytar in a child process cssctl can kill (src/core/keychain.ts).
  const workerBuild = await bundle({
    ...common,
    metafile: true,
    entryPoints: { 'keychain-worker': 'src/core/keychain-worker.ts' },
    outdir: dist,
    minify: true,
  });
  // The GitHub Action (action.yml): its two entries, dist/action/main.cjs and post.cjs (runs.main, runs.post), are
  // a few lines each that require dist/action/index.cjs, both steps in one self-contained CommonJS bundle run by the
  // runner's own Node with nothing installed — no node_modules, no dist/cli.cjs beside it. So conf and ajv are
  // bundled in (not kept apart as dist/config-writer.cjs), and keytar stays out: the action keeps its session in a
  // file (src/action/context.ts). Not in the npm package (package.json `files`); a release commits them
  // (docs/ci.md, "Releasing the action").
  const actionSteps = {
    name: 'action-steps',
    setup(b) {
      b.onResolve({ filter: /^\.\/index\.js$/ }, (a) =>
        /[\\/]src[\\/]action[\\/](main|post)-entry\.ts$/.test(a.importer)
          ? { path: './index.cjs', external: true }
          : undefined,
      );
    },
  };
  const actionCommon = {
    ...common,
    metafile: true,
    format: 'cjs',
    outExtension: { '.js': '.cjs' },
    banner: { js: "var __cssctl_url = require('node:url').pathToFileURL(__filename).href;" },
    define: { ...common.define, esbuildDetection: 'true', 'import.meta.url': '__cssctl_url' },
    outdir: join(dist, 'action'),
    minifyWhitespace: true,
    minifySyntax: true,
  };
  const actionBuild = await bundle({
    ...actionCommon,
    entryPoints: { index: 'src/action/index.ts' },
    plugins: [undiciParts, lazyBuiltins],
  });
  await bundle({
    ...actionCommon,
    entryPoints: { main: 'src/action/main-entry.ts', post: 'src/action/post-entry.ts' },
    plugins: [actionSteps],
    banner: {},
    define: common.define,
    minifyWhitespace: false,
    minifySyntax: false,
  });
  (await import('./notices.mjs')).writeNotices(
    [actionBuild.metafile],
    root,
    join(stage, 'action', 'THIRD-PARTY-NOTICES.md'),
    `${pkg.name} ${pkg.version} (the GitHub Action)`,
  );
  // dist/THIRD-PARTY-NOTICES.md: the licences of what the shipped bundles hold; dist/bundled.json, the same
  // packages for the release's SBOM (scripts/sbom.mjs; not in the npm package).
  const notices = (await import('./notices.mjs')).writeNotices(
    [
      cliBuild.metafile,
      workerBuild.metafile,
      configWriterBuild.metafile,
      jqBuild.metafile,
      helpTopicsBuild.metafile,
      mcpBuild.metafile,
    ],
    root,
    join(stage, 'THIRD-PARTY-NOTICES.md'),
    `${pkg.name} ${pkg.version}`,
  );
  writeFileSync(
    join(stage, 'bundled.json'),
    `${JSON.stringify(
      notices.map((n) => ({
        name: n.name,
        version: n.version,
        licence: n.licence,
        dir: relative(root, n.dir),
        builtIn: (n.builtIn ?? []).map(({ name, version, licence }) => ({ name, version, licence })),
      })),
      null,
      2,
    )}\n`,
  );
  // dist/help.json: --version and --help answered by bin/cssctl.cjs without loading the CLI.
  await (await import('./gen-help.mjs')).writeHelpFile(stage);
  // dist/man/: the man pages, from the same command tree; and whether docs/commands.md still matches it.
  await docs.writeBuildDocs(stage);
}

/**
 * Moves the build in `stage` into dist/, one rename per file, so a process reading dist/ meanwhile finds each
 * file whole, old or new, and never missing; then removes what this build did not make (an older build's files,
 * the single executable and release artifacts made from it). The stamp goes first, so a build that stops here
 * is built again next time.
 */
function publish(stage) {
  rmSync(STAMP, { force: true });
  const made = new Set();
  const walk = (rel) => {
    for (const name of readdirSync(join(stage, rel))) {
      const r = join(rel, name);
      if (statSync(join(stage, r)).isDirectory()) walk(r);
      else made.add(r);
    }
  };
  walk('');
  for (const rel of made) {
    mkdirSync(dirname(join(dist, rel)), { recursive: true });
    renameSync(join(stage, rel), join(dist, rel));
  }
  const prune = (rel) => {
    for (const name of readdirSync(join(dist, rel))) {
      const r = join(rel, name);
      if (made.has(r)) continue;
      const holds = [...made].some((m) => m.startsWith(`${r}${sep}`));
      if (holds && lstatSync(join(dist, r)).isDirectory()) prune(r);
      else rmSync(join(dist, r), { recursive: true, force: true });
    }
  };
  prune('');
}

/**
 * Runs this build again under `flock` on the checkout's build lock (the kernel drops it when the holder dies),
 * unless this process is that run. undefined: this process builds (it holds the lock, or there is no flock(1),
 * where it builds unlocked as scripts/lib.sh with_lock does); else the locked run's exit status.
 */
function runUnderLock() {
  const lock = join(root, '.tmp', 'build.lock');
  if (process.env.CSSCTL_BUILD_LOCK === lock) return undefined;
  mkdirSync(dirname(lock), { recursive: true });
  const self = fileURLToPath(import.meta.url);
  // -o: the lock's descriptor is not handed down, so nothing the build starts can outlive it holding the lock.
  const r = spawnSync(
    'flock',
    ['-o', lock, process.execPath, ...process.execArgv, self, ...process.argv.slice(2)],
    {
      stdio: 'inherit',
      env: { ...process.env, CSSCTL_BUILD_LOCK: lock },
    },
  );
  if (r.error?.code === 'ENOENT') return undefined;
  if (r.error) throw r.error;
  if (r.signal) process.kill(process.pid, r.signal);
  return r.status ?? 1;
}

if (import.meta.main) {
  const status = runUnderLock();
  if (status !== undefined) process.exit(status);
  // Taken before building: an input changed while this build reads them makes the next one build again.
  const stamp = inputStamp();
  if (!(ifChanged && readStamp() === stamp)) {
    const stage = join(root, '.tmp', `build-${process.pid}`);
    // Holding the lock, this is the only build: a staging folder left by one that was killed goes.
    if (process.env.CSSCTL_BUILD_LOCK)
      for (const name of readdirSync(join(root, '.tmp')))
        if (/^build-\d+$/.test(name)) rmSync(join(root, '.tmp', name), { recursive: true, force: true });
    rmSync(stage, { recursive: true, force: true });
    try {
      await buildInto(stage);
      publish(stage);
      writeFileSync(`${STAMP}.${process.pid}`, stamp);
      renameSync(`${STAMP}.${process.pid}`, STAMP);
    } finally {
      rmSync(stage, { recursive: true, force: true });
    }
  }
}
