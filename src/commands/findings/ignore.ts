import { statSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { getFinding } from '../../api/findings.js';
import type { Finding } from '../../api/findings-types.js';
import type { Context } from '../../core/context.js';
import { UsageError } from '../../core/errors.js';
import { writeFileAtomic } from '../../core/files.js';
import { withPathLock } from '../../core/lock.js';
import { fingerprintOf } from '../../report/fingerprint.js';
import { appendEntries, checkAppendable, parseExpires, type NewEntry } from '../../report/ignore/append.js';
import {
  IGNORE_FILE_NAME,
  displayPath,
  findIgnoreFile,
  hasByteOrderMark,
  parseIgnoreText,
  readIgnoreText,
} from '../../report/ignore/file.js';
import { IgnoreRules } from '../../report/ignore/stage.js';
import { text } from '../../report/text.js';
import { findingIdArg } from './get.js';
import type { Result } from '../../report/result.js';
import type { ArgsOf, OptionsOf } from '../shared/define.js';
import type { ignoreCommand } from './ignore.command.js';

/** What `findings ignore` takes (ignore.command.ts). */
export type IgnoreCommandOptions = OptionsOf<typeof ignoreCommand>;

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
  args: ArgsOf<typeof ignoreCommand>,
): Promise<Result> {
  const { cwd } = ctx;
  const reason = opts.reason?.trim() ?? '';
  if (reason === '') throw new UsageError('--reason is required: say why the risk is accepted');
  const ids = [...new Set(args.map(findingIdArg))];
  if (ids.length === 0) throw new UsageError('give at least one finding id');
  const expires = parseExpires(opts.expires, ctx.clock.now());
  const path = targetPath(ctx, opts, cwd);
  const display = displayPath(path, cwd);
  const before = exists(path) ? readIgnoreText(path, display) : undefined;
  // Before any request: the file must be one cssctl can append to (read, checked, a probe appended).
  checkAppendable(before, display);

  const client = await ctx.api();
  const found: { id: string; finding: Finding }[] = [];
  for (const id of ids) found.push({ id, finding: await getFinding(client, id) });

  // Read, check and write under a lock beside the file (the one config writes take, src/core/lock.ts): two
  // cssctl adding at once each append to what the other wrote, and none says "Added" for an entry that another's
  // rename then dropped. What changed while the service was asked is kept, and a finding that an entry added
  // meanwhile covers gets no second one.
  const added = await withPathLock(
    path,
    async () => {
      const current = exists(path) ? readIgnoreText(path, display) : undefined;
      const file =
        current === undefined ? { path, display, entries: [] } : parseIgnoreText(current, path, display).file;
      const rules = new IgnoreRules(file, ctx.clock.now());
      const entries: NewEntry[] = [];
      const fingerprints = new Set<string>();
      for (const { id, finding: f } of found) {
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
        entries.push({
          fingerprint,
          reason,
          expires,
          comment: `${where || `finding ${id}`} (finding ${id})`,
        });
      }
      if (entries.length === 0) return entries;
      const after = appendEntries(current, entries, display);
      const mode = current === undefined ? 0o644 : statSync(path).mode & 0o777;
      // Every byte of the file is kept: its byte-order mark too (the text was read without it).
      const bom = current !== undefined && hasByteOrderMark(path);
      writeFileAtomic(path, bom ? `\ufeff${after}` : after, mode);
      return entries;
    },
    () => ctx.io.notice(`waiting for another cssctl to finish writing ${display}`),
  );
  const result = (): Result => ({
    finish: async () => ({
      data: { file: display, expires, added: added.map((e) => e.fingerprint) },
    }),
  });
  if (added.length === 0) return result();
  ctx.io.success(
    `Added ${added.length} entr${added.length === 1 ? 'y' : 'ies'} to ${display} (expires ${expires})`,
  );
  return result();
}
