// The release's SBOM (dist/release/cssctl.cdx.json, `npm run release`): a CycloneDX 1.6 JSON document of what the
// release's files hold, made and checked with the CycloneDX project's own library (@cyclonedx/cyclonedx-library:
// its models, serializer and the JSON schema validator it ships).
// - metadata.component: cssctl itself.
// - components: every npm package bundled into dist/ (dist/bundled.json, written by scripts/build.mjs from
//   esbuild's metafiles: the list THIRD-PARTY-NOTICES.md is made from) with its version, licence, purl and the
//   SHA-512 of its registry tarball (package-lock.json's integrity); what jq-wasm compiles into its WebAssembly
//   (jq, Oniguruma, Emscripten's runtime, musl) nested in it; keytar (a dependency of the npm package; its addon is
//   inside the executable for this machine) and node-addon-api (compiled into that addon); the Node.js each
//   executable is (node-linux-<arch> from the npm registry, with its tarball's SHA-512); and the release's files
//   (type `file`, with their SHA-256) whose `dependencies` say which of the above each holds.
import { Buffer } from 'node:buffer';
import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import * as CDX from '@cyclonedx/cyclonedx-library';
import { PackageURL } from 'packageurl-js';
import spdxParse from 'spdx-expression-parse';

export const SPEC = CDX.Spec.Spec1dot6;

/** Known origins of what jq-wasm compiles in (scripts/notices.mjs BUILT_IN): their release tags. */
const BUILT_IN_PURLS = {
  jq: (v) => new PackageURL('github', 'jqlang', 'jq', `jq-${v}`).toString(),
  Oniguruma: (v) => new PackageURL('github', 'kkos', 'oniguruma', `v${v}`).toString(),
  Emscripten: (v) => new PackageURL('github', 'emscripten-core', 'emscripten', v).toString(),
  'musl libc': (v) =>
    new PackageURL('generic', undefined, 'musl', v, {
      download_url: `https://musl.libc.org/releases/musl-${v}.tar.gz`,
    }).toString(),
};

// An SPDX expression (`MIT OR NCSA`) is checked by spdx-expression-parse, which throws on one that is not.
const licenceFactory = new CDX.Contrib.License.Factories.LicenseFactory(spdxParse);
const builder = new CDX.Contrib.FromNodePackageJson.Builders.ComponentBuilder(
  new CDX.Contrib.FromNodePackageJson.Factories.ExternalReferenceFactory(),
  licenceFactory,
);

const npmPurl = (name, version) => {
  const [group, base] = name.startsWith('@') ? name.split('/') : [undefined, name];
  return new PackageURL('npm', group, base, version).toString();
};

/** An SRI integrity (`sha512-<base64>`) as a CycloneDX hash. */
function hashesOf(integrity) {
  const hashes = new CDX.Models.HashDictionary();
  const m = /^sha512-([A-Za-z0-9+/=]+)$/.exec(integrity ?? '');
  if (m) hashes.set(CDX.Enums.HashAlgorithm['SHA-512'], Buffer.from(m[1], 'base64').toString('hex'));
  return hashes;
}

/** An npm package's component, from its own package.json, with its purl and its registry tarball's hash. */
function npmComponent(root, dir, lock) {
  const pkg = JSON.parse(readFileSync(join(root, dir, 'package.json'), 'utf8'));
  const c = builder.makeComponent(pkg);
  if (!c) throw new Error(`sbom: no component from ${dir}/package.json`);
  c.purl = npmPurl(pkg.name, pkg.version);
  c.bomRef.value = c.purl;
  // The lockfile names a package by its folder; a folder reached through a link (a git worktree) by its tail.
  const key = dir.slice(dir.indexOf('node_modules/'));
  c.hashes = hashesOf(lock.packages?.[key]?.integrity);
  return c;
}

/**
 * A name-based UUID (RFC 9562 version 5: SHA-1 of a namespace and a name, version and variant bits set) as a
 * CycloneDX serial number. The namespace is RFC 9562's URL namespace; the name says what the BOM describes.
 */
export function uuidV5(name, namespace = '6ba7b811-9dad-11d1-80b4-00c04fd430c8') {
  const ns = Buffer.from(namespace.replaceAll('-', ''), 'hex');
  const h = createHash('sha1').update(ns).update(name).digest().subarray(0, 16);
  h[6] = (h[6] & 0x0f) | 0x50;
  h[8] = (h[8] & 0x3f) | 0x80;
  const x = h.toString('hex');
  return `${x.slice(0, 8)}-${x.slice(8, 12)}-${x.slice(12, 16)}-${x.slice(16, 20)}-${x.slice(20)}`;
}

/**
 * What makes a release's SBOM the same in every rebuild of one commit: its timestamp is the commit's date
 * (`epoch`, SOURCE_DATE_EPOCH) and its serial number a UUID derived from the commit and the SHA-256 of every
 * file it describes (another commit, or other bytes, give another BOM and so another serial).
 */
export function releaseIdentity({ commit, epoch, files }) {
  const name = [`cssctl release ${commit}`, ...files.map((f) => `${f.sha256}  ${f.name}`).sort()].join('\n');
  return { timestamp: new Date(epoch * 1000), serialNumber: `urn:uuid:${uuidV5(name)}` };
}

/**
 * The BOM of a release. `files`: the release's files, each `{ name, sha256, holds }` where holds says what is
 * inside: `bundle` (dist/'s bundles), `keytar` (as a dependency, npm package), `keytarAddon` (keytar.node inside),
 * `node` (a registry Node: `{ name, version, integrity }`).
 */
export function makeBom({ root, version, files, keytarPackages, timestamp, serialNumber, commit }) {
  if (!(timestamp instanceof Date) || !serialNumber)
    throw new Error('sbom: a timestamp and a serial number are needed (from the commit: releaseIdentity)');
  const lock = JSON.parse(readFileSync(join(root, 'package-lock.json'), 'utf8'));
  const self = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8'));
  const bom = new CDX.Models.Bom();
  bom.serialNumber = serialNumber;
  bom.metadata.timestamp = timestamp;
  // The commit the release is made of: with the timestamp, what a rebuild needs to make the same BOM.
  if (commit) bom.metadata.properties.add(new CDX.Models.Property('cssctl:git:commit', commit));
  const app = builder.makeComponent({ ...self, version }, CDX.Enums.ComponentType.Application);
  app.purl = npmPurl(self.name, version);
  app.bomRef.value = app.purl;
  bom.metadata.component = app;

  const bundled = JSON.parse(readFileSync(join(root, 'dist', 'bundled.json'), 'utf8')).map((p) => {
    const c = npmComponent(root, p.dir, lock);
    for (const b of p.builtIn) {
      const purl = b.version ? BUILT_IN_PURLS[b.name]?.(b.version) : undefined;
      const inner = new CDX.Models.Component(CDX.Enums.ComponentType.Library, b.name, {
        version: b.version,
        purl,
        bomRef: `${c.purl}#${b.name}`,
        description: `compiled into ${p.name}'s WebAssembly`,
        licenses: new CDX.Models.LicenseRepository([licenceFactory.makeFromString(b.licence)]),
      });
      c.components.add(inner);
    }
    bom.components.add(c);
    return c;
  });
  const [keytar, ...addonParts] = keytarPackages.map((p) => {
    const c = npmComponent(root, relative(root, p.dir), lock);
    bom.components.add(c);
    return c;
  });
  // cssctl holds the bundled packages and needs keytar (optional) at run time.
  for (const c of bundled) app.dependencies.add(c.bomRef);
  app.dependencies.add(keytar.bomRef);
  for (const c of addonParts) keytar.dependencies.add(c.bomRef);

  const nodes = new Map();
  for (const f of files) {
    const hashes = new CDX.Models.HashDictionary();
    hashes.set(CDX.Enums.HashAlgorithm['SHA-256'], f.sha256);
    const file = new CDX.Models.Component(CDX.Enums.ComponentType.File, f.name, {
      version,
      bomRef: `file:${f.name}`,
      hashes,
      description: f.description,
    });
    for (const c of f.holds.bundle ? bundled : []) file.dependencies.add(c.bomRef);
    if (f.holds.keytar || f.holds.keytarAddon) file.dependencies.add(keytar.bomRef);
    if (f.holds.keytarAddon) for (const c of addonParts) file.dependencies.add(c.bomRef);
    if (f.holds.node) {
      const n = f.holds.node;
      let c = nodes.get(n.name);
      if (!c) {
        // From the npm registry (node-<target>, its tarball's SHA-512), or nodejs.org's tarball (its SHA-256).
        const purl = n.url
          ? new PackageURL('generic', undefined, 'node', n.version, { download_url: n.url }).toString()
          : npmPurl(n.name, n.version);
        const hashes = hashesOf(n.integrity);
        if (n.sha256) hashes.set(CDX.Enums.HashAlgorithm['SHA-256'], n.sha256);
        c = new CDX.Models.Component(CDX.Enums.ComponentType.Platform, n.name, {
          version: n.version,
          purl,
          bomRef: purl,
          description: `Node.js ${n.version} for ${n.name.replace(/^node-/, '')}, the runtime the executable is made of`,
          hashes,
          licenses: new CDX.Models.LicenseRepository([licenceFactory.makeFromString('MIT')]),
        });
        nodes.set(n.name, c);
        bom.components.add(c);
      }
      file.dependencies.add(c.bomRef);
    }
    bom.components.add(file);
  }
  return bom;
}

/** The BOM as CycloneDX 1.6 JSON. */
export function serialize(bom) {
  const serializer = new CDX.Serialize.JsonSerializer(new CDX.Serialize.JSON.Normalize.Factory(SPEC));
  return `${serializer.serialize(bom, { sortLists: true, space: 2 })}\n`;
}

/**
 * null when `json` is valid against the CycloneDX 1.6 JSON schema the library ships (strict: no property the
 * schema does not define; with the SPDX licence ids and the formats, through ajv, ajv-formats and
 * ajv-formats-draft2019), else what is wrong.
 */
export async function validate(json) {
  return new CDX.Validation.JsonStrictValidator(SPEC.version).validate(json);
}
