// `npm run release`: what a release publishes, in dist/release/, so a user can check what they download:
// - cssctl-<version>.tgz: the npm package (`npm pack` of the build);
// - the single executables this machine builds (scripts/build-exe.mjs): on Linux x64, cssctl-linux-x64 and
//   cssctl-linux-arm64 (Node from the npm registry's node-linux-<arch>; the arm64 one's code cache taken under
//   qemu-user), each with its licences (<name>.LICENSES.md); the release workflow builds the others (macOS,
//   Windows) on their own runners and assembles them here with `--assemble`;
// - cssctl.cdx.json: a CycloneDX SBOM of what they hold (scripts/sbom.mjs), checked against the schema;
// - cssctl.rb and cssctl.json: a Homebrew formula and a Scoop manifest whose URLs and sums come from the files
//   (scripts/package-managers.mjs), for the executables the release has;
// - SHA256SUMS over all of them, in the format `sha256sum -c SHA256SUMS` reads.
//
// Two releases of one commit give the same bytes (`npm run release:verify` checks it): dates are the commit's
// (SOURCE_DATE_EPOCH, set here from `git log -1 --format=%ct` unless given), the SBOM's timestamp is that date and
// its serial number a UUID derived from the commit and the files' sums, and the executables' code cache is made
// with a fixed seed (scripts/code-cache.mjs TRAINING_FLAGS).
//
// What a build needs (qemu-aarch64 and the arm64 libraries for the arm64 executable on x64, git, npm) is checked
// before anything is built, and a release that fails or is stopped leaves no process behind.
import { execFileSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import {
  copyFileSync,
  constants,
  existsSync,
  mkdirSync,
  readdirSync,
  readFileSync,
  rmSync,
  writeFileSync,
} from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import {
  ALL_TARGETS,
  buildExe,
  distRecord,
  NOT_ON_REGISTRY,
  npm,
  exeName,
  keytarAddonPackages,
  missingTools,
  NODE_VERSION,
  onPath,
  RELEASE_TARGETS,
} from './build-exe.mjs';
import { githubRepository, homebrewFormula, scoopManifest } from './package-managers.mjs';
import { makeBom, releaseIdentity, serialize, validate } from './sbom.mjs';

const root = fileURLToPath(new URL('..', import.meta.url));

const sha256 = (file) => createHash('sha256').update(readFileSync(file)).digest('hex');
const git = (...args) => execFileSync('git', args, { cwd: root, encoding: 'utf8' }).trim();

/** The commit a release is made of, and its date (SOURCE_DATE_EPOCH when given). */
export function releaseCommit(env = process.env) {
  const commit = git('rev-parse', 'HEAD');
  const given = Number(env.SOURCE_DATE_EPOCH);
  const epoch =
    Number.isInteger(given) && given > 0 ? given : Number(git('log', '-1', '--format=%ct', commit));
  return { commit, epoch };
}

/**
 * The registry's record of the Node inside an executable for `target` (name, version, integrity): from the
 * download scripts/build-exe.mjs keeps, else asked of the registry (the release workflow assembles executables
 * built on other runners).
 */
function registryRecord(target) {
  const name = `node-${target}`;
  const kept = join(
    process.env.HOME ?? '',
    '.cache',
    'cssctl-sea-node',
    `${name}-${NODE_VERSION}`,
    'registry.json',
  );
  if (existsSync(kept)) return JSON.parse(readFileSync(kept, 'utf8'));
  if (NOT_ON_REGISTRY.has(target)) return distRecord(target);
  const integrity = JSON.parse(
    npm(['view', '--json', `${name}@${NODE_VERSION}`, 'dist.integrity'], {
      encoding: 'utf8',
    }),
  );
  return { name, version: NODE_VERSION, integrity };
}

/**
 * The release's files as the SBOM describes them, from what `out` holds: the tarball (the bundle, and keytar as
 * a dependency), each executable (the bundle, its Node, keytar's addon when its licences name it: only an
 * executable built on its own kind of machine carries it) and its licences.
 */
export function releaseFiles(out, version) {
  const names = readdirSync(out);
  const files = [];
  const tarball = `cssctl-${version}.tgz`;
  if (names.includes(tarball))
    files.push({
      name: tarball,
      description: `the npm package: npm install -g --allow-scripts=keytar ./${tarball}`,
      holds: { bundle: true, keytar: true },
    });
  for (const target of ALL_TARGETS) {
    const name = exeName(target);
    if (!names.includes(name)) continue;
    const licences = readFileSync(join(out, `${name}.LICENSES.md`), 'utf8');
    const node = registryRecord(target);
    if (!licences.includes(`## Node.js ${node.version}`))
      throw new Error(
        `release: ${name}.LICENSES.md does not name Node.js ${node.version}, the Node inside it`,
      );
    files.push({
      name,
      description: `the single executable for ${target} (Node.js ${node.version} inside)`,
      holds: {
        bundle: true,
        keytarAddon: licences.includes("(compiled into keytar's addon, keytar.node)"),
        node,
      },
    });
    files.push({ name: `${name}.LICENSES.md`, description: `the licences of ${name}`, holds: {} });
  }
  for (const f of files) f.sha256 = sha256(join(out, f.name));
  return files;
}

/** The SBOM of the release in `out`, as the bytes written (the same bytes for the same files and commit). */
export function releaseSbom({ out, version, commit, epoch }) {
  const files = releaseFiles(out, version);
  const bom = makeBom({
    root,
    version,
    files,
    keytarPackages: keytarAddonPackages(),
    commit,
    ...releaseIdentity({ commit, epoch, files }),
  });
  return serialize(bom);
}

/**
 * The parts of a release made from its files: the SBOM (validated), the Homebrew formula and the Scoop manifest
 * (for the executables present), then SHA256SUMS over everything.
 */
export async function assemble({ out, commit, epoch, tag, repo }) {
  const pkg = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8'));
  for (const n of ['cssctl.cdx.json', 'cssctl.rb', 'cssctl.json', 'SHA256SUMS'])
    rmSync(join(out, n), { force: true });
  const sbom = releaseSbom({ out, version: pkg.version, commit, epoch });
  const invalid = await validate(sbom);
  if (invalid)
    throw new Error(`release: the SBOM is not valid CycloneDX: ${JSON.stringify(invalid, null, 2)}`);
  writeFileSync(join(out, 'cssctl.cdx.json'), sbom);

  const sums = Object.fromEntries(readdirSync(out).map((n) => [n, sha256(join(out, n))]));
  const place = { pkg, repo: repo ?? githubRepository(pkg), tag: tag ?? `v${pkg.version}`, sums };
  const formula = homebrewFormula(place);
  if (formula) writeFileSync(join(out, 'cssctl.rb'), formula);
  const manifest = scoopManifest(place);
  if (manifest) writeFileSync(join(out, 'cssctl.json'), manifest);

  writeFileSync(
    join(out, 'SHA256SUMS'),
    readdirSync(out)
      .filter((n) => n !== 'SHA256SUMS')
      .sort()
      .map((n) => `${sha256(join(out, n))}  ${n}\n`)
      .join(''),
  );
}

/** What is missing to make a release here, as one sentence, or undefined. */
export function releaseMissing(targets = RELEASE_TARGETS, path = process.env.PATH) {
  const tools = ['git', 'npm'].filter((t) => !onPath(process.platform === 'win32' ? `${t}.exe` : t, path));
  const lacking = missingTools(targets, { path });
  if (!tools.length) return lacking;
  const line = `missing ${tools.join(' and ')} (not on PATH)`;
  return lacking ? `${line}; ${lacking.replace(/^missing /, '')}` : `${line}. Nothing was built.`;
}

async function release() {
  const out = join(root, 'dist', 'release');
  const started = Date.now();
  const step = (what) => console.log(`release: ${what} (${((Date.now() - started) / 1000).toFixed(0)} s)`);
  const lacking = releaseMissing();
  if (lacking) throw new Error(`release: ${lacking}`);
  const { commit, epoch } = releaseCommit();
  // Every date in the build (the man pages') is the commit's.
  process.env.SOURCE_DATE_EPOCH = String(epoch);
  if (git('status', '--porcelain', '--untracked-files=no'))
    console.warn(
      `release: the checkout has changes not committed: this release is not exactly commit ${commit}`,
    );

  execFileSync(process.execPath, [join(root, 'scripts/build.mjs'), '--if-changed'], { stdio: 'inherit' });
  rmSync(out, { recursive: true, force: true });
  mkdirSync(out, { recursive: true });
  // The npm package, from the build above (--ignore-scripts: prepack would only find it up to date).
  const [packed] = JSON.parse(
    npm(['pack', '--json', '--silent', '--ignore-scripts', '--pack-destination', out], {
      cwd: root,
      encoding: 'utf8',
    }),
  );
  step(packed.filename);
  for (const target of RELEASE_TARGETS) {
    const exe = await buildExe({ target, buildFirst: false });
    const name = exeName(target);
    // A copy: the release keeps these bytes whatever a later build:exe writes to dist/.
    copyFileSync(exe.output, join(out, name), constants.COPYFILE_FICLONE);
    copyFileSync(`${exe.output}.LICENSES.md`, join(out, `${name}.LICENSES.md`));
    step(name);
  }
  await assemble({ out, commit, epoch, repo: process.env.CSSCTL_RELEASE_REPOSITORY });
  step(`${out}: ${readdirSync(out).sort().join(', ')}`);
}

if (import.meta.main) {
  const { installStopHandlers, stopChildren } = await import('./code-cache.mjs');
  // Stopped by a signal: the children first (the code-cache sandbox, a Node under qemu), then the exit code a
  // shell gives a process killed by that signal.
  installStopHandlers('release');
  const i = process.argv.indexOf('--assemble');
  try {
    if (i > 0) {
      // The release workflow: the files built on each runner are in the folder given; made here are the SBOM,
      // the formula, the manifest and SHA256SUMS.
      const { commit, epoch } = releaseCommit();
      await assemble({
        out: process.argv[i + 1],
        commit,
        epoch,
        tag: process.env.GITHUB_REF_NAME,
        repo: process.env.CSSCTL_RELEASE_REPOSITORY,
      });
    } else await release();
  } catch (err) {
    stopChildren();
    console.error(err instanceof Error ? err.message : String(err));
    process.exit(1);
  }
}
