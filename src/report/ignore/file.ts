// The ignore file `.cssctl-ignore.yaml` (cli-contract.md §8): where it is, how it is read and checked. Parsed
// with the `yaml` package (positions for every error, comments kept for `findings ignore`); validated strictly,
// so a typo never ignores nothing in silence. Every problem is exit 2 before any request, as
// `<file>:<line>:<column>: <what is wrong>`.
import { closest } from '../../core/suggest.js';
import {
  closeSync,
  constants,
  fstatSync,
  lstatSync,
  openSync,
  readSync,
  realpathSync,
  statSync,
} from 'node:fs';
import { dirname, join, relative, resolve, isAbsolute } from 'node:path';
import { LineCounter, isMap, isScalar, isSeq, parseDocument, type Document, type Node } from 'yaml';
import { UsageError } from '../../core/errors.js';

export const IGNORE_FILE_NAME = '.cssctl-ignore.yaml';
/** An ignore file lists accepted risks; one larger than this is not one. */
export const MAX_IGNORE_BYTES = 1024 * 1024;

const TOP_KEYS = ['version', 'ignore'] as const;
const ENTRY_KEYS = ['fingerprint', 'rule', 'resource', 'connection', 'reason', 'expires', 'owner'] as const;

export interface IgnoreEntry {
  /** 1-based line of the entry (its first key). */
  line: number;
  fingerprint?: string;
  rule?: string;
  /** A glob: `*` any run, `?` one character. */
  resource?: string;
  connection?: string;
  reason: string;
  /** `YYYY-MM-DD` or `never`. */
  expires: string;
  /** The end of the expiry day (UTC), in ms; Infinity for never. */
  expiresAt: number;
  owner?: string;
}

export interface IgnoreFile {
  path: string;
  /** As messages name it: relative to the working folder when inside it. */
  display: string;
  entries: IgnoreEntry[];
}

/**
 * Which file applies: `--ignore-file` or CSSCTL_IGNORE_FILE (which must exist), else `.cssctl-ignore.yaml` in
 * the working folder or the nearest parent, stopping at the folder that holds `.git`. `--no-ignore`: none.
 */
export function findIgnoreFile(
  opts: { ignoreFile?: string; ignore?: boolean },
  env: NodeJS.ProcessEnv,
  cwd: string,
): string | undefined {
  if (opts.ignore === false) return undefined;
  const given = opts.ignoreFile ?? (env.CSSCTL_IGNORE_FILE || undefined);
  if (given !== undefined) {
    const path = resolve(cwd, given);
    try {
      statSync(path);
    } catch {
      throw new UsageError(
        `${given}: no such ignore file (${opts.ignoreFile !== undefined ? '--ignore-file' : 'CSSCTL_IGNORE_FILE'})`,
      );
    }
    return path;
  }
  for (let dir = resolve(cwd); ;) {
    const candidate = join(dir, IGNORE_FILE_NAME);
    try {
      lstatSync(candidate);
      return candidate;
    } catch {
      // not here
    }
    if (hasGit(dir)) return undefined;
    const up = dirname(dir);
    if (up === dir) return undefined;
    dir = up;
  }
}

function hasGit(dir: string): boolean {
  try {
    lstatSync(join(dir, '.git'));
    return true;
  } catch {
    return false;
  }
}

export function displayPath(path: string, cwd: string): string {
  const rel = relative(cwd, path);
  return rel !== '' && !rel.startsWith('..') && !isAbsolute(rel) ? rel : path;
}

/**
 * The file's text, refused with a clear error when it is a symbolic link to a file outside its own folder, not
 * a regular file, larger than MAX_IGNORE_BYTES, or not UTF-8.
 */
/** Whether the file begins with a UTF-8 byte-order mark (readIgnoreText leaves it out; a write puts it back). */
export function hasByteOrderMark(path: string): boolean {
  const fd = openSync(path, constants.O_RDONLY | constants.O_NONBLOCK);
  try {
    const head = Buffer.alloc(3);
    return readSync(fd, head, 0, 3, 0) === 3 && head.equals(Buffer.from([0xef, 0xbb, 0xbf]));
  } finally {
    closeSync(fd);
  }
}

export function readIgnoreText(path: string, display: string): string {
  let st;
  try {
    st = lstatSync(path);
  } catch (err) {
    throw new UsageError(
      `${display}: cannot read the ignore file (${(err as NodeJS.ErrnoException).code ?? err})`,
    );
  }
  if (st.isSymbolicLink()) {
    let target: string;
    try {
      target = realpathSync(path);
    } catch {
      throw new UsageError(`${display}: the ignore file is a symbolic link to nothing`);
    }
    const home = realpathSync(dirname(path));
    const rel = relative(home, target);
    if (rel.startsWith('..') || isAbsolute(rel))
      throw new UsageError(
        `${display}: the ignore file is a symbolic link to a file elsewhere (${target}); cssctl reads only a file in its own folder`,
      );
  }
  // Never opened unless it is a regular file (a FIFO would block the open, deaf to Ctrl-C); O_NONBLOCK for
  // one swapped in between.
  if (!statSync(path).isFile()) throw new UsageError(`${display}: the ignore file is not a regular file`);
  const fd = openSync(path, constants.O_RDONLY | constants.O_NONBLOCK);
  try {
    const real = fstatSync(fd);
    if (!real.isFile()) throw new UsageError(`${display}: the ignore file is not a regular file`);
    if (real.size > MAX_IGNORE_BYTES)
      throw new UsageError(
        `${display}: the ignore file is ${real.size.toLocaleString('en-US')} bytes, more than an ignore file can be (1 MiB)`,
      );
    const buf = Buffer.alloc(real.size);
    let off = 0;
    while (off < buf.length) {
      const n = readSync(fd, buf, off, buf.length - off, off);
      if (n === 0) break;
      off += n;
    }
    try {
      return new TextDecoder('utf-8', { fatal: true }).decode(buf.subarray(0, off)).replace(/^\uFEFF/, '');
    } catch {
      const bad = firstBadUtf8(buf.subarray(0, off));
      throw new UsageError(`${display}:${bad.line}:${bad.col}: the ignore file is not UTF-8 text`);
    }
  } finally {
    closeSync(fd);
  }
}

function firstBadUtf8(buf: Buffer): { line: number; col: number } {
  const decoder = new TextDecoder('utf-8', { fatal: true });
  let lo = 0;
  let hi = buf.length;
  // The longest valid prefix, found by halving (at most ~20 decodes for 1 MiB).
  while (lo < hi) {
    const mid = Math.ceil((lo + hi) / 2);
    try {
      decoder.decode(buf.subarray(0, mid), { stream: true });
      decoder.decode();
      lo = mid;
    } catch {
      hi = mid - 1;
    }
  }
  const text = buf.subarray(0, lo).toString('utf8');
  const lines = text.split('\n');
  return { line: lines.length, col: lines[lines.length - 1]!.length + 1 };
}

export class IgnoreFileError extends UsageError {}

export function didYouMean(word: string, options: readonly string[]): string {
  const best = closest(word, options);
  return best !== undefined ? ` — did you mean "${best}"?` : '';
}

/** The end of a `YYYY-MM-DD` day in UTC (ms), or undefined when it is not a real date. */
export function endOfDay(date: string): number | undefined {
  const m = /^(\d{4})-(\d{2})-(\d{2})$/.exec(date);
  if (!m) return undefined;
  const [y, mo, d] = [Number(m[1]), Number(m[2]), Number(m[3])];
  const start = Date.UTC(y, mo - 1, d);
  const check = new Date(start);
  if (check.getUTCFullYear() !== y || check.getUTCMonth() !== mo - 1 || check.getUTCDate() !== d)
    return undefined;
  return start + 24 * 3600 * 1000 - 1;
}

/** Parses and checks the file's text; the Document is kept for `findings ignore`. */
export function parseIgnoreText(
  text: string,
  path: string,
  display: string,
): { file: IgnoreFile; doc: Document; lines: LineCounter } {
  const lines = new LineCounter();
  const doc = parseDocument(text, { lineCounter: lines, uniqueKeys: true, prettyErrors: false });
  const at = (node: { range?: [number, number, number] | null } | null | undefined): string => {
    const pos = lines.linePos(node?.range?.[0] ?? 0);
    return `${display}:${pos.line}:${pos.col}`;
  };
  const fail = (
    node: { range?: [number, number, number] | null } | null | undefined,
    what: string,
  ): never => {
    throw new IgnoreFileError(`${at(node)}: ${what}`);
  };
  const first = doc.errors[0];
  if (first) {
    const pos = lines.linePos(first.pos[0]);
    throw new IgnoreFileError(
      `${display}:${pos.line}:${pos.col}: ${first.message.split('\n')[0]!.replace(/ at line \d+, column \d+:?$/, '')}`,
    );
  }
  const root = doc.contents;
  if (root === null) fail(null, `empty ignore file: it needs "version: 1" and an "ignore" list`);
  if (!isMap(root))
    fail(root as Node, 'the ignore file must be a mapping with "version: 1" and an "ignore" list');
  const map = root as import('yaml').YAMLMap;
  let version: unknown;
  let list: Node | null | undefined;
  for (const pair of map.items) {
    const key = isScalar(pair.key) ? String(pair.key.value) : undefined;
    if (key === 'version') version = isScalar(pair.value) ? pair.value.value : pair.value;
    else if (key === 'ignore') list = pair.value as Node | null;
    else fail(pair.key as Node, `unknown key "${key ?? '?'}"${didYouMean(key ?? '', TOP_KEYS)}`);
  }
  if (version === undefined) fail(root as Node, '"version: 1" is required');
  if (version !== 1)
    fail(
      map.items.find((p) => isScalar(p.key) && p.key.value === 'version')?.value as Node,
      `unsupported version ${JSON.stringify(version)}: use version: 1`,
    );
  const entries: IgnoreEntry[] = [];
  if (list !== undefined && list !== null && !(isScalar(list) && list.value === null)) {
    if (!isSeq(list)) fail(list, '"ignore" must be a list of entries');
    for (const item of (list as import('yaml').YAMLSeq).items) {
      if (!isMap(item))
        fail(item as Node, 'each ignore entry must be a mapping (fingerprint or rule, reason, expires)');
      entries.push(checkEntry(item as import('yaml').YAMLMap, lines, fail));
    }
  }
  return { file: { path, display, entries }, doc, lines };
}

function checkEntry(
  item: import('yaml').YAMLMap,
  lines: LineCounter,
  fail: (node: Node | null | undefined, what: string) => never,
): IgnoreEntry {
  const got: Partial<Record<(typeof ENTRY_KEYS)[number], { text: string; node: Node }>> = {};
  for (const pair of item.items) {
    const keyNode = pair.key as Node;
    const key = isScalar(pair.key) ? String(pair.key.value) : '';
    if (!(ENTRY_KEYS as readonly string[]).includes(key))
      fail(keyNode, `unknown key "${key}"${didYouMean(key, ENTRY_KEYS)}`);
    const value = pair.value as Node | null;
    if (!isScalar(value) || value.value === null || typeof value.value === 'object')
      fail(value ?? keyNode, `"${key}" must be a single value`);
    // The text as written: a fingerprint of digits only, or a date, stays as it was in the file.
    const scalar = value as import('yaml').Scalar;
    const text = typeof scalar.value === 'string' ? scalar.value : String(scalar.source ?? scalar.value);
    got[key as (typeof ENTRY_KEYS)[number]] = { text: text.trim(), node: scalar };
  }
  if (got.fingerprint && got.rule)
    fail(got.rule.node, 'an entry has either "fingerprint" or "rule", not both');
  if (!got.fingerprint && !got.rule)
    fail(item, 'an entry needs "fingerprint" (one finding) or "rule" (every finding of a rule)');
  if (got.fingerprint && (got.resource || got.connection))
    fail(
      (got.resource ?? got.connection)!.node,
      '"resource" and "connection" narrow a "rule" entry, not a "fingerprint" one',
    );
  if (got.fingerprint && !/^[0-9a-f]{12,64}$/i.test(got.fingerprint.text))
    fail(
      got.fingerprint.node,
      'a fingerprint is 12 to 64 hex digits (a prefix of the one findings get shows)',
    );
  if (!got.reason || got.reason.text === '')
    fail(got.reason?.node ?? item, 'an entry needs a non-empty "reason"');
  if (!got.expires) fail(item, 'an entry needs "expires": a date (YYYY-MM-DD) or never');
  const expires = got.expires!.text;
  const expiresAt = expires === 'never' ? Infinity : endOfDay(expires);
  if (expiresAt === undefined)
    fail(
      got.expires!.node,
      `bad date "${expires}": use YYYY-MM-DD (until the end of that day, UTC) or never`,
    );
  for (const k of ['rule', 'resource', 'connection', 'owner'] as const)
    if (got[k] && got[k].text === '') fail(got[k].node, `"${k}" must not be empty`);
  return {
    line: lines.linePos(item.range?.[0] ?? 0).line,
    ...(got.fingerprint ? { fingerprint: got.fingerprint.text.toLowerCase() } : {}),
    ...(got.rule ? { rule: got.rule.text } : {}),
    ...(got.resource ? { resource: got.resource.text } : {}),
    ...(got.connection ? { connection: got.connection.text } : {}),
    reason: got.reason!.text,
    expires,
    expiresAt: expiresAt!,
    ...(got.owner ? { owner: got.owner.text } : {}),
  };
}

/** Finds, reads and checks the ignore file that applies (undefined when none does). Exit 2 on any problem. */
export function loadIgnoreFile(
  opts: { ignoreFile?: string; ignore?: boolean },
  env: NodeJS.ProcessEnv,
  cwd: string,
): IgnoreFile | undefined {
  const path = findIgnoreFile(opts, env, cwd);
  if (path === undefined) return undefined;
  const display = displayPath(path, cwd);
  return parseIgnoreText(readIgnoreText(path, display), path, display).file;
}
