// `--columns a,b,…`: which columns a table (or csv) shows, by name, in the order given.
import { UsageError } from '../errors.js';
import type { Column } from '../format.js';

/** The name `--columns` knows a column by: its own, else its header in lower case (spaces as '_'). */
export function columnName(c: Pick<Column<unknown>, 'name' | 'header'>): string {
  return c.name ?? c.header.toLowerCase().replace(/\s+/g, '_');
}

/** The formats `--columns` applies to. */
export const COLUMN_FORMATS = ['table', 'wide', 'csv'];

/**
 * The columns named by `--columns` (case-insensitive, each once, in the order given), or all of them when
 * the option is not given. An unknown or empty name is a usage error naming the valid ones; so is
 * `--columns` with a format that has no columns (json, ndjson, the reports).
 */
export function selectColumns<T>(columns: Column<T>[], raw: string | undefined, format: string): Column<T>[] {
  if (raw === undefined) return columns;
  const valid = columns.map(columnName);
  const names = raw.split(',').map((n) => n.trim().toLowerCase());
  if (!COLUMN_FORMATS.includes(format))
    throw new UsageError(`--columns applies to ${COLUMN_FORMATS.join(', ')} output, not ${format}`);
  if (names.some((n) => n === ''))
    throw new UsageError(`empty column name in --columns "${raw}": use ${valid.join(', ')}`);
  const chosen: Column<T>[] = [];
  for (const n of new Set(names)) {
    const i = valid.indexOf(n);
    if (i < 0) throw new UsageError(`unknown column "${n}": use ${valid.join(', ')}`);
    chosen.push(columns[i]!);
  }
  return chosen;
}
