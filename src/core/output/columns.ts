// `--columns a,b,…`: which columns a table (or csv) shows, in the order given (cli-contract.md §14).
//
// A name is one of the command's columns (by its name, `connection`, or the service's field it shows,
// `connection_alias`), any field the items carry (`scan_id`), a dotted path into an object (`details.region`),
// or `all` (every field the first page's items carry). Which fields the items carry is known only from the
// items, so the check has two halves:
// - before any request (parseColumns, exit 2): the format takes columns, no name is empty or a malformed path,
//   `all` stands alone;
// - once the first page is read and before anything is written (resolveColumns, exit 2): a name that is no
//   column and no field of that page's items, but within two edits of one, is a typo ("did you mean title?");
//   any other name is kept, since a field may appear only on later pages: its cells are empty where an item
//   lacks it, and a warning at the end names a column no item carried (Unseen). An empty first page has no
//   fields to check against: its names are taken as given.
import { UsageError } from '../errors.js';
import type { Column } from '../format.js';
import type { IO } from '../io.js';
import { editDistance } from '../suggest.js';
import { terminalText } from '../terminal-text.js';

/** The name `--columns` knows a column by: its own, else its header in lower case (spaces as '_'). */
export function columnName(c: Pick<Column<unknown>, 'name' | 'header'>): string {
  return c.name ?? c.header.toLowerCase().replace(/\s+/g, '_');
}

/** A column's csv header: the service's field it shows (`connection_alias`), else its name. */
export function csvHeader(c: Pick<Column<unknown>, 'name' | 'header' | 'field'>): string {
  return c.field ?? columnName(c);
}

/** The formats `--columns` applies to. */
export const COLUMN_FORMATS = ['table', 'wide', 'csv'];

/** `--columns` as given, checked for what can be checked before any request. */
export interface ColumnChoice {
  raw: string;
  /** Each name once, in the order given. */
  names: string[];
  /** `--columns all`. */
  all: boolean;
}

/**
 * `--columns`, before any request: a usage error when the format has no columns (json, ndjson, the reports),
 * a name is empty or a dotted path has an empty part, or `all` is mixed with other names.
 */
export function parseColumns(raw: string | undefined, format: string): ColumnChoice | undefined {
  if (raw === undefined) return undefined;
  if (!COLUMN_FORMATS.includes(format))
    throw new UsageError(`--columns applies to ${COLUMN_FORMATS.join(', ')} output, not ${format}`);
  const names = raw.split(',').map((n) => n.trim());
  if (names.some((n) => n === ''))
    throw new UsageError(
      `empty column name in --columns "${raw}": give names separated by commas, such as id,title`,
    );
  for (const n of names)
    if (n.split('.').some((part) => part === ''))
      throw new UsageError(
        `invalid column "${n}": a dotted path names a field inside an object, such as details.region`,
      );
  const all = names.some((n) => n.toLowerCase() === 'all');
  if (all && names.length > 1)
    throw new UsageError('--columns all writes every field: give it alone, or name the columns instead');
  return { raw, names: [...new Set(names)], all };
}

/** The command's own column this name means: by its name (any case) or by the field it shows. */
function knownColumn<T>(columns: readonly Column<T>[], name: string): Column<T> | undefined {
  const lower = name.toLowerCase();
  return (
    columns.find((c) => c.field === name) ??
    columns.find((c) => columnName(c).toLowerCase() === lower) ??
    columns.find((c) => c.field?.toLowerCase() === lower)
  );
}

/** Resolvable without data: no `all`, and every name one of the command's columns. */
export function resolveWithoutData<T>(
  columns: Column<T>[],
  choice: ColumnChoice | undefined,
): Column<T>[] | undefined {
  if (!choice) return columns;
  if (choice.all) return undefined;
  const known = choice.names.map((n) => knownColumn(columns, n));
  return known.every((c) => c !== undefined) ? (known as Column<T>[]) : undefined;
}

const isRecord = (v: unknown): v is Record<string, unknown> =>
  v !== null && typeof v === 'object' && !Array.isArray(v);

/**
 * The value at a field or dotted path: the item's own key of that exact name first, else the path — at each
 * level the longest key that holds dots itself first (`details.x.y` reads `{"details.x": {"y": 1}}`), so every
 * path the items show can be read as it is written.
 */
export function valueAt(item: unknown, path: string): unknown {
  if (!isRecord(item)) return undefined;
  if (Object.hasOwn(item, path)) return item[path];
  return stepInto(item, path.split('.'));
}

function stepInto(v: unknown, parts: readonly string[]): unknown {
  if (parts.length === 0) return v;
  if (Array.isArray(v))
    return /^\d+$/.test(parts[0]!) ? stepInto(v[Number(parts[0])], parts.slice(1)) : undefined;
  if (!isRecord(v)) return undefined;
  for (let n = parts.length; n >= 1; n--) {
    const key = n === 1 ? parts[0]! : parts.slice(0, n).join('.');
    if (Object.hasOwn(v, key)) {
      const got = stepInto(v[key], parts.slice(n));
      if (got !== undefined || n === 1) return got;
    }
  }
  return undefined;
}

/**
 * Whether a record's field holds a time: its key ends in `_at`, as the service names them (`created_at`,
 * `started_at`, `completed_at`, `expires_at`). A table shows it (a --columns field too) as a list table shows a `time` column: local
 * `2026-11-26 16:34` (shortTime); `-o wide` and the other formats keep the service's text.
 */
export function isTimeKey(key: string): boolean {
  return key.endsWith('_at');
}

/**
 * A column that shows a field (or a dotted path) of the items as it is: objects and arrays as JSON text; a time
 * field (isTimeKey of its last step: `created_at`, `scan.started_at`) as every table shows a time.
 */
export function fieldColumn<T>(path: string, like?: Column<T>): Column<T> {
  return {
    // A field's name is the service's text: in a table header it must not drive the terminal either.
    header: like?.header ?? terminalText(path).toUpperCase(),
    name: path,
    field: path,
    value: (item) => valueAt(item, path),
    ...(like?.style ? { style: like.style } : {}),
    ...((like?.time ?? isTimeKey(path.split('.').at(-1) ?? path)) ? { time: true } : {}),
    ...(like?.keep ? { keep: true } : {}),
  };
}

/** The fields of the sample, with the paths into their objects (for "did you mean"), a bounded number. */
function pathsOf(sample: readonly unknown[], limit = 500): Set<string> {
  const out = new Set<string>();
  const walk = (v: unknown, prefix: string, depth: number) => {
    if (!isRecord(v) || depth > 3) return;
    for (const [k, child] of Object.entries(v)) {
      if (out.size >= limit) return;
      const p = prefix ? `${prefix}.${k}` : k;
      out.add(p);
      walk(child, p, depth + 1);
    }
  };
  for (const item of sample) walk(item, '', 0);
  return out;
}

/** The top-level fields the sample's items carry, in first-seen order. */
function topFields(sample: readonly unknown[]): string[] {
  const seen = new Set<string>();
  for (const item of sample) if (isRecord(item)) for (const k of Object.keys(item)) seen.add(k);
  return [...seen];
}

/**
 * `--columns all`: every field the sample's items carry, in a stable order — the fields of the command's own
 * columns first, in their order, then the others in alphabetical order — each as it is (objects and arrays as
 * JSON text).
 */
function allColumns<T>(columns: readonly Column<T>[], sample: readonly T[]): Column<T>[] {
  // Nothing to read the fields from: the default columns' header, never an empty line.
  if (sample.length === 0) return [...columns];
  const fields = new Set(topFields(sample));
  const first = columns
    .map((c) => c.field)
    .filter((f): f is string => f !== undefined && !f.includes('.') && fields.has(f));
  const rest = [...fields].filter((f) => !first.includes(f)).sort();
  return [...new Set([...first, ...rest])].map((f) =>
    fieldColumn(
      f,
      columns.find((c) => c.field === f),
    ),
  );
}

/**
 * The columns `--columns` names, once the first page (`sample`) is read: the command's own columns, fields and
 * dotted paths, or every field (`all`). A name that no item of the sample carries is a typo — exit 2 naming the
 * closest — when it is within two edits of a column or of a field or path the sample carries; otherwise it is
 * kept as a field (Unseen says at the end if no item carried it). An empty sample takes every name as a field.
 */
export function resolveColumns<T>(
  columns: Column<T>[],
  choice: ColumnChoice | undefined,
  sample: readonly T[],
  noun = 'items',
): Column<T>[] {
  if (!choice) return columns;
  if (choice.all) return allColumns(columns, sample);
  const paths = pathsOf(sample);
  return choice.names.map((n) => {
    const own = knownColumn(columns, n);
    if (own) return own;
    if (sample.length === 0 || sample.some((item) => valueAt(item, n) !== undefined))
      return fieldColumn<T>(n);
    const typo = typoOf(n, columns, paths);
    if (typo !== undefined) throw unknownColumn(n, typo, columns, paths, noun);
    return fieldColumn<T>(n);
  });
}

/** How many edits away a name is a typo of a known one (cli-contract.md §14). */
const TYPO_EDITS = 2;

/**
 * The known name (a column, or a field or path of the first page) this one is a typo of: the closest within two
 * edits (compared in lower case), never the name itself — a path the page shows but that cannot be read as
 * given (a key that holds a dot, `details.x.y` under `"details.x"`) is no suggestion.
 */
function typoOf<T>(name: string, columns: readonly Column<T>[], paths: Set<string>): string | undefined {
  const candidates = [
    ...columns.map(columnName),
    ...columns.flatMap((c) => (c.field ? [c.field] : [])),
    ...paths,
  ];
  const lower = name.toLowerCase();
  let best: string | undefined;
  let bestD = TYPO_EDITS + 1;
  for (const c of candidates) {
    if (c === name) continue;
    const d = editDistance(lower, c.toLowerCase());
    if (d < bestD) [best, bestD] = [c, d];
  }
  return best;
}

function unknownColumn<T>(
  name: string,
  best: string,
  columns: readonly Column<T>[],
  paths: Set<string>,
  noun: string,
) {
  const names = columns.map(columnName);
  const fields = [...paths].filter((p) => !p.includes('.')).sort();
  const shown = fields.length > 30 ? [...fields.slice(0, 30), '…'] : fields;
  const use =
    `Use a column (${names.join(', ')})` +
    (shown.length > 0 ? `, a field of the ${noun} (${shown.join(', ')})` : '') +
    ', a dotted path into one, or all';
  return new UsageError(`unknown column "${name}", did you mean ${best}? ${use}`);
}

/**
 * The field columns `--columns` named that no item of the first page carried: watched over the rest of the
 * items, and a warning at the end names those no item carried, so that an empty column is never a surprise.
 */
export class Unseen {
  private readonly left: Set<string>;
  private constructor(names: Iterable<string>) {
    this.left = new Set(names);
  }

  /** Undefined when every named field was on the first page (or --columns named none, or `all`). */
  static of<T>(
    columns: readonly Column<T>[],
    choice: ColumnChoice | undefined,
    sample: readonly T[],
  ): Unseen | undefined {
    if (!choice || choice.all || sample.length === 0) return undefined;
    const names = columns.flatMap((c) =>
      c.field !== undefined &&
      choice.names.includes(c.field) &&
      !sample.some((item) => valueAt(item, c.field!) !== undefined)
        ? [c.field]
        : [],
    );
    return names.length > 0 ? new Unseen(names) : undefined;
  }

  see(items: readonly unknown[]): void {
    if (this.left.size === 0) return;
    for (const item of items)
      for (const n of this.left) if (valueAt(item, n) !== undefined) this.left.delete(n);
  }

  warn(io: IO): void {
    if (this.left.size === 0) return;
    const names = [...this.left].map((n) => terminalText(n));
    io.warn(
      `--columns ${names.join(', ')}: no item carried ${names.length === 1 ? 'this field' : 'these fields'}, ${names.length === 1 ? 'its cells are' : 'their cells are'} empty`,
    );
  }
}
