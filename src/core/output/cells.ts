import type { Column } from '../format.js';

/** A cell's text. Items that are not objects (a `null` in a list) give empty cells instead of a crash. */
export function cellText<T>(column: Column<T>, item: T): string {
  if (item === null || typeof item !== 'object') return '';
  return valueText(column.value(item));
}

export function valueText(v: unknown): string {
  if (v === undefined || v === null) return '';
  if (typeof v === 'string') return v;
  if (typeof v === 'number' || typeof v === 'boolean') return String(v);
  return JSON.stringify(v) ?? '';
}

/** RFC 4180: quote a field holding a comma, quote or line break; double the quotes inside. */
export function csvField(text: string): string {
  return /[",\r\n]/.test(text) ? `"${text.replace(/"/g, '""')}"` : text;
}
