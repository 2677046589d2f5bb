// `--columns a,b,…`: which columns a table (or csv) shows, in the order given (cli-contract.md §14).
//
// A name is one of the command's columns (by its name, `connection`, or the service's field it shows,
// `connection_alias`), any field the items carry (`scan_id`), a dotted path into an object (`details.region`),
// or `all` (every field the first page's items carry). Which fields the items carry is known only from the
// items, so the check has two halves:
// - before any request (parseColumns, exit 2): the format takes columns, no name is empty or a malformed path,
//   `all` stands alone;
// - once the first page is read and before anything is written (resolveColumns, exit 2): every name is a
//   column or a field of at least one item of that page, else the error names the closest known name
//   ("did you mean title?"). An empty first page has no fields to check against: its names are taken as given.
import { UsageError } from '../errors.js';
import type { Column } from '../format.js';
import { closest } from '../suggest.js';
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

/** The value at a field or dotted path: the item's own key of that exact name first, else the path. */
export function valueAt(item: unknown, path: string): unknown {
  if (!isRecord(item)) return undefined;
  if (Object.hasOwn(item, path)) return item[path];
  let v: unknown = item;
  for (const part of path.split('.')) {
    if (Array.isArray(v) && /^\d+$/.test(part)) v = v[Number(part)];
    else if (isRecord(v) && Object.hasOwn(v, part)) v = v[part];
    else return undefined;
  }
  return v;
}

/** A column that shows a field (or a dotted path) of the items as it is: objects and arrays as JSON text. */
export function fieldColumn<T>(path: string, like?: Column<T>): Column<T> {
  return {
    // A field's name is the service's text: in a table header it must not drive the terminal either.
    header: like?.header ?? terminalText(path).toUpperCase(),
    name: path,
    field: path,
    value: (item) => valueAt(item, path),
    ...(like?.style ? { style: like.style } : {}),
    ...(like?.time ? { time: true } : {}),
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
 * dotted paths that at least one item of the sample carries, or every field (`all`). A name that is none of
 * these is exit 2 naming the closest known name. An empty sample takes every name as a field.
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
    throw unknownColumn(n, columns, paths, noun);
  });
}

function unknownColumn<T>(name: string, columns: readonly Column<T>[], paths: Set<string>, noun: string) {
  const names = columns.map(columnName);
  const fields = [...paths].filter((p) => !p.includes('.')).sort();
  const candidates = [...names, ...columns.flatMap((c) => (c.field ? [c.field] : [])), ...paths];
  const best = closest(name, candidates);
  const shown = fields.length > 30 ? [...fields.slice(0, 30), '…'] : fields;
  const use =
    `use a column (${names.join(', ')})` +
    (shown.length > 0 ? `, a field of the ${noun} (${shown.join(', ')})` : '') +
    ', a dotted path into one, or all';
  return new UsageError(
    best !== undefined
      ? `unknown column "${name}", did you mean ${best}? ${use[0]!.toUpperCase()}${use.slice(1)}`
      : `unknown column "${name}": ${use}`,
  );
}
