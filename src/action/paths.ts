// Report paths (the sarif, junit, html and ocsf inputs, and --report in args): a path in a folder that does not
// exist yet (`sarif: out/results.sarif`) gets its folders made before the scan starts — inside the workspace only.
// A path whose missing folders would lie outside it (`../elsewhere/r.sarif`, or through a symlink that leads out)
// is refused before any request (exit 2, naming the input): the action makes no folder outside the checkout. A
// path outside the workspace in a folder that exists (`${{ runner.temp }}/r.sarif`) is written as the CLI would.
import { mkdirSync, realpathSync, rmdirSync, statSync } from 'node:fs';
import { dirname, isAbsolute, relative, resolve, sep } from 'node:path';
import { CliError, UsageError } from '../core/errors.js';
import type { ReportSpec } from '../report/report-spec.js';

/** The workspace: GITHUB_WORKSPACE, else the step's working folder. */
export function workspaceOf(env: NodeJS.ProcessEnv, cwd = process.cwd()): string {
  return resolve(cwd, env.GITHUB_WORKSPACE || '.');
}

function inside(root: string, path: string): boolean {
  const rel = relative(root, path);
  return rel === '' || (!rel.startsWith(`..${sep}`) && rel !== '..' && !isAbsolute(rel));
}

/** The nearest folder of `path` (itself included) that exists, and the folders below it that do not. */
function existing(path: string): { found: string; missing: string[] } {
  const missing: string[] = [];
  let dir = path;
  for (;;) {
    try {
      statSync(dir);
      return { found: dir, missing };
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code !== 'ENOENT') return { found: dir, missing };
    }
    missing.unshift(dir);
    const up = dirname(dir);
    if (up === dir) return { found: dir, missing };
    dir = up;
  }
}

/**
 * Makes the missing folders of each report's path, inside the workspace; returns the folders it made (deepest
 * last), which `removeEmpty` takes away again when no report was written in them. The input's name is the
 * report's format (`sarif`), or `args` for a --report that args gave.
 */
export function prepareReportFolders(
  reports: readonly (ReportSpec & { input: string })[],
  env: NodeJS.ProcessEnv,
  cwd = process.cwd(),
): string[] {
  const made: string[] = [];
  const root = workspaceOf(env, cwd);
  let realRoot: string;
  try {
    realRoot = realpathSync(root);
  } catch {
    realRoot = root;
  }
  for (const r of reports) {
    const folder = dirname(resolve(cwd, r.path));
    const { found, missing } = existing(folder);
    if (missing.length === 0) continue;
    let realFound: string;
    try {
      realFound = realpathSync(found);
    } catch {
      realFound = found;
    }
    // The folders to make, as they would be once the symlinks on the way are followed.
    const real = resolve(realFound, relative(found, folder));
    if (!inside(root, folder) || !inside(realRoot, real))
      throw new UsageError(
        `input ${r.input}: the folder of ${r.path} does not exist, and it is outside the workspace (${root}): the action makes folders only inside it`,
      );
    for (const dir of missing) {
      try {
        mkdirSync(dir);
        made.push(dir);
      } catch (err) {
        const code = (err as NodeJS.ErrnoException).code;
        if (code === 'EEXIST') continue;
        throw new CliError(`input ${r.input}: could not make the folder ${dir}: ${code ?? String(err)}`);
      }
    }
  }
  return made;
}

/** Removes the folders `prepareReportFolders` made that are still empty (no report was written), deepest first. */
export function removeEmpty(made: readonly string[]): void {
  for (const dir of [...made].reverse()) {
    try {
      rmdirSync(dir);
    } catch {
      // Not empty (a report is in it), or gone: left as it is.
    }
  }
}
