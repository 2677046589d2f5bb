// scripts/notices.mjs: the licences of what is compiled into a bundled package's own build (jq-wasm's
// WebAssembly holds jq and Oniguruma), which the package does not ship.
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { describe, expect, it } from 'vitest';

const root = fileURLToPath(new URL('../..', import.meta.url));

interface BuiltIn {
  name: string;
  version: string;
  licence: string;
  where: string;
  text: string;
}
interface Notice {
  name: string;
  version: string;
  licence: string;
  texts: string[];
  builtIn?: BuiltIn[];
}
const notices = (await import(pathToFileURL(join(root, 'scripts/notices.mjs')).href)) as {
  builtInNotices: (n: Notice, root: string) => BuiltIn[];
  renderNotices: (n: Notice[], self: string) => string;
  onePerVersion: (n: (Notice & { dir?: string })[]) => (Notice & { dir?: string })[];
};

const jqWasmDir = dirname(createRequire(import.meta.url).resolve('jq-wasm/package.json'));
const jqWasm = JSON.parse(readFileSync(join(jqWasmDir, 'package.json'), 'utf8')) as { version: string };
const notice = (version: string): Notice => ({
  name: 'jq-wasm',
  version,
  licence: 'MIT',
  texts: ['MIT text'],
});

describe('licences of what jq-wasm compiles in', () => {
  it('jq-wasm builds jq with its own Oniguruma', () => {
    // The configure line of jq's build is kept in the WebAssembly; "builtin" is jq's vendored Oniguruma.
    const wasm = readFileSync(join(jqWasmDir, 'dist/build/jq.wasm')).toString('latin1');
    expect(wasm).toContain('--with-oniguruma=builtin');
    expect(wasm).toContain('onig_initialize');
  });

  it("the WebAssembly is Emscripten's output", () => {
    const wasm = readFileSync(join(jqWasmDir, 'dist/build/jq.wasm')).toString('latin1');
    expect(wasm).toMatch(/CC=\S*emscripten\/emcc/);
  });

  it('names jq, Oniguruma, Emscripten and musl, each with its version and the upstream licence text', () => {
    const parts = notices.builtInNotices(notice(jqWasm.version), root);
    expect(parts.map((p) => `${p.name} ${p.version ?? '-'} ${p.licence}`)).toEqual([
      'jq 1.8.2 MIT',
      'Oniguruma 6.9.10 BSD-2-Clause',
      'Emscripten 6.0.0 MIT OR NCSA',
      'musl libc 1.2.6 MIT',
    ]);
    expect(parts[2]!.text).toContain('Copyright (c) 2010-2014 Emscripten authors');
    expect(parts[2]!.text).toContain('University of Illinois/NCSA Open Source License');
    expect(parts[3]!.text).toMatch(/^musl as a whole is licensed under the following standard MIT license/);
    expect(parts[0]!.text).toContain('jq is copyright (C) 2012 Stephen Dolan');
    expect(parts[1]!.text).toMatch(/^Oniguruma LICENSE\n/);
    expect(parts[1]!.text).toContain('Copyright (c) 2002-2021  K.Kosako');
    expect(parts[1]!.text).toContain('Redistributions in binary form must reproduce the above copyright');
    for (const p of parts) expect(p.where).toBe("compiled into jq-wasm's WebAssembly (dist/jq.wasm)");
  });

  it('renders them under jq-wasm, in the list and as sections of their own', () => {
    const n = notice(jqWasm.version);
    n.builtIn = notices.builtInNotices(n, root);
    const text = notices.renderNotices([n], 'cssctl 0.1.0');
    expect(text).toContain(
      "- jq-wasm 3.0.0-jq-1.8.2 (MIT)\n  - jq 1.8.2 (MIT), compiled into jq-wasm's WebAssembly (dist/jq.wasm)\n" +
        "  - Oniguruma 6.9.10 (BSD-2-Clause), compiled into jq-wasm's WebAssembly (dist/jq.wasm)\n" +
        "  - Emscripten 6.0.0 (MIT OR NCSA), compiled into jq-wasm's WebAssembly (dist/jq.wasm)\n" +
        "  - musl libc 1.2.6 (MIT), compiled into jq-wasm's WebAssembly (dist/jq.wasm)\n",
    );
    expect(text).toMatch(
      /^### Oniguruma 6\.9\.10, compiled into jq-wasm's WebAssembly \(dist\/jq\.wasm\)\n\nLicence: BSD-2-Clause\n\n```\nOniguruma LICENSE\n/m,
    );
    expect(text.indexOf('## jq-wasm')).toBeLessThan(text.indexOf('### jq 1.8.2'));
    expect(text.indexOf('### jq 1.8.2')).toBeLessThan(text.indexOf('### Oniguruma'));
  });

  it('fails the build when jq-wasm changes version, until its compiled-in licences are checked again', () => {
    expect(() => notices.builtInNotices(notice('3.1.0-jq-1.9.0'), root)).toThrow(
      /jq-wasm is 3\.1\.0-jq-1\.9\.0, but the licences .* were checked for 3\.0\.0-jq-1\.8\.2/,
    );
  });

  it('adds nothing to a package that compiles nothing in', () => {
    expect(notices.builtInNotices({ ...notice('1.0.0'), name: 'yaml' }, root)).toEqual([]);
  });
});

describe('each package version once', () => {
  it('one version in two folders is one entry (its first folder); two versions, or two texts, are two', () => {
    const at = (version: string, dir: string, text = 'MIT text') => ({
      name: '@octokit/request',
      version,
      licence: 'MIT',
      texts: [text],
      dir,
    });
    const listed = notices.onePerVersion([
      at('10.0.16', 'node_modules/@octokit/request'),
      at('10.0.16', 'node_modules/@octokit/core/node_modules/@octokit/request'),
      at('9.2.0', 'node_modules/@octokit/graphql/node_modules/@octokit/request'),
      at('10.0.16', 'node_modules/x/node_modules/@octokit/request', 'another text'),
    ]);
    expect(listed.map((n) => [n.version, n.dir])).toEqual([
      ['10.0.16', 'node_modules/@octokit/request'],
      ['9.2.0', 'node_modules/@octokit/graphql/node_modules/@octokit/request'],
      ['10.0.16', 'node_modules/x/node_modules/@octokit/request'],
    ]);
    const text = notices.renderNotices(listed.slice(0, 1), 'x');
    expect(text.match(/^## @octokit\/request 10\.0\.16$/gm)).toHaveLength(1);
  });
});
