// `npm run release`: what a release publishes, in dist/release/, so a user can check what they download:
// - cssctl-<version>.tgz: the npm package (`npm pack` of the build);
// - cssctl-linux-x64 and cssctl-linux-arm64: the single executables (scripts/build-exe.mjs; Node from the npm
//   registry's node-linux-<arch>; the arm64 one built on x64, its code cache taken under qemu-user), each with
//   its licences (<name>.LICENSES.md);
// - cssctl.cdx.json: a CycloneDX SBOM of what they hold (scripts/sbom.mjs), checked against the schema here;
// - SHA256SUMS over all of them, in the format `sha256sum -c SHA256SUMS` reads.
// test/release/release.test.ts checks the result as a user would (sha256sum -c, the schema, the arm64
// executable under qemu against the sandbox).
import { execFileSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import {
  copyFileSync,
  constants,
  mkdirSync,
  readdirSync,
  readFileSync,
  rmSync,
  writeFileSync,
} from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { buildExe, keytarAddonPackages, RELEASE_TARGETS } from './build-exe.mjs';
import { makeBom, serialize, validate } from './sbom.mjs';

const root = fileURLToPath(new URL('..', import.meta.url));
const out = join(root, 'dist', 'release');
const started = Date.now();
const step = (what) => console.log(`release: ${what} (${((Date.now() - started) / 1000).toFixed(0)} s)`);

const sha256 = (file) => createHash('sha256').update(readFileSync(file)).digest('hex');

execFileSync(process.execPath, [join(root, 'scripts/build.mjs'), '--if-changed'], { stdio: 'inherit' });
rmSync(out, { recursive: true, force: true });
mkdirSync(out, { recursive: true });
const { version } = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8'));

// The npm package, from the build above (--ignore-scripts: prepack would only find it up to date).
const [packed] = JSON.parse(
  execFileSync('npm', ['pack', '--json', '--silent', '--ignore-scripts', '--pack-destination', out], {
    cwd: root,
    encoding: 'utf8',
  }),
);
step(`${packed.filename}`);
const files = [
  {
    name: packed.filename,
    description: 'the npm package: npm install -g --allow-scripts=keytar ./' + packed.filename,
    holds: { bundle: true, keytar: true },
  },
];

for (const target of RELEASE_TARGETS) {
  const exe = await buildExe({ target });
  const name = `cssctl-${target}`;
  // A copy: the release keeps these bytes whatever a later build:exe writes to dist/.
  copyFileSync(exe.output, join(out, name), constants.COPYFILE_FICLONE);
  copyFileSync(`${exe.output}.LICENSES.md`, join(out, `${name}.LICENSES.md`));
  files.push({
    name,
    description: `the single executable for ${target} (Node.js ${exe.node.version} inside)`,
    holds: { bundle: true, keytarAddon: exe.keytar, node: exe.node },
  });
  files.push({ name: `${name}.LICENSES.md`, description: `the licences of ${name}`, holds: {} });
  step(name);
}

for (const f of files) f.sha256 = sha256(join(out, f.name));
const sbom = serialize(makeBom({ root, version, files, keytarPackages: keytarAddonPackages() }));
const invalid = await validate(sbom);
if (invalid) throw new Error(`release: the SBOM is not valid CycloneDX: ${JSON.stringify(invalid, null, 2)}`);
writeFileSync(join(out, 'cssctl.cdx.json'), sbom);

const sums = readdirSync(out)
  .filter((n) => n !== 'SHA256SUMS')
  .sort()
  .map((n) => `${sha256(join(out, n))}  ${n}\n`)
  .join('');
writeFileSync(join(out, 'SHA256SUMS'), sums);
step(`${out}: ${readdirSync(out).sort().join(', ')}`);
