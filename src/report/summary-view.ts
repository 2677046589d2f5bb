// `findings summary` as people look at it (cli-contract.md §9): counts per group with a bar each, scaled to
// the terminal, largest first; and the same counts as JSON.
import type { ChalkInstance } from 'chalk';
import { SEVERITIES, severityRank } from '../api/findings-types.js';
import { styleSeverity } from './severity.js';
import { terminalText } from '../core/terminal-text.js';

export const SUMMARY_GROUPINGS = ['severity', 'connection', 'rule', 'status'] as const;
export type SummaryBy = (typeof SUMMARY_GROUPINGS)[number];

export interface SummaryGroup {
  key: string;
  count: number;
  /** Every one of the five severities (0 when none), then any other severity the service sent. */
  by_severity: Record<string, number>;
}

export interface Summary {
  by: SummaryBy;
  total: number;
  groups: SummaryGroup[];
}

/** Counts findings into groups as they stream by. */
export class SummaryCounter {
  private readonly groups = new Map<string, SummaryGroup>();

  constructor(
    readonly by: SummaryBy,
    private readonly keyOf: (f: Record<string, unknown>) => string,
  ) {}

  add(f: Record<string, unknown>, count = 1): void {
    const key = this.keyOf(f);
    let g = this.groups.get(key);
    if (!g) this.groups.set(key, (g = { key, count: 0, by_severity: emptySeverities() }));
    g.count += count;
    const sev = severityOf(f.severity);
    g.by_severity[sev] = (g.by_severity[sev] ?? 0) + count;
  }

  /** Largest first; ties by severity (for --by severity), then by key. */
  summary(): Summary {
    const groups = [...this.groups.values()].sort(
      (a, b) => b.count - a.count || severityRank(a.key) - severityRank(b.key) || a.key.localeCompare(b.key),
    );
    return { by: this.by, total: groups.reduce((n, g) => n + g.count, 0), groups };
  }
}

export function emptySeverities(): Record<string, number> {
  return Object.fromEntries(SEVERITIES.map((s) => [s, 0]));
}

function severityOf(v: unknown): string {
  return typeof v === 'string' && v.trim() !== '' ? v.trim().toLowerCase() : 'unknown';
}

/** Whether the terminal takes UTF-8: the first of LC_ALL, LC_CTYPE, LANG that is set decides (as POSIX). */
export function isUtf8Locale(env: NodeJS.ProcessEnv): boolean {
  const locale = env.LC_ALL || env.LC_CTYPE || env.LANG || '';
  return /utf-?8/i.test(locale);
}

/** Eighths of a cell, for the end of a bar: ▏▎▍▌▋▊▉ (1/8 … 7/8). */
const PARTIAL = ['', '▏', '▎', '▍', '▌', '▋', '▊', '▉'];

export interface ViewOptions {
  /** Columns to fill (the terminal's; 80 when stdout is not one). */
  width: number;
  unicode: boolean;
  color: ChalkInstance;
  /** How wide text shows and how to cut it (cli-table3's, where East Asian wide characters count double). */
  text?: TextWidth;
}

export interface TextWidth {
  width(s: string): number;
  /** `s` cut to at most `w` columns, ending in `…` when cut. */
  cut(s: string, w: number): string;
}

/** One column per UTF-16 unit: enough for the ASCII the tests use. */
const PLAIN: TextWidth = {
  width: (s) => s.length,
  cut: (s, w) => (s.length <= w ? s : `${s.slice(0, Math.max(0, w - 1))}…`),
};

/** A bar is never narrower than this while a key can be cut to make room for it. */
const MIN_BAR = 10;
/** Nor a key narrower than this (or its heading). */
const MIN_KEY = 5;

/** Severity column headings, shortened. */
const SHORT: Record<string, string> = {
  critical: 'CRIT',
  high: 'HIGH',
  medium: 'MED',
  low: 'LOW',
  info: 'INFO',
};

/**
 * The table: one row per group — its key, count, counts per severity (not for --by severity, where they
 * would repeat the count) and a bar whose length is the count's share of the largest, in the room left.
 */
export function renderSummary(s: Summary, o: ViewOptions): string {
  const t = o.text ?? PLAIN;
  const sevCols = s.by === 'severity' ? [] : severityColumns(s);
  const keys = s.groups.map((g) => t.cut(terminalText(g.key) || '(none)', 48));
  const head = s.by.toUpperCase();
  const countWidth = Math.max(5, ...s.groups.map((g) => fmt(g.count).length), fmt(s.total).length);
  const sevWidths = sevCols.map((c) =>
    Math.max(
      t.width(SHORT[c] ?? terminalText(c).toUpperCase()),
      ...s.groups.map((g) => fmt(g.by_severity[c] ?? 0).length),
    ),
  );
  // What follows the key: the count and the severity columns. The key takes what it needs of the rest, but
  // never so much that the bar gets less than MIN_BAR: a long key is cut, the bar is kept (one line a row).
  const after = 2 + countWidth + 2 + sevWidths.reduce((n, w) => n + w + 1, 0) + (sevCols.length ? 1 : 0);
  const room = o.width - 1 - after;
  const minKey = Math.max(head.length, MIN_KEY);
  const keyWidth = Math.min(
    Math.max(minKey, ...keys.map((k) => t.width(k))),
    Math.max(minKey, room - MIN_BAR),
  );
  const barWidth = Math.max(room - keyWidth, 1);
  const max = Math.max(1, ...s.groups.map((g) => g.count));
  const lines: string[] = [];
  const pad = (text: string, w: number) => text + ' '.repeat(Math.max(0, w - t.width(text)));
  const sevHead = sevCols
    .map((c, i) => (SHORT[c] ?? terminalText(c).toUpperCase()).padStart(sevWidths[i]!))
    .join(' ');
  lines.push(
    o.color.bold(
      `${pad(t.cut(head, keyWidth), keyWidth)}  ${'COUNT'.padStart(countWidth)}  ${sevCols.length ? `${sevHead}  ` : ''}`.trimEnd(),
    ),
  );
  s.groups.forEach((g, i) => {
    const shown = pad(t.cut(keys[i]!, keyWidth), keyWidth);
    const key = s.by === 'severity' ? styleSeverity(shown, g.key, o.color) : shown;
    const sevs = sevCols.map((c, j) => {
      const n = g.by_severity[c] ?? 0;
      const cell = fmt(n).padStart(sevWidths[j]!);
      return n > 0 ? styleSeverity(cell, c, o.color) : o.color.dim(cell);
    });
    const bar = renderBar(g, s.by, (g.count / max) * barWidth, o);
    lines.push(
      `${key}  ${fmt(g.count).padStart(countWidth)}  ${sevCols.length ? `${sevs.join(' ')}  ` : ''}${bar}`.trimEnd(),
    );
  });
  lines.push(o.color.bold(`${pad('TOTAL', keyWidth)}  ${fmt(s.total).padStart(countWidth)}`));
  return `${lines.join('\n')}\n`;
}

/** The severities that occur, most severe first (unknown ones after the five). */
function severityColumns(s: Summary): string[] {
  const seen = new Set<string>();
  for (const g of s.groups) for (const [k, n] of Object.entries(g.by_severity)) if (n > 0) seen.add(k);
  return [...seen].sort((a, b) => severityRank(a) - severityRank(b) || a.localeCompare(b));
}

/**
 * A bar `cells` long (fractional): whole blocks and one eighth-block on a UTF-8 terminal, `#` otherwise.
 * Coloured by severity: one colour for --by severity, else a stacked bar, one segment per severity.
 */
export function renderBar(g: SummaryGroup, by: SummaryBy, cells: number, o: ViewOptions): string {
  const unit = o.unicode ? 8 : 1;
  const total = Math.round(cells * unit);
  if (total <= 0) return '';
  const segments: [string, number][] =
    by === 'severity'
      ? [[g.key, g.count]]
      : Object.entries(g.by_severity)
          .filter(([, n]) => n > 0)
          .sort(([a], [b]) => severityRank(a) - severityRank(b));
  // Cumulative rounding: the segments add up to the bar exactly; every segment but the last ends on a whole
  // cell (a cell holds one colour), and the last carries the eighths left over.
  const wholeCells = total - (total % unit);
  let out = '';
  let prev = 0;
  let acc = 0;
  for (let i = 0; i < segments.length; i++) {
    const [sev, n] = segments[i]!;
    acc += n;
    const last = i === segments.length - 1;
    let end = last ? total : Math.min(Math.round(((acc / g.count) * total) / unit) * unit, wholeCells);
    if (end < prev) end = prev;
    const units = end - prev;
    prev = end;
    if (units === 0) continue;
    const text = o.unicode ? '█'.repeat(Math.floor(units / 8)) + PARTIAL[units % 8]! : '#'.repeat(units);
    out += styleSeverity(text, sev, o.color);
  }
  return out;
}

function fmt(n: number): string {
  return n.toLocaleString('en-US');
}
