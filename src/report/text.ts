// How text from the service is read and made safe in reports: one place for every format and the step summary.

/** A field as text: strings as they are, numbers and booleans printed, anything else as JSON. */
export function text(v: unknown): string {
  if (v === undefined || v === null) return '';
  if (typeof v === 'string') return v;
  if (typeof v === 'number' || typeof v === 'boolean' || typeof v === 'bigint') return String(v);
  return JSON.stringify(v) ?? '';
}

/** A character that cannot or should not be carried as it is, shown as its JSON escape: ESC → `\u001b`. */
export function visibleEscape(c: string): string {
  return c
    .split('')
    .map((u) => `\\u${u.charCodeAt(0).toString(16).padStart(4, '0')}`)
    .join('');
}

/**
 * Text that must not drive a terminal or a log viewer: C0 controls other than tab, CR and LF, DEL, C1
 * controls and the bidirectional overrides and isolates (as cli-contract.md §3 asks of tables).
 */
export const TERMINAL_UNSAFE =
  // eslint-disable-next-line no-control-regex
  /[\u0000-\u0008\u000b\u000c\u000e-\u001f\u007f-\u009f\u202a-\u202e\u2066-\u2069]/g;

export function neutraliseControls(s: string): string {
  return s.replace(TERMINAL_UNSAFE, visibleEscape);
}

/**
 * Service text inside Markdown (SARIF help, the step summary): every ASCII punctuation character a renderer
 * may act on is backslash-escaped (CommonMark allows it before any of them), `&` becomes `&amp;`, so text
 * never turns into links, emphasis, HTML or table cells.
 */
export function markdownText(s: string): string {
  return s.replace(/[\\`*_{}[\]()#+\-.!|<>~&]/g, (c) => (c === '&' ? '&amp;' : `\\${c}`));
}
