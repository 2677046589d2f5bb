// `findings ignore`: new entries appended to the ignore file, every other byte of it kept as it was (comments,
// order, blank lines). The yaml package finds where the `ignore` list ends and renders each new value; the new
// text is inserted there, and the result is parsed and checked again before it is written (atomically).
import { isSeq, isScalar, stringify, type Document } from 'yaml';
import { UsageError } from '../../core/errors.js';
import { terminalText } from '../../core/terminal-text.js';
import { endOfDay, parseIgnoreText } from './file.js';

const DAY = 24 * 3600 * 1000;

export interface NewEntry {
  fingerprint: string;
  reason: string;
  expires: string;
  /** One comment line above the entry (the finding's title and resource). */
  comment: string;
}

/** `--expires`: YYYY-MM-DD, `<n>d` (n days from today, UTC) or never; 90 days by default. */
export function parseExpires(raw: string | undefined, now: number): string {
  const value = (raw ?? '90d').trim();
  if (value === 'never') return value;
  const days = /^(\d{1,5})d$/.exec(value);
  if (days) return new Date(now + Number(days[1]) * DAY).toISOString().slice(0, 10);
  const end = endOfDay(value);
  if (end !== undefined && end < now)
    throw new UsageError(
      `invalid --expires "${raw}": that day has passed; an entry must expire in the future`,
      { neutral: `expires: ${value} has passed; an entry must expire in the future` },
    );
  if (end !== undefined) return value;
  throw new UsageError(`invalid --expires "${raw}": use YYYY-MM-DD, <n>d (such as 30d) or never`, {
    neutral: `expires: ${JSON.stringify(value).slice(0, 40)} is not a day of the calendar, <n>d (such as 30d) or never`,
  });
}

/**
 * A plain scalar when YAML reads it back as the same string, else quoted, as the yaml package writes it. Text
 * with a line break or another control character is always double-quoted with escapes: the package's block
 * scalar (`|-` and lines at its own indentation) would not sit inside the entry, and the file would not load.
 */
function scalar(s: string): string {
  // eslint-disable-next-line no-control-regex
  const oneLine = !/[\u0000-\u001f\u007f-\u009f\u2028\u2029]/.test(s);
  return stringify(s, {
    lineWidth: 0,
    ...(oneLine ? {} : { defaultStringType: 'QUOTE_DOUBLE' as const }),
  }).replace(/\n$/, '');
}

/**
 * The comment line's text (a finding's title and resource, from the service): one line with no terminal control
 * (C0, C1, DEL, escape sequences, bidirectional overrides), as tables show text (cli-contract.md §3), so `cat` or
 * `git diff` of the committed file cannot drive a reviewer's terminal or reorder what they read; and nothing YAML
 * refuses (other tools, PyYAML among them, reject a file with a control character even in a comment).
 */
export function commentText(text: string): string {
  return terminalText(text)
    .replace(/[\u2028\u2029]/g, ' ')
    .replace(/[\ufffe\uffff]/g, '');
}

function render(entries: readonly NewEntry[], indent: string, eol = '\n'): string {
  return entries
    .map((e) =>
      [
        `${indent}# ${commentText(e.comment)}`,
        `${indent}- fingerprint: ${e.fingerprint}`,
        `${indent}  reason: ${scalar(e.reason)}`,
        `${indent}  expires: ${e.expires}`,
      ].join(eol),
    )
    .join(eol)
    .concat(eol);
}

/** The file's line ending: CRLF when its first line ends so (a Windows checkout), else LF. */
function eolOf(text: string): string {
  const nl = text.indexOf('\n');
  return nl > 0 && text[nl - 1] === '\r' ? '\r\n' : '\n';
}

/** The indentation of a block sequence's dashes, found from its first item. */
function dashIndent(text: string, itemStart: number): string {
  const lineStart = text.lastIndexOf('\n', itemStart - 1) + 1;
  const m = /^( *)- /.exec(text.slice(lineStart, itemStart + 1));
  return m ? m[1]! : '  ';
}

/**
 * The file's text with the entries appended to its `ignore` list; `text` undefined means there is no file yet.
 * The result is checked (it must load, with every old entry and the new ones).
 */
export function appendEntries(
  text: string | undefined,
  entries: readonly NewEntry[],
  display: string,
): string {
  if (entries.length === 0) return text ?? '';
  let out: string;
  if (text === undefined || text.trim() === '') {
    out = `${text ?? ''}version: 1\nignore:\n${render(entries, '  ')}`;
  } else {
    const { doc, file } = parseIgnoreText(text, display, display);
    // New lines end as the file's do, so a CRLF file does not come back with mixed line endings.
    const eol = eolOf(text);
    out = insert(text, doc, entries, eol) ?? viaDocument(doc, entries, eol, text.startsWith('\ufeff'));
    let after;
    try {
      after = parseIgnoreText(out, display, display).file;
    } catch (err) {
      // The lines such an error names are those of a text never written: it is said as what it is.
      throw cannotAppend(display, err);
    }
    if (after.entries.length !== file.entries.length + entries.length)
      throw cannotAppend(display, new Error(`it did not give ${entries.length} more entries`));
    return out;
  }
  parseIgnoreText(out, display, display);
  return out;
}

function cannotAppend(display: string, err: unknown): UsageError {
  const why = (err instanceof Error ? err.message : String(err)).replace(`${display}:`, 'line ');
  return new UsageError(`cssctl cannot append to the ignore list of ${display} (${why})`, {
    hint: 'add the entry by hand, or write the list as a block list (ignore: followed by "- " items)',
  });
}

/**
 * Checks, before any request, that entries can be appended to `text` (the ignore file as it is; undefined when
 * there is none): a bad file, or one whose list cssctl cannot extend, is exit 2 now, not after the service was
 * asked. Nothing is written.
 */
export function checkAppendable(text: string | undefined, display: string): void {
  appendEntries(
    text,
    [{ fingerprint: '0'.repeat(64), reason: 'check', expires: 'never', comment: 'check' }],
    display,
  );
}

function insert(text: string, doc: Document, entries: readonly NewEntry[], eol: string): string | undefined {
  const withNewline = (t: string) => (t.endsWith('\n') ? t : `${t}${eol}`);
  const root = doc.contents as import('yaml').YAMLMap;
  const pair = root.items.find((p) => isScalar(p.key) && p.key.value === 'ignore');
  if (pair === undefined) return `${withNewline(text)}ignore:${eol}${render(entries, '  ', eol)}`;
  const value = pair.value as import('yaml').Node | null;
  if (
    value === null ||
    (isScalar(value) && value.value === null) ||
    (isSeq(value) && value.flow && value.items.length === 0)
  ) {
    // `ignore:` with nothing after it, a null (`~`, `null`, `!!null`) or an empty flow list (`[]`): its text is
    // taken out, so the key has nothing after it (a comment stays where it was), and the entries go on the
    // lines that follow; every other byte (a byte-order mark too) is kept.
    const keyEnd = (pair.key as import('yaml').Node).range![1];
    const colon = text.indexOf(':', keyEnd);
    const end = value?.range?.[1] ?? colon + 1;
    // From the colon, so a tag or an anchor before the null goes with it; a comment keeps a space before it.
    const rest = text.slice(end);
    const bare =
      text.slice(colon + 1, end).trim() === ''
        ? text
        : `${text.slice(0, colon + 1)}${rest.startsWith('#') ? ' ' : ''}${rest}`;
    const lineEnd = bare.indexOf('\n', colon);
    if (lineEnd < 0) return `${bare}${eol}${render(entries, '  ', eol)}`;
    return `${bare.slice(0, lineEnd + 1)}${render(entries, '  ', eol)}${bare.slice(lineEnd + 1)}`;
  }
  if (!isSeq(value) || value.flow || value.items.length === 0) return undefined;
  const first = value.items[0] as import('yaml').Node;
  const last = value.items[value.items.length - 1] as import('yaml').Node;
  const indent = dashIndent(text, first.range![0]);
  let at = last.range![2];
  // After the last item's line (with any comment on it), before what follows the list.
  if (at > 0 && text[at - 1] !== '\n') {
    const nl = text.indexOf('\n', at);
    at = nl < 0 ? text.length : nl + 1;
  }
  const head = text.slice(0, at);
  return `${withNewline(head)}${render(entries, indent, eol)}${text.slice(at)}`;
}

/** A flow list (`ignore: []`): rewritten by the yaml package's Document API, comments kept. */
function viaDocument(doc: Document, entries: readonly NewEntry[], eol: string, bom: boolean): string {
  const list = doc.get('ignore', true) as import('yaml').YAMLSeq;
  list.flow = false;
  for (const e of entries) {
    const node = doc.createNode({ fingerprint: e.fingerprint, reason: e.reason, expires: e.expires });
    node.commentBefore = ` ${commentText(e.comment)}`;
    list.items.push(node);
  }
  const text = doc.toString({ lineWidth: 0 });
  const out = eol === '\n' ? text : text.replace(/\r?\n/g, eol);
  // The yaml package drops a byte-order mark: the file keeps its own.
  return bom && !out.startsWith('\ufeff') ? `\ufeff${out}` : out;
}
