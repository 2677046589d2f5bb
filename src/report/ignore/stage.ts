// The ignore stage (cli-contract.md §8): which findings an entry of the ignore file accepts, what each format
// does with them, and what is said about the entries — expired ones (their findings count again), ones that
// expire within 14 days, and ones that matched nothing in a complete read.
import type { Finding } from '../../api/findings-types.js';
import type { IO } from '../../core/io.js';
import { fingerprintOf, ruleIdOf } from '../fingerprint.js';
import { OTHER, rankOf } from '../severity.js';
import { text } from '../text.js';
import type { IgnoreEntry, IgnoreFile } from './file.js';

const DAY = 24 * 3600 * 1000;

export interface IgnoredInfo {
  reason: string;
  expires: string;
  /** `<file>:<line>`. */
  source: string;
  owner?: string;
}

/** Formats read an ignored finding's entry through this key (JSON.stringify leaves symbol keys out). */
export const IGNORED = Symbol('cssctl.ignored');

export function ignoredOf(f: unknown): IgnoredInfo | undefined {
  return f !== null && typeof f === 'object' ? (f as { [IGNORED]?: IgnoredInfo })[IGNORED] : undefined;
}

/**
 * A glob's matcher: `*` any run of characters (none too), `?` exactly one character (a code point: an emoji is
 * one), everything else literal, anchored at both ends. Linear in the text for a given glob, never a regular
 * expression: resource names come from the service (outsiders can choose them), and `[\s\S]*` per star
 * backtracks exponentially in the number of stars (`*-*-*-*-*-*-*-*-*-q` against 40 dashed parts ran for
 * seconds, deaf to Ctrl-C). The glob is cut at its stars: the first piece must start the text, the last must
 * end it, and each piece between is taken at its leftmost place after the one before — leftmost is never
 * wrong, since a star can take whatever a later choice would have left.
 */
export function globMatcher(glob: string): (text: string) => boolean {
  const pieces = glob.split('*').map((p) => Array.from(p));
  const [first, ...rest] = pieces as [string[], ...string[][]];
  if (rest.length === 0) {
    return (text) => {
      const t = Array.from(text);
      return t.length === first.length && pieceAt(first, t, 0);
    };
  }
  const last = rest.pop()!;
  const middle = rest.filter((p) => p.length > 0);
  const fixed = first.length + last.length;
  return (text) => {
    const t = Array.from(text);
    if (t.length < fixed || !pieceAt(first, t, 0) || !pieceAt(last, t, t.length - last.length)) return false;
    let at = first.length;
    const end = t.length - last.length;
    for (const piece of middle) {
      const found = findPiece(piece, t, at, end);
      if (found < 0) return false;
      at = found + piece.length;
    }
    return true;
  };
}

/** Whether `piece` (`?` any one character) matches `t` at `at`. */
function pieceAt(piece: readonly string[], t: readonly string[], at: number): boolean {
  for (let i = 0; i < piece.length; i++) if (piece[i] !== '?' && piece[i] !== t[at + i]) return false;
  return true;
}

/** The leftmost place at or after `from` where `piece` matches and ends by `end`; -1 when none. */
function findPiece(piece: readonly string[], t: readonly string[], from: number, end: number): number {
  for (let at = from; at + piece.length <= end; at++) if (pieceAt(piece, t, at)) return at;
  return -1;
}

interface Compiled {
  entry: IgnoreEntry;
  resource?: (text: string) => boolean;
  matched: number;
  /** The connections on which a diff's base held this entry's finding and the head no longer does. */
  goneFrom: Set<string>;
}

/**
 * What a read could have seen, for the stale notice: a read of the whole workspace sees every entry's findings;
 * any other complete read sees only the connections it covered (the scan's, and those of the findings read).
 */
export interface ReadScope {
  /** Every finding was read (a scan report, `--all`, a diff); else no entry is called stale. */
  complete: boolean;
  /** Every connection of the workspace was read (`findings list --all` without --scan or --severity). */
  workspace?: boolean;
  /** The connection the read covered even if it held no finding (the scan's). */
  connection?: string;
}

export class IgnoreRules {
  private readonly active: Compiled[] = [];
  private readonly expired: Compiled[] = [];
  /** Findings ignored, by severity rank (0 critical … 5 other). */
  readonly ignoredByRank: number[] = new Array<number>(OTHER + 1).fill(0);
  /** The connections of the findings checked. */
  private readonly seen = new Set<string>();

  constructor(
    readonly file: IgnoreFile,
    private readonly now: number,
  ) {
    for (const entry of file.entries) {
      const c: Compiled = {
        entry,
        matched: 0,
        goneFrom: new Set(),
        ...(entry.resource ? { resource: globMatcher(entry.resource) } : {}),
      };
      (entry.expiresAt < now ? this.expired : this.active).push(c);
    }
  }

  get ignored(): number {
    return this.ignoredByRank.reduce((a, n) => a + n, 0);
  }

  private static matches(c: Compiled, f: Finding, fp: () => string): boolean {
    const e = c.entry;
    if (e.fingerprint !== undefined) return fp().startsWith(e.fingerprint);
    if (ruleIdOf(f) !== e.rule) return false;
    if (e.connection !== undefined && text(f.connection_alias) !== e.connection) return false;
    return c.resource === undefined || c.resource(text(f.resource));
  }

  /**
   * The entry that accepts this finding (undefined when none does), counting matches; `expired` says an expired
   * entry would have accepted it (it counts again).
   */
  check(f: Finding): { info?: IgnoredInfo; expired: boolean } {
    let fp: string | undefined;
    const fingerprint = () => (fp ??= fingerprintOf(f));
    this.seen.add(text(f.connection_alias));
    // The first active entry that matches decides (its reason and expiry are shown); every other active entry
    // that matches counts the match too, so an entry whose findings an earlier one also covers is never called
    // stale ("matched no finding") while it still matches.
    let first: Compiled | undefined;
    for (const c of this.active) {
      if (!IgnoreRules.matches(c, f, fingerprint)) continue;
      c.matched++;
      first ??= c;
    }
    if (first) {
      this.ignoredByRank[rankOf(f)]!++;
      const e = first.entry;
      return {
        info: {
          reason: e.reason,
          expires: e.expires,
          source: `${this.file.display}:${e.line}`,
          ...(e.owner ? { owner: e.owner } : {}),
        },
        expired: false,
      };
    }
    let expired = false;
    for (const c of this.expired)
      if (IgnoreRules.matches(c, f, fingerprint)) {
        c.matched++;
        expired = true;
      }
    return { expired };
  }

  /**
   * A finding of a diff's base that the head no longer has (`fixed`), with the base's fingerprint: a
   * `fingerprint` entry naming it is known to be about a connection the read covered. Counts no match.
   */
  gone(f: Finding, fingerprint: string): void {
    for (const c of this.active)
      if (IgnoreRules.matches(c, f, () => fingerprint)) c.goneFrom.add(text(f.connection_alias));
  }

  /**
   * Whether a read could have seen an entry's findings, so that matching none says something. A `rule` entry
   * names its connection or applies to all, so any read of that connection could have seen its findings. A
   * `fingerprint` entry names one finding on a connection its hash does not reveal: only a read of the whole
   * workspace, or a diff whose base held that finding on a connection the head covers, could have seen it.
   */
  private couldSee(c: Compiled, scope: ReadScope): boolean {
    if (!scope.complete) return false;
    if (scope.workspace) return true;
    const covered = (k: string) => this.seen.has(k) || k === scope.connection;
    const e = c.entry;
    if (e.fingerprint !== undefined) return [...c.goneFrom].some(covered);
    if (e.connection !== undefined) return covered(e.connection);
    return this.seen.size > 0 || scope.connection !== undefined;
  }

  /** The lines that report on the entries (warnings for expired ones; notices for expiring and stale ones). */
  messages(opts: ReadScope): {
    warnings: { line: number; text: string }[];
    notices: string[];
  } {
    const warnings: { line: number; text: string }[] = [];
    const notices: string[] = [];
    const short = (s: string) => (s.length > 60 ? `${s.slice(0, 59)}…` : s);
    for (const c of this.expired) {
      const e = c.entry;
      warnings.push({
        line: e.line,
        text: `${this.file.display}:${e.line}: expired on ${e.expires} (${short(e.reason)}); ${c.matched} finding${c.matched === 1 ? '' : 's'} count${c.matched === 1 ? 's' : ''} again`,
      });
    }
    for (const c of this.active) {
      const e = c.entry;
      if (e.expiresAt - this.now < 14 * DAY)
        notices.push(`${this.file.display}:${e.line}: expires on ${e.expires} (${short(e.reason)})`);
      if (c.matched === 0 && this.couldSee(c, opts))
        notices.push(
          `${this.file.display}:${e.line}: matched no finding; it may be stale (${short(e.reason)})`,
        );
    }
    return { warnings, notices };
  }

  /** The count left out was said already (in a table's page hint): report() does not repeat it. */
  countTold(): void {
    this.told = true;
  }
  private told = false;

  /** Says what happened on stderr: the count left out, then the entries' warnings and notices. */
  report(io: Pick<IO, 'warn' | 'notice'>, opts: ReadScope & { shown: boolean }): void {
    const n = this.ignored;
    if (n > 0 && !opts.shown && !this.told)
      io.notice(
        `${n} finding${n === 1 ? '' : 's'} ignored by ${this.file.display} (--no-ignore to show them)`,
      );
    const { warnings, notices } = this.messages(opts);
    for (const w of warnings) io.warn(w.text);
    for (const m of notices) io.notice(m);
  }
}

/** Marks an ignored finding; with `show`, json gains `"ignored"` and `"fingerprint"` fields. */
export function markIgnored(f: Finding, info: IgnoredInfo, show: boolean): Finding {
  const out: Finding = show
    ? { ...f, ignored: info, fingerprint: f.fingerprint ?? fingerprintOf(f) }
    : { ...f };
  Object.defineProperty(out, IGNORED, { value: info, enumerable: false });
  // A diff's marker survives the copy.
  for (const sym of Object.getOwnPropertySymbols(f))
    if (sym !== IGNORED)
      Object.defineProperty(out, sym, {
        value: (f as unknown as Record<symbol, unknown>)[sym],
        enumerable: false,
      });
  return out;
}

/**
 * The stage: each finding checked against the rules; an ignored one is left out, or kept marked (`keep`: junit
 * always, the other formats with --show-ignored). `onExpired` hears of findings an expired entry matched,
 * `onLeftOut` of the ignored ones left out, `onIgnored` of every ignored one.
 */
export interface IgnoreStageOptions {
  keep: boolean;
  show: boolean;
  onExpired?: (f: Finding) => void;
  onLeftOut?: (f: Finding) => void;
  onIgnored?: (f: Finding) => void;
}

export async function* applyIgnore(
  source: AsyncIterable<Finding>,
  rules: IgnoreRules,
  opts: IgnoreStageOptions,
): AsyncGenerator<Finding> {
  for await (const f of source) {
    const out = ignoreOne(f, rules, opts);
    if (out !== undefined) yield out;
  }
}

/** The stage on a page of findings at once (the kept ones, in order). */
export function applyIgnoreToPage(
  batch: readonly Finding[],
  rules: IgnoreRules,
  opts: IgnoreStageOptions,
): Finding[] {
  const out: Finding[] = [];
  for (const f of batch) {
    const kept = ignoreOne(f, rules, opts);
    if (kept !== undefined) out.push(kept);
  }
  return out;
}

/** One finding through the stage: itself, itself marked ignored, or undefined (left out). */
function ignoreOne(f: Finding, rules: IgnoreRules, opts: IgnoreStageOptions): Finding | undefined {
  if (f === null || typeof f !== 'object') return f;
  const r = rules.check(f);
  if (r.info) {
    opts.onIgnored?.(f);
    if (opts.keep) return markIgnored(f, r.info, opts.show);
    opts.onLeftOut?.(f);
    return undefined;
  }
  if (r.expired) opts.onExpired?.(f);
  return f;
}
