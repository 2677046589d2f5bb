// `npm run build:exe`: the single executable dist/cssctl-<os>-<arch>, made with Node's own single-executable
// support (`node --build-sea`, Node >= 25.5; no other tool). It is a Node binary carrying cssctl's bundle, its
// help text, a V8 code cache and keytar's addon as assets, and it starts with a larger young generation
// (START_FLAGS): it runs where no Node is installed. An export runs in the executable started again with the
// export flags (bin/cssctl.cjs relaunch). The Node it is made from is this one when new enough, else Node 26 from
// the npm registry's `node` package (as scripts/lib.sh brings Node 24), in ~/.cache/cssctl-node-26.
import { execFileSync, spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, realpathSync, writeFileSync } from 'node:fs';
import { homedir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { build } from 'esbuild';

const root = fileURLToPath(new URL('..', import.meta.url));
const dist = join(root, 'dist');
const work = join(dist, 'sea');
export const exeName = `cssctl-${process.platform}-${process.arch}`;

/**
 * The flags every command of the executable starts with: a young generation of 16 MB from the start, where
 * V8 would start at 1 MB and collect several times while the CLI loads (~2 ms of a request command; `npm run
 * bench`, section 1c). The package cannot give node flags; the executable can, and this one leaves the code
 * cache of Node's own modules usable (V8 refuses it under the export flags: those would cost ~3 ms).
 */
export const START_FLAGS = ['--min-semi-space-size=16'];

const canBuildSea = (version) => {
  const [a, b] = version.replace(/^v/, '').split('.').map(Number);
  return a > 25 || (a === 25 && b >= 5);
};

/** A Node that has --build-sea: this one, CSSCTL_SEA_NODE, or Node 26 from the npm registry. */
function seaNode() {
  if (canBuildSea(process.version)) return process.execPath;
  if (process.env.CSSCTL_SEA_NODE) return process.env.CSSCTL_SEA_NODE;
  const dir = join(homedir(), '.cache', 'cssctl-node-26');
  const bin = join(dir, 'node_modules', '.bin', 'node');
  const ok = () =>
    existsSync(bin) && canBuildSea(execFileSync(bin, ['--version'], { encoding: 'utf8' }).trim());
  if (!ok()) {
    console.error(`build:exe: installing Node.js 26 into ${dir} (this is ${process.version})`);
    mkdirSync(dir, { recursive: true });
    execFileSync('npm', ['install', '--no-save', '--no-audit', '--no-fund', '--loglevel=error', 'node@26'], {
      cwd: dir,
      stdio: 'inherit',
    });
  }
  if (!ok()) throw new Error('build:exe: could not get a Node.js >= 25.5');
  return bin;
}

/**
 * The executable's licences, to ship beside it: cssctl's own, those of the packages bundled into it
 * (dist/THIRD-PARTY-NOTICES.md) and, as it is a Node binary, Node's (with those of the libraries Node bundles),
 * from the npm `node` package's files or a Node installation's.
 */
function writeLicences(node, file) {
  const real = realpathSync(node);
  const candidates = [
    join(dirname(real), '..', 'node_modules', `node-${process.platform}-${process.arch}`, 'LICENSE'),
    join(dirname(real), '..', 'LICENSE'),
    join(dirname(real), '..', 'share', 'doc', 'node', 'LICENSE'),
  ];
  const nodeLicence = candidates.find((f) => existsSync(f));
  const parts = [
    `# Licences of ${exeName}\n\n## cssctl\n\n\`\`\`\n${readFileSync(join(root, 'LICENSE'), 'utf8').trim()}\n\`\`\``,
    readFileSync(join(dist, 'THIRD-PARTY-NOTICES.md'), 'utf8')
      .replace(/^# /, '## ')
      .replace(/^## (?!Third)/gm, '### '),
    `## Node.js ${execFileSync(node, ['--version'], { encoding: 'utf8' }).trim()}\n\nThe executable is a Node.js binary. ` +
      (nodeLicence
        ? `Its licence, with those of the libraries it bundles:\n\n\`\`\`\n${readFileSync(nodeLicence, 'utf8').trim()}\n\`\`\``
        : 'Its licence: https://github.com/nodejs/node/blob/main/LICENSE (not found beside this Node).'),
  ];
  writeFileSync(file, `${parts.join('\n\n')}\n`);
}

export async function buildExe() {
  const node = seaNode();
  // The package's build first: dist/cli.cjs, dist/help.json, the sandbox the code cache is trained against.
  execFileSync(process.execPath, [join(root, 'scripts/build.mjs')], { stdio: 'inherit' });
  mkdirSync(work, { recursive: true });
  await build({
    entryPoints: [join(root, 'scripts/sea-main.mjs')],
    outfile: join(work, 'main.cjs'),
    bundle: true,
    platform: 'node',
    format: 'cjs',
    target: 'node26',
    minify: true,
    // src/core/keychain-worker.ts serves on its own only as a script of its own (import.meta.main); here
    // sea-main.mjs starts it, with keytar from the assets, so its import.meta.url is never read.
    define: { 'import.meta.main': 'false' },
    logOverride: { 'empty-import-meta': 'silent' },
    logLevel: 'warning',
  });
  // The code cache, taken by the very Node the executable is made of, under the flags it starts with.
  const { writeCodeCache } = await import('./code-cache.mjs');
  writeCodeCache({ node, flags: START_FLAGS, out: join(work, 'cli.cache') });
  const keytar = join(root, 'node_modules/keytar/build/Release/keytar.node');
  const assets = {
    'cli.cjs': join(dist, 'cli.cjs'),
    'cli.cjs.map': join(dist, 'cli.cjs.map'), // for --verbose stack traces
    'help.json': join(dist, 'help.json'),
    'cli.cache': join(work, 'cli.cache'),
    // Built apart from the bundle and required only by the commands that need them (bin/cssctl.cjs apart()).
    'config-writer.cjs': join(dist, 'config-writer.cjs'),
    'jq.cjs': join(dist, 'jq.cjs'),
    'help-topics.cjs': join(dist, 'help-topics.cjs'),
    'mcp.cjs': join(dist, 'mcp.cjs'),
    ...(existsSync(keytar) ? { 'keytar.node': keytar } : {}),
  };
  if (!assets['keytar.node'])
    console.warn('build:exe: keytar is not built: the executable will keep credentials in the file store');
  const output = join(dist, exeName);
  const config = join(work, 'sea-config.json');
  writeFileSync(
    config,
    JSON.stringify(
      {
        main: join(work, 'main.cjs'),
        mainFormat: 'commonjs',
        executable: node,
        output,
        disableExperimentalSEAWarning: true,
        // Flags at start-up (not changed later).
        execArgv: START_FLAGS,
        // An export starts the executable again with `--node-options=<the export flags>` (bin/cssctl.cjs
        // relaunch); NODE_OPTIONS, meant for the user's own node, is not read.
        execArgvExtension: 'cli',
        assets,
      },
      null,
      2,
    ),
  );
  const made = spawnSync(node, ['--build-sea', config], { stdio: 'inherit' });
  if (made.status !== 0) throw new Error(`build:exe: node --build-sea failed (${made.status})`);
  // The cache must be the one V8 takes: checked, as a build that silently starts slow is a broken build.
  const check = spawnSync(output, ['config', 'path'], {
    env: { PATH: '/usr/bin:/bin', HOME: work, CSSCTL_DEBUG_STARTUP: '1' },
    encoding: 'utf8',
  });
  if (!check.stderr.includes('compiled from code cache'))
    throw new Error(`build:exe: the executable did not take its code cache: ${check.stderr}${check.stdout}`);
  writeLicences(node, `${output}.LICENSES.md`);
  console.log(`build:exe: ${output}`);
  return output;
}

if (import.meta.main) await buildExe();
