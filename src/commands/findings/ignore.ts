import { statSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { getFinding } from '../../api/findings.js';
import type { Context } from '../../core/context.js';
import { CliError, UsageError } from '../../core/errors.js';
import { writeFileAtomic } from '../../core/files.js';
import { fingerprintOf } from '../../report/fingerprint.js';
import { appendEntries, parseExpires, type NewEntry } from '../../report/ignore/append.js';
import {
  IGNORE_FILE_NAME,
  displayPath,
  findIgnoreFile,
  parseIgnoreText,
  readIgnoreText,
} from '../../report/ignore/file.js';
import { IgnoreRules } from '../../report/ignore/stage.js';
import { text } from '../../report/text.js';
import { findingIdArg } from './get.js';
import type { Result } from '../../report/result.js';

export interface IgnoreCommandOptions {
  reason?: string;
  expires?: string;
  ignoreFile?: string;
}

/** The file `findings ignore` writes: the one that applies, else a new one in the working folder. */
function targetPath(ctx: Context, opts: IgnoreCommandOptions, cwd: string): string {
  const given = opts.ignoreFile ?? (ctx.env.CSSCTL_IGNORE_FILE || undefined);
  if (given !== undefined) return resolve(cwd, given);
  return findIgnoreFile({}, ctx.env, cwd) ?? join(cwd, IGNORE_FILE_NAME);
}

function exists(path: string): boolean {
  try {
    statSync(path);
    return true;
  } catch {
    return false;
  }
}

/**
 * `findings ignore <id>... --reason … [--expires …]`: one `fingerprint` entry per finding appended to the ignore
 * file (created with `version: 1` when there is none), every other byte kept, written atomically; a finding an
 * active entry already covers gets a notice and no second entry (cli-contract.md §8).
 */
export async function ignore(
  ctx: Context,
  opts: IgnoreCommandOptions,
  args: string[],
  cwd: string = process.cwd(),
): Promise<Result> {
  const reason = opts.reason?.trim() ?? '';
  if (reason === '') throw new UsageError('--reason is required: say why the risk is accepted');
  const ids = [...new Set(args.map(findingIdArg))];
  if (ids.length === 0) throw new UsageError('give at least one finding id');
  const expires = parseExpires(opts.expires, ctx.clock.now());
  const path = targetPath(ctx, opts, cwd);
  const display = displayPath(path, cwd);
  const before = exists(path) ? readIgnoreText(path, display) : undefined;
  const file =
    before === undefined ? { path, display, entries: [] } : parseIgnoreText(before, path, display).file;
  const rules = new IgnoreRules(file, ctx.clock.now());

  const client = await ctx.api();
  const added: NewEntry[] = [];
  const fingerprints = new Set<string>();
  for (const id of ids) {
    const f = await getFinding(client, id);
    const covered = rules.check(f).info;
    if (covered) {
      ctx.io.notice(
        `finding ${id} is already ignored by ${covered.source} (${covered.reason}); no entry added`,
      );
      continue;
    }
    const fingerprint = fingerprintOf(f);
    if (fingerprints.has(fingerprint)) continue;
    fingerprints.add(fingerprint);
    const where = [text(f.title), text(f.resource)].filter(Boolean).join(' — ');
    added.push({ fingerprint, reason, expires, comment: `${where || `finding ${id}`} (finding ${id})` });
  }
  const result = (): Result => ({
    finish: async () => ({
      data: { file: display, expires, added: added.map((e) => e.fingerprint) },
    }),
  });
  if (added.length === 0) return result();
  const after = appendEntries(before, added, display);
  // The file must not have changed while cssctl asked the service: then its text is not the one appended to.
  const now = exists(path) ? readIgnoreText(path, display) : undefined;
  if (now !== before)
    throw new CliError(
      `${display} changed while cssctl was adding to it; nothing was written — run the command again`,
    );
  const mode = before === undefined ? 0o644 : statSync(path).mode & 0o777;
  writeFileAtomic(path, after, mode);
  ctx.io.success(
    `Added ${added.length} entr${added.length === 1 ? 'y' : 'ies'} to ${display} (expires ${expires})`,
  );
  return result();
}
