// `--report <format>=<path>` and `--output-file`, checked when the flags are read (loaded at start-up: light).
import { posix, win32 } from 'node:path';
import { UsageError } from '../core/errors.js';
import { ALL_FORMATS } from './registry.js';

/** One `--report <format>=<path>`. */
export interface ReportSpec {
  format: string;
  path: string;
}

/** `--report sarif=results.sarif`: parsed, its format checked. */
export function parseReportSpec(value: string, previous: ReportSpec[] = []): ReportSpec[] {
  const m = /^([a-z]+)=(.+)$/i.exec(value.trim());
  if (!m)
    throw new UsageError(`invalid --report "${value}": use <format>=<path>, such as sarif=results.sarif`);
  const format = m[1]!.toLowerCase();
  if (!(ALL_FORMATS as readonly string[]).includes(format))
    throw new UsageError(
      `invalid --report "${value}": unknown format "${m[1]}"; use ${ALL_FORMATS.join(', ')}`,
    );
  return [...previous, { format, path: m[2]! }];
}

/**
 * The file a path names, as a key: on Windows a drive letter and backslashes (`C:\\out\\r.sarif`), and names
 * compared without case (`c:/OUT/r.sarif` is the same file); elsewhere the resolved path as it is.
 */
export function destinationKey(
  path: string,
  cwd: string,
  platform: NodeJS.Platform = process.platform,
): string {
  return platform === 'win32' ? win32.resolve(cwd, path).toLowerCase() : posix.resolve(cwd, path);
}

/** Two outputs to one path are exit 2, before any request. */
export function checkDestinations(
  opts: { outputFile?: string; reports?: readonly ReportSpec[] },
  cwd: string,
  platform: NodeJS.Platform = process.platform,
): void {
  const seen = new Map<string, string>();
  const all = [
    ...(opts.outputFile !== undefined ? [{ flag: '--output-file', path: opts.outputFile }] : []),
    ...(opts.reports ?? []).map((r) => ({ flag: `--report ${r.format}=`, path: r.path })),
  ];
  for (const { flag, path } of all) {
    const key = destinationKey(path, cwd, platform);
    const before = seen.get(key);
    if (before !== undefined)
      throw new UsageError(`${before} and ${flag} name the same file ${path}: give each report its own path`);
    seen.set(key, flag);
  }
}
