import type { Column } from '../format.js';
import { terminalText } from '../terminal-text.js';

/** A cell's value as its column gives it; undefined for an item that is not an object (a `null` in a list). */
export function cellValue<T>(column: Column<T>, item: T): unknown {
  if (item === null || typeof item !== 'object') return undefined;
  return column.value(item);
}

/** A cell's text. Items that are not objects give empty cells instead of a crash. */
export function cellText<T>(column: Column<T>, item: T): string {
  return valueText(cellValue(column, item));
}

export function valueText(v: unknown): string {
  if (v === undefined || v === null) return '';
  if (typeof v === 'string') return v;
  if (typeof v === 'number' || typeof v === 'boolean') return String(v);
  return JSON.stringify(v) ?? '';
}

/** What a spreadsheet may take for the start of a formula (OWASP, "CSV Injection"). */
const FORMULA_START = /^[=+\-@\t\r]/;

/**
 * One CSV cell, ready for the line (cli-contract.md §3). A text cell (a string value) that starts with `=`,
 * `+`, `-`, `@`, a tab or a carriage return gets a leading `'`, so a spreadsheet shows it as text instead of
 * running it as a formula (OWASP's advice). The rule is on text, as OWASP gives it: a string "-1" is text
 * and is prefixed; a JSON number (-1) is a number and is left as it is, as are booleans and JSON objects.
 * On a terminal (`terminal`: stdout is a TTY) the cell is first neutralised as a table cell is: escape
 * sequences, C0/C1 controls, DEL and bidirectional overrides removed, line breaks and tabs made spaces.
 */
export function csvCell(v: unknown, terminal: boolean): string {
  let text = valueText(v);
  if (terminal) text = terminalText(text);
  // Checked on the text as written and as given: a formula behind a stripped escape sequence counts too.
  if (typeof v === 'string' && (FORMULA_START.test(v) || FORMULA_START.test(text))) text = `'${text}`;
  return csvField(text);
}

/** RFC 4180: quote a field holding a comma, quote or line break; double the quotes inside. */
export function csvField(text: string): string {
  return /[",\r\n]/.test(text) ? `"${text.replace(/"/g, '""')}"` : text;
}
