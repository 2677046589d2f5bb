#!/usr/bin/env node
// The executable: checks the runtime, answers `--version` and `… --help` from the text the build took from
// the CLI itself (dist/help.json, see scripts/gen-help.mjs), and otherwise loads the bundled CLI with a V8
// code cache made by and for the Node that runs it (docs/shipping.md). The single executable runs the same
// code from its assets (scripts/sea-main.mjs). CommonJS: Node runs it without starting its ES module loader
// (~2 ms of every command).
'use strict';
const [major, minor] = process.versions.node.split('.').map(Number);
if (major < 22 || (major === 22 && minor < 19)) {
  process.stderr.write(`error: cssctl needs Node.js 22.19 or newer; this is ${process.versions.node}\n`);
  process.exit(1);
}
settleColourEnv();

/** cssctl decides colour itself (FORCE_COLOR beats NO_COLOR); without this Node warns when both are set. */
function settleColourEnv() {
  if (process.env.FORCE_COLOR !== undefined) delete process.env.NO_COLOR;
}

/**
 * V8 settings for a long export (`--all`, `api --paginate`). They can only be given to V8 at start-up (Node
 * documents changing them later as undefined behaviour) and would cost every other command (V8 then refuses
 * the code cache of Node's own modules: ~3 ms), so an export runs in a second process started with them
 * (relaunch below): node for the package, the executable itself for the single executable.
 * Without them V8 grows its young generation to 32 MB during an export, and 200,000 findings peak near
 * 170 MiB instead of near 95 (`npm run bench`). Concurrent Sparkplug is off because with --optimize-for-size
 * its background compile can wait for a garbage collection that never comes once node is exiting (a hang at
 * exit); Maglev is off because its compiles left 2–7 MB more in malloc arenas.
 */
const EXPORT_V8_FLAGS = ['--optimize-for-size', '--no-concurrent-sparkplug', '--no-maglev'];

/** How many commands add to a code cache after the one that made it (loadCli). */
const MAX_CACHE_COMMANDS = 12;

/** The files the CLI needs, read from dist/ beside this file (the single executable reads its assets). */
const distFiles = {
  path: (name) => process.getBuiltinModule('node:path').join(__dirname, '..', 'dist', name),
  text: (name) => process.getBuiltinModule('node:fs').readFileSync(distFiles.path(name), 'utf8'),
};

/**
 * Whether the command asked for reads every finding, and this process does not have the export settings yet.
 * Which commands do (every page: --all, --paginate; two whole sets: findings diff, --baseline; a wait for a scan,
 * whose report may read them all) is declared where each command is defined (src/commands/shared/streams.ts);
 * the build writes it to launch.json (scripts/gen-help.mjs). argv is read with the tokenizer the CLI uses
 * (bin/argv.cjs): a subcommand's option is a switch to it, so a value spelled like a command word costs a
 * relaunch (~30 ms), never a wrong answer. No launch.json (a partial build): no relaunch.
 * @param {string[]} args
 * @param {{ tokens?: ReturnType<typeof import('./argv.cjs').tokenize>, files?: typeof distFiles,
 *   manifest?: Record<string, true | string[]> }} [options] tokens: args already read (handed on to the CLI);
 *   manifest: instead of launch.json (tests).
 */
function wantsExportHeap(args, { tokens, files = distFiles, manifest } = {}) {
  if (hasExportFlags()) return false;
  const { flags, words } = tokens ?? require('./argv.cjs').tokenize(args);
  if (!manifest) {
    try {
      manifest = JSON.parse(files.text('launch.json'));
    } catch {
      return false;
    }
  }
  // The command is the longest run of leading words the manifest names (`scans wait`; `api`, whose path follows).
  for (let n = words.length; n > 0; n--) {
    const path = words
      .slice(0, n)
      .map((w) => w.word)
      .join(' ');
    // The manifest's own entries only: a word such as `constructor` or `__proto__` names none.
    if (!Object.hasOwn(manifest, path)) continue;
    const rule = manifest[path];
    return rule === true || (Array.isArray(rule) && rule.some((flag) => flags.has(flag)));
  }
  return false;
}

/** Whether this process was started with EXPORT_V8_FLAGS (it is the export process of a relaunch). */
function hasExportFlags() {
  return EXPORT_V8_FLAGS.every((f) => process.execArgv.includes(f));
}

/**
 * Flags the single executable gives its export process after EXPORT_V8_FLAGS: the young generation it starts
 * every command with (scripts/build-exe.mjs) is put back to V8's default, which --optimize-for-size keeps small.
 */
const EXPORT_SEA_FLAGS = ['--min-semi-space-size=0'];

/**
 * Runs cssctl again in a process started with EXPORT_V8_FLAGS, in the same process group (so it keeps the
 * terminal), and ends as it ends: this file in a node, or the single executable itself (`sea`), which takes
 * Node's flags through its --node-options (execArgvExtension "cli", scripts/build-exe.mjs). A signal sent to
 * this process alone is passed on; one sent to the whole group (Ctrl-C) reaches both, and src/cli.ts counts the
 * two arrivals as one.
 */
function relaunch(args, { sea = false } = {}) {
  const { spawn } = process.getBuiltinModule('node:child_process');
  const argv = sea
    ? [`--node-options=${[...EXPORT_V8_FLAGS, ...EXPORT_SEA_FLAGS].join(' ')}`, ...args]
    : [...EXPORT_V8_FLAGS, ...process.execArgv, __filename, ...args];
  const child = spawn(process.execPath, argv, { stdio: 'inherit' });
  const signals = ['SIGINT', 'SIGTERM', 'SIGHUP'];
  const pass = (signal) => child.kill(signal);
  for (const s of signals) process.on(s, pass);
  child.on('error', (err) => {
    process.stderr.write(`error: cannot start ${process.execPath}: ${err.message}\n`);
    process.exit(1);
  });
  child.on('exit', (code, signal) => {
    if (signal) {
      // Ended by a signal: so is this process (the shell reports it the same way).
      for (const s of signals) process.removeListener(s, pass);
      process.kill(process.pid, signal);
    } else process.exit(code ?? 1);
  });
}

/**
 * The CLI (dist/cli.cjs, one CommonJS bundle), compiled by node:vm with a V8 code cache: V8 then compiles
 * almost nothing, where Node's own compile cache would hold only the bundle's top level and leave every
 * function to be compiled when first called. A code cache fits one V8, one CPU architecture and one set of V8
 * flags, so it is made by the Node that runs cssctl: when there is none for this bundle, V8 and flags in the
 * cache folder (codeCacheFile), the CLI is compiled from source as it runs, and what V8 compiled is written
 * there when the process exits (saveCodeCache). --verbose requires the bundle instead: stack traces then go
 * through its source map (dist/cli.cjs.map), which node:vm scripts do not get.
 * @param {{ cache?: boolean, save?: boolean, env?: NodeJS.ProcessEnv, files?: typeof distFiles,
 *   cachedData?: Buffer }} [options] cache: false compiles from source and writes nothing
 *   (scripts/code-cache.mjs); save: false reads the cache but never writes one (tests); files and cachedData:
 *   the single executable's bundle and the cache built into it.
 */
function loadCli({ cache = true, save = cache, env = process.env, files = distFiles, cachedData } = {}) {
  const path = files.path('cli.cjs');
  let cjsRequire;
  // The files built apart from the bundle that it requires (config-writer.cjs, help-topics.cjs, mcp.cjs:
  // scripts/build.mjs) come from the single executable's assets; the package has them in dist/ beside cli.cjs.
  // (jq.cjs is loaded by jq's own thread, src/jq/engine.ts, from the same places.) The MCP SDK (mcp.cjs) is
  // compiled with a code cache of its own (loadApartCached).
  const apart = (id) =>
    files.sea && /^\.\/(config-writer|help-topics|mcp)\.cjs$/.test(id)
      ? files.module(id.slice(2))
      : id === './mcp.cjs' && cache
        ? loadApartCached('mcp.cjs', files, env, save)
        : undefined;
  const require = (id) =>
    apart(id) ?? (cjsRequire ??= process.getBuiltinModule('node:module').createRequire(path))(id);
  if (process.argv.includes('--verbose') || env.CSSCTL_DEBUG === '1') {
    process.setSourceMapsEnabled(true);
    if (files.sea) serveAssets(files);
    return { cli: require(path), from: 'require' };
  }
  const source = files.text('cli.cjs');
  const cacheFile = cache && !cachedData ? codeCacheFile(source, env) : undefined;
  if (cacheFile) {
    try {
      cachedData = process.getBuiltinModule('node:fs').readFileSync(cacheFile);
    } catch {
      // none yet (or unreadable): compiled from source, and saved at exit
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
  if (cacheFile && save) {
    // A command the cache has not seen yet (its first two words) adds what it compiled: a cache made by
    // `config path` would otherwise never hold the HTTP stack. The list beside the cache bounds the rewrites.
    const fs = process.getBuiltinModule('node:fs');
    const command = process.argv
      .slice(2)
      .filter((a) => !a.startsWith('-'))
      .slice(0, 2)
      .join(' ');
    let seen = [];
    if (from === 'code cache') {
      try {
        seen = fs.readFileSync(`${cacheFile}.commands`, 'utf8').split('\n');
      } catch {
        // a cache without its list: made by an older cssctl, or the list could not be written
      }
    }
    if (from !== 'code cache' || (!seen.includes(command) && seen.length < MAX_CACHE_COMMANDS))
      process.once('exit', () => {
        if (saveCodeCache(script, cacheFile))
          writeAtomically(
            fs,
            `${cacheFile}.commands`,
            [...(from === 'code cache' ? seen : []), command].join('\n'),
          );
      });
  }
  return { cli: module.exports, script, from, cacheFile };
}

/**
 * A file built apart from the CLI (dist/mcp.cjs, the MCP SDK: `cssctl mcp` only), compiled as the CLI is, with a
 * code cache of its own beside the CLI's: most of its ~270 KB would otherwise be parsed and compiled on every
 * start of the server, before it can answer `initialize` (`npm run bench`, "cssctl mcp: initialize"). Made by the
 * first run, written when that process exits with what V8 compiled while it ran. Required plainly (require())
 * when no cache folder can be had. Taking it out: drop the `./mcp.cjs` case of apart() in loadCli.
 */
function loadApartCached(name, files, env, save = true) {
  const path = files.path(name);
  const source = files.text(name);
  const cacheFile = codeCacheFile(source, env, name.replace(/\.cjs$/, ''));
  const nodePath = process.getBuiltinModule('node:path');
  if (!cacheFile) return process.getBuiltinModule('node:module').createRequire(path)(path);
  let cachedData;
  try {
    cachedData = process.getBuiltinModule('node:fs').readFileSync(cacheFile);
  } catch {
    // none yet: compiled from source, and saved at exit
  }
  const { Script } = process.getBuiltinModule('node:vm');
  // What Node's CommonJS loader wraps a module in; the file has no other way to get require and module.
  const script = new Script(`(function (exports, require, module, __filename, __dirname) {${source}\n})`, {
    filename: path,
    cachedData,
  });
  const module = { exports: {} };
  let own;
  const require = (id) =>
    process.getBuiltinModule(id) ?? (own ??= process.getBuiltinModule('node:module').createRequire(path))(id);
  script
    .runInThisContext()
    .call(module.exports, module.exports, require, module, path, nodePath.dirname(path));
  if (save && (!cachedData || script.cachedDataRejected))
    process.once('exit', () => saveCodeCache(script, cacheFile));
  return module.exports;
}

/**
 * The single executable has no files beside it: under --verbose its bundle goes through Node's own CommonJS
 * loader all the same (node:vm scripts get no source maps), served from the executable's assets by a module
 * hook (module.registerHooks), with its source map inline as a data: URL so stack traces name the TypeScript
 * sources, and the files built apart from it (config-writer.cjs, jq.cjs, mcp.cjs) served the same way when it
 * requires them.
 */
function serveAssets(files) {
  const { pathToFileURL } = process.getBuiltinModule('node:url');
  const served = new Map(
    ['cli.cjs', 'config-writer.cjs', 'jq.cjs', 'mcp.cjs'].map((name) => [
      pathToFileURL(files.path(name)).href,
      name,
    ]),
  );
  const urlOf = (specifier, parentURL) => {
    if (specifier.startsWith('/')) return pathToFileURL(specifier).href;
    if (specifier.startsWith('./') && parentURL) return new URL(specifier, parentURL).href;
    return undefined;
  };
  process.getBuiltinModule('node:module').registerHooks({
    resolve(specifier, context, next) {
      const url = urlOf(specifier, context.parentURL);
      return url && served.has(url)
        ? { url, format: 'commonjs', shortCircuit: true }
        : next(specifier, context);
    },
    load(url, context, next) {
      const name = served.get(url);
      if (!name) return next(url, context);
      let source = files.text(name);
      if (name === 'cli.cjs') {
        const map = process
          .getBuiltinModule('node:buffer')
          .Buffer.from(files.text('cli.cjs.map'))
          .toString('base64');
        source = source.replace(
          /\/\/# sourceMappingURL=\S+\s*$/,
          `//# sourceMappingURL=data:application/json;base64,${map}\n`,
        );
      }
      return { format: 'commonjs', source, shortCircuit: true };
    },
  });
}

/**
 * Where this bundle's code cache for this V8, CPU architecture and set of flags lives:
 * the user's cache folder (bin/dirs.cjs: `$XDG_CACHE_HOME/cssctl/`, else `~/.cache/cssctl/`, the platform's own on
 * macOS and Windows). V8 checks a cache against its own version, its flags
 * and the length of the source; the name keeps apart what V8 would mix up (two bundles of the same length),
 * and lets an export's node (other flags) keep its own cache beside the one of other commands.
 * undefined: no usable folder (no HOME, a relative XDG_CACHE_HOME).
 */
function codeCacheFile(source, env = process.env, name = 'cli') {
  const dir = require('./dirs.cjs').cacheDir(env);
  if (!dir) return undefined;
  const build = /^\/\*cssctl-build:(\w+)\*\//.exec(source)?.[1] ?? 'none';
  const flags = [...process.execArgv, env.NODE_OPTIONS ?? ''].join('\0');
  const flagsId = flags === '' ? 'default' : hash(flags);
  return process
    .getBuiltinModule('node:path')
    .join(dir, `${name}-${build}-${process.versions.v8}-${process.arch}-${flagsId}.cache`);
}

/** A short, stable name for a string (FNV-1a; the built-in modules that hash cost more to load). */
function hash(text) {
  let h = 0x811c9dc5;
  for (let i = 0; i < text.length; i++) h = Math.imul(h ^ text.charCodeAt(i), 0x01000193) >>> 0;
  return h.toString(16).padStart(8, '0');
}

/**
 * Writes what V8 compiled in this process as the code cache, atomically: into a file of this process's own,
 * then renamed over the name (two first runs at once each write a whole cache; the last rename wins, and a
 * reader sees one whole file or none). A folder that cannot be made or written (read-only, full) costs
 * nothing but the speed-up: the error is dropped with the partial file.
 */
function saveCodeCache(script, file) {
  const fs = process.getBuiltinModule('node:fs');
  const dir = process.getBuiltinModule('node:path').dirname(file);
  try {
    makeFolder(fs, dir);
    // A folder that cannot be written (read-only) is known before V8 serialises ~600 KB for nothing.
    fs.accessSync(dir, fs.constants.W_OK);
  } catch {
    return false;
  }
  return writeAtomically(fs, file, script.createCachedData());
}

/** Writes `file` through a temporary file of this process's own and a rename; false when it could not. */
function writeAtomically(fs, file, data) {
  const tmp = `${file}.${process.pid}.${Date.now().toString(36)}.tmp`;
  try {
    fs.writeFileSync(tmp, data, { mode: 0o600, flag: 'wx' });
    fs.renameSync(tmp, file);
    return true;
  } catch {
    try {
      fs.rmSync(tmp, { force: true });
    } catch {
      // nothing was written
    }
    return false;
  }
}

/**
 * mkdir -p, without Node's recursive mkdir, which retries for ever where a folder exists but cannot hold
 * another (ENOENT under /proc).
 */
function makeFolder(fs, dir) {
  try {
    fs.mkdirSync(dir, { mode: 0o700 });
  } catch (err) {
    if (err.code === 'EEXIST') return;
    if (err.code !== 'ENOENT') throw err;
    const parent = process.getBuiltinModule('node:path').dirname(dir);
    if (parent === dir) throw err;
    makeFolder(fs, parent);
    fs.mkdirSync(dir, { mode: 0o700 });
  }
}

/** `cssctl --version`, `cssctl [command…] --help|-h`: printed from help.json when it has the answer. */
function answerEarly(args, files = distFiles) {
  const last = args[args.length - 1];
  const version = args.length === 1 && last === '--version';
  if (!version && last !== '--help' && last !== '-h') return false;
  const fs = process.getBuiltinModule('node:fs');
  let text;
  try {
    const generated = JSON.parse(files.text('help.json'));
    if (version) text = `${generated.version}\n`;
    else {
      const path = args.slice(0, -1).join(' ');
      // Its own entries only: `cssctl constructor --help` names none (the CLI says it is no command).
      const entry = Object.hasOwn(generated.help, path) ? generated.help[path] : undefined;
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
    return false; // no help.json (a partial build): the CLI answers
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

module.exports = {
  settleColourEnv,
  EXPORT_V8_FLAGS,
  hasExportFlags,
  wantsExportHeap,
  EXPORT_SEA_FLAGS,
  relaunch,
  loadCli,
  codeCacheFile,
  saveCodeCache,
  answerEarly,
};

if (require.main === module && !answerEarly(process.argv.slice(2), distFiles)) {
  const args = process.argv.slice(2);
  // argv is read once: the launcher's reading is handed to the CLI.
  const tokens = require('./argv.cjs').tokenize(args);
  if (wantsExportHeap(args, { tokens })) relaunch(args);
  else loadCli().cli.run(tokens);
}
