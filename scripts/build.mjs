// Bundles the CLI (code-split so each verb loads only when run) and the sandbox service.
import { build } from 'esbuild';
import { readFileSync, rmSync } from 'node:fs';

rmSync(new URL('../dist', import.meta.url), { recursive: true, force: true });

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
    js: "import { createRequire as __cssctlCreateRequire } from 'node:module'; const require = __cssctlCreateRequire(import.meta.url);",
  },
  logLevel: 'warning',
};

await build({
  ...common,
  entryPoints: { cli: 'src/cli.ts' },
  outdir: 'dist',
  // Read only under --verbose (bin/cssctl.js), so stack traces name the TypeScript sources.
  sourcemap: 'linked',
  sourcesContent: false,
  splitting: true,
  chunkNames: 'chunks/[name]-[hash]',
  minify: true,
  // Functions and classes keep their names, so --verbose stack traces name them (not `e`, `t`).
  keepNames: true,
});
await build({ ...common, entryPoints: { sandbox: 'test/sandbox/main.ts' }, outdir: 'dist' });
// keytar in a child process cssctl can kill (src/core/keychain.ts).
await build({
  ...common,
  entryPoints: { 'keychain-worker': 'src/core/keychain-worker.ts' },
  outdir: 'dist',
  minify: true,
});
