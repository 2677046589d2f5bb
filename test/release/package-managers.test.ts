// The Homebrew formula and the Scoop manifest a release makes from its files (scripts/package-managers.mjs, written
// by scripts/release.mjs): each URL is the tag's download address of a file, each sum that file's SHA-256 (the one
// in SHA256SUMS); the formula parses as Ruby (`ruby -c`, Debian's ruby), the manifest is valid against Scoop's own
// JSON schema (test/fixtures/scoop/schema.json, from ScoopInstaller/Scoop v0.5.3, with its licence). Made here
// from a release of all five executables (files of a few bytes), and checked on the real release when there is one.
import { execFile } from 'node:child_process';
import { createHash } from 'node:crypto';
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { promisify } from 'node:util';
import type AjvType from 'ajv';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

const run = promisify(execFile);
const require = createRequire(import.meta.url);
const Ajv = require('ajv') as typeof AjvType.default;
const ROOT = fileURLToPath(new URL('../..', import.meta.url));
const REL = join(ROOT, 'dist', 'release');
const pkg = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as Record<string, string>;

interface Place {
  pkg: Record<string, unknown>;
  repo: string;
  tag: string;
  sums: Record<string, string>;
}
const pm = (await import(pathToFileURL(join(ROOT, 'scripts/package-managers.mjs')).href)) as {
  homebrewFormula: (p: Place) => string | undefined;
  scoopManifest: (p: Place) => string | undefined;
  githubRepository: (pkg: unknown) => string;
};

const TARGETS = ['linux-x64', 'linux-arm64', 'darwin-arm64', 'darwin-x64', 'win-x64'];
const nameOf = (t: string) => `cssctl-${t}${t.startsWith('win-') ? '.exe' : ''}`;
const sha = (s: string) => createHash('sha256').update(s).digest('hex');
const hasRuby = await run('ruby', ['--version']).then(
  () => true,
  () => false,
);

/** `url` → `sha256` pairs of a formula, in order. */
const formulaPairs = (rb: string) =>
  [...rb.matchAll(/url "([^"]+)"\n\s+sha256 "([0-9a-f]{64})"/g)].map((m) => [m[1]!, m[2]!] as const);

async function rubyParses(text: string) {
  const dir = mkdtempSync(join(tmpdir(), 'cssctl-formula-'));
  try {
    writeFileSync(join(dir, 'cssctl.rb'), text);
    const r = await run('ruby', ['-c', join(dir, 'cssctl.rb')]).then(
      (x) => ({ ok: true, out: x.stdout }),
      (e: { stderr: string }) => ({ ok: false, out: e.stderr }),
    );
    return r;
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

function scoopValidator() {
  const schema = JSON.parse(readFileSync(join(ROOT, 'test/fixtures/scoop/schema.json'), 'utf8')) as object;
  // Scoop's schema is draft-07, written for Visual Studio Code's checker (which ignores unknown formats).
  return new Ajv({ strict: false, allErrors: true, validateFormats: false }).compile(schema);
}

describe('the Homebrew formula and the Scoop manifest, made from the release files', () => {
  const sums = Object.fromEntries(TARGETS.map((t) => [nameOf(t), sha(`the bytes of ${t}`)]));
  const place = { pkg, repo: 'cssctl/cssctl', tag: `v${pkg.version}`, sums };

  it('the formula names every macOS and Linux executable with its sum, and parses as Ruby', async () => {
    const rb = pm.homebrewFormula(place)!;
    expect(formulaPairs(rb)).toEqual(
      ['darwin-arm64', 'darwin-x64', 'linux-arm64', 'linux-x64'].map((t) => [
        `https://github.com/cssctl/cssctl/releases/download/v${pkg.version}/${nameOf(t)}`,
        sums[nameOf(t)],
      ]),
    );
    expect(rb).toMatch(/on_macos do\n {4}on_arm do\n {6}url "[^"]+darwin-arm64"/);
    expect(rb).toMatch(/on_linux do\n {4}on_arm do\n {6}url "[^"]+linux-arm64"/);
    expect(rb).toContain(`version "${pkg.version}"`);
    if (!hasRuby)
      return console.warn('ruby is not installed (apt-get install ruby): the formula was not parsed');
    expect(await rubyParses(rb)).toEqual({ ok: true, out: 'Syntax OK\n' });
    // ruby -c can fail: a formula with a block left open does not parse.
    expect((await rubyParses(rb.replace(/\nend\n$/, '\n'))).ok).toBe(false);
  });

  it('a release with only the Linux executables gets a formula of those, and no manifest', () => {
    const linux = { ...place, sums: { 'cssctl-linux-x64': sums['cssctl-linux-x64']! } };
    const rb = pm.homebrewFormula(linux)!;
    expect(formulaPairs(rb).map(([u]) => u.split('/').pop())).toEqual(['cssctl-linux-x64']);
    expect(rb).not.toContain('on_macos');
    expect(pm.scoopManifest(linux)).toBeUndefined();
    expect(pm.homebrewFormula({ ...place, sums: {} })).toBeUndefined();
  });

  it('a description with quotes or #{…} stays a plain Ruby string', async () => {
    const rb = pm.homebrewFormula({ ...place, pkg: { ...pkg, description: 'say "hi" #{`id`} \\' } })!;
    expect(rb).toContain('desc "say \\"hi\\" \\#{`id`} \\\\"');
    if (hasRuby) expect((await rubyParses(rb)).ok).toBe(true);
  });

  it("the manifest has the Windows executable's URL and sum and is valid against Scoop's schema", () => {
    const manifest = JSON.parse(pm.scoopManifest(place)!) as {
      version: string;
      bin: string;
      architecture: { '64bit': { url: string; hash: string } };
    };
    expect(manifest.architecture['64bit']).toEqual({
      url: `https://github.com/cssctl/cssctl/releases/download/v${pkg.version}/cssctl-win-x64.exe#/cssctl.exe`,
      hash: sums['cssctl-win-x64.exe'],
    });
    expect(manifest).toMatchObject({ version: pkg.version, bin: 'cssctl.exe', license: 'MIT' });
    const validate = scoopValidator();
    expect(validate(manifest), JSON.stringify(validate.errors)).toBe(true);
    // The schema can fail: a hash that is not one, or a property Scoop does not know.
    expect(validate({ ...manifest, architecture: { '64bit': { url: 'x', hash: 'nope' } } })).toBe(false);
    expect(validate({ ...manifest, installer_of_doom: true })).toBe(false);
  });

  it("the repository comes from package.json's repository URL", () => {
    expect(pm.githubRepository({ repository: { url: 'git+https://github.com/o-1/n.x.git' } })).toBe(
      'o-1/n.x',
    );
    expect(() => pm.githubRepository({ repository: 'https://gitlab.com/o/n' })).toThrow(/not a GitHub/);
  });
});

describe.runIf(existsSync(join(REL, 'SHA256SUMS')))('the formula of the release in dist/release', () => {
  let sums: Record<string, string>;
  beforeAll(() => {
    sums = Object.fromEntries(
      readFileSync(join(REL, 'SHA256SUMS'), 'utf8')
        .trim()
        .split('\n')
        .map((l) => l.split(/ {2}/).reverse()),
    ) as Record<string, string>;
  });
  afterAll(() => undefined);

  it('has the sums of SHA256SUMS for the executables it names, and parses as Ruby', async () => {
    const rb = readFileSync(join(REL, 'cssctl.rb'), 'utf8');
    const pairs = formulaPairs(rb);
    expect(pairs.length).toBeGreaterThan(0);
    for (const [url, sum] of pairs) expect(sum, url).toBe(sums[decodeURIComponent(url.split('/').pop()!)]);
    if (hasRuby) expect((await rubyParses(rb)).ok).toBe(true);
    if (existsSync(join(REL, 'cssctl.json'))) {
      const m = JSON.parse(readFileSync(join(REL, 'cssctl.json'), 'utf8')) as {
        architecture: { '64bit': { hash: string } };
      };
      expect(m.architecture['64bit'].hash).toBe(sums['cssctl-win-x64.exe']);
    }
  });
});
