// The release as a user checks it (cli-contract.md §12, issue 29): what `npm run release` leaves in dist/release/
// (.ci/run makes it before the tests). Checked with the tools a user has: `sha256sum -c`, the CycloneDX schema
// (through @cyclonedx/cyclonedx-library's validator, which ships it), and the arm64 executable run under
// Debian's qemu-user against the sandbox on loopback. Without a release (a developer's checkout) the file is
// skipped; under CI=true a missing release fails.
import { execFile, execFileSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import {
  existsSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  symlinkSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { promisify } from 'node:util';
import * as CDX from '@cyclonedx/cyclonedx-library';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { World } from '../e2e/harness.js';

const run = promisify(execFile);
const ROOT = fileURLToPath(new URL('../..', import.meta.url));
const REL = join(ROOT, 'dist', 'release');
const made = existsSync(join(REL, 'SHA256SUMS'));
const pkg = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as { version: string };
const sha256 = (file: string) => createHash('sha256').update(readFileSync(file)).digest('hex');

interface Component {
  type: string;
  name: string;
  group?: string;
  version?: string;
  purl?: string;
  'bom-ref': string;
  hashes?: { alg: string; content: string }[];
  licenses?: ({ license: { id?: string; name?: string } } | { expression: string })[];
  components?: Component[];
}
interface Bom {
  components: Component[];
  dependencies: { ref: string; dependsOn?: string[] }[];
}

describe.runIf(made || process.env.CI === 'true')('the release (npm run release)', () => {
  it('holds the tarball, both executables with their licences, the SBOM and SHA256SUMS', () => {
    expect(readdirSync(REL).sort()).toEqual(
      [
        `cssctl-${pkg.version}.tgz`,
        'cssctl-linux-arm64',
        'cssctl-linux-arm64.LICENSES.md',
        'cssctl-linux-x64',
        'cssctl-linux-x64.LICENSES.md',
        'cssctl.cdx.json',
        'cssctl.rb',
        'SHA256SUMS',
      ].sort(),
    );
  });

  it('SHA256SUMS covers every other file, and `sha256sum -c` verifies them (and fails on a wrong sum)', async () => {
    const sums = readFileSync(join(REL, 'SHA256SUMS'), 'utf8');
    const names = sums
      .trim()
      .split('\n')
      .map((l) => /^[0-9a-f]{64} {2}(\S+)$/.exec(l)?.[1]);
    expect(names).toEqual(
      readdirSync(REL)
        .filter((n) => n !== 'SHA256SUMS')
        .sort(),
    );
    const ok = await run('sha256sum', ['-c', 'SHA256SUMS'], { cwd: REL });
    expect(ok.stdout.trim().split('\n')).toEqual(names.map((n) => `${n}: OK`));
    // The same files beside a list with one sum changed: sha256sum must say so.
    const dir = mkdtempSync(join(tmpdir(), 'cssctl-sums-'));
    try {
      for (const n of names) symlinkSync(join(REL, n!), join(dir, n!));
      const first = sums.slice(0, 64);
      const flipped = `${first.slice(0, 63)}${first[63] === '0' ? '1' : '0'}${sums.slice(64)}`;
      writeFileSync(join(dir, 'SHA256SUMS'), flipped);
      await expect(run('sha256sum', ['-c', 'SHA256SUMS'], { cwd: dir })).rejects.toMatchObject({
        stdout: expect.stringContaining(`${names[0]}: FAILED`),
      });
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  describe('the SBOM, cssctl.cdx.json', () => {
    let text: string;
    let bom: Bom;
    const validator = new CDX.Validation.JsonStrictValidator(CDX.Spec.Version.v1dot6);
    beforeAll(() => {
      text = readFileSync(join(REL, 'cssctl.cdx.json'), 'utf8');
      bom = JSON.parse(text) as Bom;
    });
    const dependsOn = (ref: string) => bom.dependencies.find((d) => d.ref === ref)?.dependsOn ?? [];
    const byPurl = (purl: string) => bom.components.find((c) => c.purl === purl);

    it('is valid CycloneDX 1.6 (the schema the CycloneDX library ships), which a broken one is not', async () => {
      expect(await validator.validate(text)).toBeNull();
      const broken = JSON.parse(text) as Bom;
      broken.components[0]!.hashes = [{ alg: 'SHA-999', content: 'x' }];
      expect(await validator.validate(JSON.stringify(broken))).not.toBeNull();
    });

    it('names every npm package bundled into dist/ with its version, licence, purl and registry hash', () => {
      const bundled = JSON.parse(readFileSync(join(ROOT, 'dist', 'bundled.json'), 'utf8')) as {
        name: string;
        version: string;
        licence: string;
      }[];
      expect(bundled.length).toBeGreaterThan(20);
      for (const p of bundled) {
        const purl = `pkg:npm/${p.name.replace('@', '%40')}@${p.version}`;
        const c = byPurl(purl);
        expect(c, purl).toBeDefined();
        expect(c!.version).toBe(p.version);
        expect(JSON.stringify(c!.licenses)).toContain(p.licence.replace(/[()]/g, ''));
        expect(c!.hashes?.find((h) => h.alg === 'SHA-512')?.content).toMatch(/^[0-9a-f]{128}$/);
      }
      // What jq-wasm compiles into its WebAssembly, inside it.
      const jq = bom.components.find((c) => c.name === 'jq-wasm')!;
      expect(jq.components?.map((c) => c.name).sort()).toEqual([
        'Emscripten',
        'Oniguruma',
        'jq',
        'musl libc',
      ]);
    });

    it('lists each file of the release with its SHA-256 and what it holds: Node in the executables, keytar', async () => {
      const files = bom.components.filter((c) => c.type === 'file');
      expect(files.map((f) => f.name).sort()).toEqual(
        readdirSync(REL)
          .filter((n) => !['SHA256SUMS', 'cssctl.cdx.json', 'cssctl.rb', 'cssctl.json'].includes(n))
          .sort(),
      );
      for (const f of files)
        expect(f.hashes).toEqual([{ alg: 'SHA-256', content: sha256(join(REL, f.name)) }]);
      // The Node inside each executable: the version the x64 one reports, from the registry package.
      const { stdout } = await run(join(REL, 'cssctl-linux-x64'), ['version', '--json']);
      const node = (JSON.parse(stdout) as { node: string }).node.replace(/^v/, '');
      for (const arch of ['x64', 'arm64']) {
        const purl = `pkg:npm/node-linux-${arch}@${node}`;
        expect(byPurl(purl)?.type).toBe('platform');
        expect(byPurl(purl)?.hashes?.[0]?.alg).toBe('SHA-512');
        expect(dependsOn(`file:cssctl-linux-${arch}`)).toContain(purl);
        expect(dependsOn(`file:cssctl-linux-${arch}`)).toContain('pkg:npm/undici@8.12.4');
      }
      // keytar's addon (and node-addon-api, compiled into it) only in the executable built on this machine.
      expect(dependsOn('file:cssctl-linux-x64')).toEqual(
        expect.arrayContaining(['pkg:npm/keytar@7.9.0', expect.stringMatching(/^pkg:npm\/node-addon-api@/)]),
      );
      expect(dependsOn('file:cssctl-linux-arm64').filter((r) => /keytar|addon/.test(r))).toEqual([]);
      expect(dependsOn(`file:cssctl-${pkg.version}.tgz`)).toContain('pkg:npm/keytar@7.9.0');
      expect(dependsOn(`file:cssctl-${pkg.version}.tgz`).filter((r) => r.includes('node-linux'))).toEqual([]);
    });
  });

  describe('made again from the same commit, the same bytes', () => {
    const release = import(pathToFileURL(join(ROOT, 'scripts/release.mjs')).href) as Promise<{
      releaseSbom: (o: { out: string; version: string; commit: string; epoch: number }) => string;
    }>;
    const identity = () => {
      const bom = JSON.parse(readFileSync(join(REL, 'cssctl.cdx.json'), 'utf8')) as {
        serialNumber: string;
        metadata: { timestamp: string; properties: { name: string; value: string }[] };
      };
      const commit = bom.metadata.properties.find((p) => p.name === 'cssctl:git:commit')!.value;
      return { bom, commit, epoch: Date.parse(bom.metadata.timestamp) / 1000 };
    };

    it("the SBOM: its serial number and timestamp are the commit's, not random, and the same twice", async () => {
      const { releaseSbom } = await release;
      const { bom, commit, epoch } = identity();
      expect(commit).toMatch(/^[0-9a-f]{40}$/);
      const date = execFileSync('git', ['show', '-s', '--format=%ct', commit], {
        cwd: ROOT,
        encoding: 'utf8',
      });
      expect(epoch).toBe(Number(date));
      expect(bom.serialNumber).toMatch(
        /^urn:uuid:[0-9a-f]{8}-[0-9a-f]{4}-5[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/,
      );
      const again = releaseSbom({ out: REL, version: pkg.version, commit, epoch });
      expect(again).toBe(readFileSync(join(REL, 'cssctl.cdx.json'), 'utf8'));
      expect(releaseSbom({ out: REL, version: pkg.version, commit, epoch })).toBe(again);
      // Another commit is another BOM: a serial derived from it, not a constant.
      const other = JSON.parse(
        releaseSbom({ out: REL, version: pkg.version, commit: '0'.repeat(40), epoch }),
      ) as {
        serialNumber: string;
      };
      expect(other.serialNumber).not.toBe(bom.serialNumber);
    });

    it('the npm tarball: packed again with the commit date, byte for byte the same', async () => {
      const { epoch } = identity();
      const dir = mkdtempSync(join(tmpdir(), 'cssctl-repack-'));
      try {
        const out = await run(
          'npm',
          ['pack', '--json', '--silent', '--ignore-scripts', '--pack-destination', dir],
          {
            cwd: ROOT,
            env: { ...process.env, SOURCE_DATE_EPOCH: String(epoch) },
          },
        );
        const [packed] = JSON.parse(out.stdout) as { filename: string }[];
        expect(
          sha256(join(dir, packed!.filename)),
          'the tarball differs from the release: is dist/ newer than the release? (npm run release)',
        ).toBe(sha256(join(REL, `cssctl-${pkg.version}.tgz`)));
      } finally {
        rmSync(dir, { recursive: true, force: true });
      }
    });
  });

  describe('cssctl-linux-arm64 under emulation (qemu-aarch64 with the arm64 libraries)', () => {
    let w: World;
    const exe = join(REL, 'cssctl-linux-arm64');
    const arm64 = (args: string[], opts: { input?: string; env?: Record<string, string> } = {}) =>
      w.run(['-L', '/usr/aarch64-linux-gnu', exe, ...args], {
        command: 'qemu-aarch64',
        timeoutMs: 120_000,
        ...opts,
      });
    beforeAll(async () => {
      w = await World.start();
    });
    afterAll(() => w.close());

    it('--version, and version --json says arm64, a single executable', async () => {
      const v = await arm64(['--version']);
      expect(v.code, v.stderr).toBe(0);
      expect(v.stdout).toBe(`${pkg.version}\n`);
      const j = await arm64(['version', '--json']);
      expect(JSON.parse(j.stdout)).toMatchObject({ platform: 'linux-arm64', build: 'single executable' });
    }, 180_000);

    it('logs in to the sandbox and makes a request, from the code cache built into it', async () => {
      const c = w.cred('acme', 'owner');
      const env = { CSSCTL_CREDENTIAL_STORE: 'file', CSSCTL_DEBUG_STARTUP: '1' };
      const login = await arm64(
        ['login', '--base-url', w.url, '-w', 'acme', '--email', c.email, '--password-stdin'],
        {
          input: `${c.password}\n`,
          env,
        },
      );
      expect(login.code, login.stderr).toBe(0);
      const list = await arm64(['connections', 'list', '--json'], { env });
      expect(list.code, list.stderr).toBe(0);
      expect((JSON.parse(list.stdout) as { alias: string }[]).map((x) => x.alias)).toContain('prod');
      expect(list.stderr).toBe(
        'cssctl: compiled from code cache under --min-semi-space-size=16 --no-flush-bytecode\n',
      );
      expect(
        w.sandbox.requests.some((r) => r.method === 'GET' && r.path.startsWith('/api/v1/connections')),
      ).toBe(true);
    }, 240_000);
  });
});
