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
  return { name: pkg.name, version: pkg.version, licence, texts };
}

export function renderNotices(notices, self) {
  const head = `# Third-party notices\n\n${self} bundles the following packages into its files. Their licences follow.\n`;
  const list = notices.map((n) => `- ${n.name} ${n.version} (${n.licence})`).join('\n');
  const body = notices
    .map(
      (n) =>
        `## ${n.name} ${n.version}\n\nLicence: ${n.licence}\n\n${n.texts.map((t) => `\`\`\`\n${t}\n\`\`\``).join('\n\n')}`,
    )
    .join('\n\n');
  return `${head}\n${list}\n\n${body}\n`;
}

/** Writes `file` from the metafiles of the builds that ship; returns the packages it names. */
/** jq-wasm's WebAssembly is jq 1.8.2 itself: jq's COPYING (which also covers the decNumber code in it). */
const BUILT_IN = { 'jq-wasm': ['licenses/jq-1.8.2-COPYING'] };

export function writeNotices(metafiles, root, file, self) {
  const notices = bundledPackages(metafiles, root)
    .filter((dir) => existsSync(join(dir, 'package.json')))
    .map(packageNotice)
    .sort((a, b) => a.name.localeCompare(b.name) || a.version.localeCompare(b.version));
  // Software compiled into a package's own build, whose licence the package does not ship (licenses/).
  for (const n of notices)
    for (const extra of BUILT_IN[n.name] ?? []) n.texts.push(readFileSync(join(root, extra), 'utf8').trim());
  // The same package at two versions (nested node_modules) is listed twice; the same folder once.
  writeFileSync(file, renderNotices(notices, self));
  return notices;
}
