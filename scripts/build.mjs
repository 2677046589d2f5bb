// Bundles the CLI and the sandbox service. The CLI is one file: a verb's modules are still evaluated only when
// it runs (esbuild turns an import() of a bundled module into a lazy initialiser), and one file starts
// ~10 ms sooner than ~40 code-split chunks, each resolved, read and linked on its own (`npm run bench`).
import { build } from 'esbuild';
import { readFileSync, realpathSync, rmSync } from 'node:fs';
import { isBuiltin } from 'node:module';
import { constants as http2Constants } from 'node:http2';
import { dirname, join, relative, sep } from 'node:path';
import { fileURLToPath } from 'node:url';

rmSync(new URL('../dist', import.meta.url), { recursive: true, force: true });

/**
 * undici as a request uses it (src/core/http/undici.ts imports its Agent and request API directly):
 * - `node:http2` (~10 ms to load) only when a connection negotiates HTTP/2: undici's h2 client reads
 *   constants at load time, so they are inlined here and `connect` loads the module on first use;
 * - what undici requires lazily (fetch bodies, FormData, the non-SIMD parser) stays out of the bundle and
 *   is required from node_modules at run time, if it is ever needed;
 * - the whole package (`import('undici')`, for EnvHttpProxyAgent when a proxy is set) is loaded from
 *   node_modules as it is, not bundled beside the parts.
 */
const undiciParts = {
  name: 'undici-parts',
  setup(b) {
    const lib = `${realpathSync(fileURLToPath(new URL('../node_modules/undici/lib', import.meta.url)))}${sep}`;
    b.onResolve({ filter: /^undici$/ }, () => ({ path: 'undici', external: true }));
    b.onResolve({ filter: /^node:http2$/ }, (a) =>
      a.importer.endsWith('client-h2.js') ? { path: 'http2', namespace: 'lazy-http2' } : undefined,
    );
    b.onLoad({ filter: /.*/, namespace: 'lazy-http2' }, () => ({
      contents: `module.exports = { constants: ${JSON.stringify(http2Constants)},
        connect: (...args) => process.getBuiltinModule('node:http2').connect(...args) };`,
      loader: 'js',
    }));
    b.onResolve({ filter: /^\.\.?\/.*(web\/|llhttp-wasm)/ }, (a) => {
      if (a.kind !== 'require-call' || !a.importer.startsWith(lib)) return undefined;
      const target = join(dirname(a.importer), a.path);
      return { path: `undici/lib/${relative(lib, target).split(sep).join('/')}`, external: true };
    });
  },
};

/**
 * Node's built-in modules, taken with process.getBuiltinModule instead of an ESM `import`: an import makes
 * Node build the module's ESM face, which reads every export and so loads what they lazily stand for
 * (`import … from 'node:crypto'` loads all of webcrypto; `node:http` loads Node's internal undici). A
 * module that is an object is loaded on the first use of one of its exports, so `commander` importing
 * child_process costs nothing until a command spawns one.
 */
const lazyBuiltins = {
  name: 'lazy-builtins',
  setup(b) {
    b.onResolve({ filter: /^(node:)?[a-z_]+(\/[a-z_]+)?$/ }, (a) => {
      const name = a.path.replace(/^node:/, '');
      if (!isBuiltin(`node:${name}`)) return undefined;
      return { path: name, namespace: 'builtin' };
    });
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

const pkg = JSON.parse(readFileSync(new URL('../package.json', import.meta.url), 'utf8'));
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

await build({
  ...common,
  entryPoints: { cli: 'src/cli.ts' },
  // undiciParts first: its node:http2 stand-in wins over the lazy built-in.
  plugins: [undiciParts, lazyBuiltins],
  // As in Node's own build of undici: leaves out its experimental Milo parser (two more WASM modules).
  define: { ...common.define, esbuildDetection: 'true' },
  outdir: 'dist',
  // Read only under --verbose (bin/cssctl.js), so stack traces name the TypeScript sources.
  sourcemap: 'linked',
  sourcesContent: false,
  minify: true,
  // Functions and classes keep their names, so --verbose stack traces name them (not `e`, `t`).
  keepNames: true,
});
// The bench's yardstick for one GET "with the undici parts cssctl loads" (scripts/bench/bare-request.mjs).
await build({
  ...common,
  entryPoints: { 'undici-parts': 'src/core/http/undici.ts' },
  plugins: [undiciParts, lazyBuiltins],
  define: { ...common.define, esbuildDetection: 'true' },
  outdir: 'dist/bench',
  minify: true,
});
await build({ ...common, entryPoints: { sandbox: 'test/sandbox/main.ts' }, outdir: 'dist' });
// keytar in a child process cssctl can kill (src/core/keychain.ts).
await build({
  ...common,
  entryPoints: { 'keychain-worker': 'src/core/keychain-worker.ts' },
  outdir: 'dist',
  minify: true,
});
// dist/help.json: --version and --help answered by bin/cssctl.js without loading the CLI.
await (await import('./gen-help.mjs')).writeHelpFile();
