// Writes dist/THIRD-PARTY-NOTICES.md: the licence of every package whose code esbuild put into the shipped
// files, taken from the packages' own files, so it cannot drift from what the bundle holds. Run by
// scripts/build.mjs with the metafiles of the shipped bundles; a package added to the bundle is listed by the
// next build, and one without a licence text fails the build.
import { existsSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join, resolve, sep } from 'node:path';

/** The package folder of a bundled input (`node_modules/@scope/name/lib/x.js` → `…/node_modules/@scope/name`). */
export function packageDir(input) {
  const parts = input.split(/[\\/]/);
  const i = parts.lastIndexOf('node_modules');
  if (i < 0) return undefined;
  const len = parts[i + 1]?.startsWith('@') ? 2 : 1;
  return parts.slice(0, i + 1 + len).join(sep);
}

/** The bundled packages of some esbuild metafiles: their folders under `root`, each once, sorted. */
export function bundledPackages(metafiles, root) {
  const dirs = new Set();
  for (const meta of metafiles)
    for (const input of Object.keys(meta.inputs)) {
      // Plugin namespaces (`builtin:fs`, `lazy-http2:http2`) are cssctl's own stand-ins.
      if (/^[a-z-]+:/.test(input)) continue;
      const dir = packageDir(input);
      if (dir) dirs.add(resolve(root, dir));
    }
  return [...dirs].sort();
}

const LICENCE_FILE = /^(licen[cs]e|copying|notice)(\.|-|$)/i;

/** One package's notice: name, version, licence, and the text of its licence files. */
export function packageNotice(dir) {
  const pkg = JSON.parse(readFileSync(join(dir, 'package.json'), 'utf8'));
  const files = readdirSync(dir)
    .filter((f) => LICENCE_FILE.test(f))
    .sort();
  if (files.length === 0)
    throw new Error(`build: ${pkg.name}@${pkg.version} is bundled but ships no licence file (${dir})`);
  const licence = typeof pkg.license === 'string' ? pkg.license : (pkg.license?.type ?? 'see below');
  const texts = files.map((f) => readFileSync(join(dir, f), 'utf8').trim());
  return { name: pkg.name, version: pkg.version, licence, texts, dir };
}

export function renderNotices(notices, self) {
  const head = `# Third-party notices\n\n${self} bundles the following packages into its files. Their licences follow.\n`;
  const within = (n) => (n.builtIn ?? []).map((b) => `\n  - ${named(b)} (${b.licence}), ${b.where}`);
  const list = notices.map((n) => `- ${n.name} ${n.version} (${n.licence})${within(n).join('')}`).join('\n');
  const block = (t) => `\`\`\`\n${t}\n\`\`\``;
  const body = notices
    .map((n) =>
      [
        `## ${n.name} ${n.version}\n\nLicence: ${n.licence}`,
        ...n.texts.map(block),
        ...(n.builtIn ?? []).map(
          (b) => `### ${named(b)}, ${b.where}\n\nLicence: ${b.licence}\n\n${block(b.text)}`,
        ),
      ].join('\n\n'),
    )
    .join('\n\n');
  return `${head}\n${list}\n\n${body}\n`;
}

/**
 * Software compiled into a package's own build whose licence the package does not ship: the texts are kept in
 * licenses/, copied from the upstream sources at the versions that build holds. They are tied to the
 * package's version (jq-wasm's names the jq it compiles), so an upgrade fails the build until someone checks
 * what the new build holds.
 */
const BUILT_IN = {
  'jq-wasm': {
    version: '3.0.0-jq-1.8.2',
    where: "compiled into jq-wasm's WebAssembly (dist/jq.wasm)",
    parts: [
      // jq's COPYING also covers the decNumber code in jq's tree.
      { name: 'jq', version: '1.8.2', licence: 'MIT', file: 'licenses/jq-1.8.2-COPYING' },
      // jq 1.8.2 is built --with-oniguruma=builtin: its vendor/oniguruma submodule, pinned at 6.9.10.
      {
        name: 'Oniguruma',
        version: '6.9.10',
        licence: 'BSD-2-Clause',
        file: 'licenses/oniguruma-6.9.10-COPYING',
      },
      // The WebAssembly and its JavaScript loader are Emscripten's output: its runtime, and the musl libc
      // Emscripten builds in (texts from emscripten-core/emscripten: LICENSE, system/lib/libc/musl/COPYRIGHT).
      // The wasm records no version (jq's configure line names only CC=/emsdk/.../emcc): jq-wasm's Dockerfile
      // builds it in the emscripten/emsdk:6.0.0 image, and Emscripten's 6.0.0 tag takes its libc from musl
      // 1.2.6 (system/lib/libc/README.md there).
      { name: 'Emscripten', version: '6.0.0', licence: 'MIT OR NCSA', file: 'licenses/emscripten-LICENSE' },
      { name: 'musl libc', version: '1.2.6', licence: 'MIT', file: 'licenses/musl-COPYRIGHT' },
    ],
  },
};

/** A compiled-in part's name and, when known, its version. */
const named = (b) => (b.version ? `${b.name} ${b.version}` : b.name);

/** The notices of what is compiled into a package's build (BUILT_IN), or none. */
export function builtInNotices(notice, root, builtIn = BUILT_IN) {
  const entry = builtIn[notice.name];
  if (!entry) return [];
  if (entry.version !== notice.version)
    throw new Error(
      `build: ${notice.name} is ${notice.version}, but the licences of what its build compiles in were checked ` +
        `for ${entry.version} (scripts/notices.mjs BUILT_IN, licenses/): check them again`,
    );
  return entry.parts.map((p) => ({
    name: p.name,
    version: p.version,
    licence: p.licence,
    where: entry.where,
    text: readFileSync(join(root, p.file), 'utf8').trim(),
  }));
}

/** Writes `file` from the metafiles of the builds that ship; returns the packages it names. */
export function writeNotices(metafiles, root, file, self) {
  const notices = bundledPackages(metafiles, root)
    .filter((dir) => existsSync(join(dir, 'package.json')))
    .map(packageNotice)
    .sort((a, b) => a.name.localeCompare(b.name) || a.version.localeCompare(b.version));
  const listed = onePerVersion(notices);
  for (const n of listed) n.builtIn = builtInNotices(n, root);
  writeFileSync(file, renderNotices(listed, self));
  return listed;
}

/**
 * Each package version once: the same version installed in two folders (npm could not hoist one copy for every
 * dependant) is one entry, with its first folder; two versions of a package are two entries, and so is one
 * version whose folders hold different licence texts.
 */
export function onePerVersion(notices) {
  const seen = new Map();
  return notices.filter((n) => {
    const key = JSON.stringify([n.name, n.version, n.licence, n.texts]);
    if (seen.has(key)) return false;
    seen.set(key, n);
    return true;
  });
}
