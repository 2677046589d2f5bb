// A JSON array of findings read as a stream, element by element, as ndjson is read line by line: memory stays
// flat in the file's size (a 600 MB `findings list --all -o json` is more than V8's longest string, so it cannot
// be read whole). Only the array's own punctuation is scanned here — where each element starts and ends — and
// each element's text is parsed by JSON.parse, the same parser that reads ndjson lines and the service's answers,
// so a finding reads the same whichever way it came (numbers, escapes, duplicate keys, `__proto__`).
import { MAX_JSON_DEPTH, tooDeep } from '../../core/json-depth.js';
import { jsonErrorLine } from './json-error.js';

/** One element of the array: its text, its number (1-based) and the line it starts on. */
export interface ArrayElement {
  text: string;
  index: number;
  line: number;
}

/** Why the text is not an array of objects; `line` is where it went wrong. */
export class ArrayTextError extends Error {
  constructor(
    message: string,
    readonly line: number,
    /** The element concerned, when the problem is one element. */
    readonly index?: number,
  ) {
    super(message);
  }
}

export interface ArrayLimits {
  /** The longest element, in characters (default 64 Mi: the service's answers are at most 64 MiB whole). */
  maxElement?: number;
  /** The deepest nesting of an element (default MAX_JSON_DEPTH; the array itself is not counted). */
  maxDepth?: number;
}

const DEFAULT_MAX_ELEMENT = 64 * 1024 * 1024;

const enum At {
  /** Before the opening `[`. */
  Start,
  /** After `[`: an element or `]`. */
  First,
  /** After `,`: an element. */
  Next,
  /** Inside an element (an object). */
  In,
  /** After an element: `,` or `]`. */
  After,
  /** After the closing `]`: only white space. */
  End,
}

const OPEN_OBJECT = 0x7b;
const CLOSE_OBJECT = 0x7d;
const OPEN_ARRAY = 0x5b;
const CLOSE_ARRAY = 0x5d;
const QUOTE = 0x22;
const BACKSLASH = 0x5c;
const COMMA = 0x2c;
const NEWLINE = 0x0a;

function isSpace(c: number): boolean {
  return c === 0x20 || c === 0x0a || c === 0x0d || c === 0x09;
}

/** The first character of a JSON value other than an object: the element is valid JSON but not a finding. */
function startsValue(c: number): boolean {
  return (
    c === OPEN_ARRAY ||
    c === QUOTE ||
    c === 0x2d ||
    (c >= 0x30 && c <= 0x39) ||
    c === 0x74 ||
    c === 0x66 ||
    c === 0x6e
  );
}

/**
 * The elements of a JSON array given as text chunks (a UTF-8 decoded file stream), each as the text of one
 * object. Anything else — text around the array, a missing comma, an element that is not an object, an element
 * longer than `maxElement` or nested deeper than `maxDepth`, an array that never closes — throws an
 * ArrayTextError naming the line. The element texts are not parsed here: the caller parses them (and reports a
 * bad one at `line` + its own line).
 */
export async function* arrayElements(
  chunks: AsyncIterable<string>,
  limits: ArrayLimits = {},
): AsyncGenerator<ArrayElement> {
  const maxElement = limits.maxElement ?? DEFAULT_MAX_ELEMENT;
  const maxDepth = limits.maxDepth ?? MAX_JSON_DEPTH;
  let at = At.Start as At;
  let line = 1;
  let index = 0;
  // Inside an element: nesting depth, whether in a string, whether the last character was a backslash there.
  let depth = 0;
  let inString = false;
  let escaped = false;
  let startLine = 0;
  // The element's text from earlier chunks, and how long it is.
  let pieces: string[] = [];
  let held = 0;
  const fail = (what: string, where = line, which?: number): never => {
    throw new ArrayTextError(what, where, which);
  };
  let first = true;
  for await (let chunk of chunks) {
    if (first && chunk !== '') {
      chunk = chunk.replace(/^\uFEFF/, '');
      first = false;
    }
    let begin = at === At.In ? 0 : -1;
    const n = chunk.length;
    for (let i = 0; i < n; i++) {
      const c = chunk.charCodeAt(i);
      if (at === At.In) {
        if (inString) {
          if (escaped) escaped = false;
          else if (c === BACKSLASH) escaped = true;
          else if (c === QUOTE) inString = false;
          else if (c === NEWLINE) line++;
          continue;
        }
        if (c === QUOTE) inString = true;
        else if (c === OPEN_OBJECT || c === OPEN_ARRAY) {
          if (++depth > maxDepth) fail(`item ${index} ${tooDeep(maxDepth)}`, line, index);
        } else if (c === CLOSE_OBJECT || c === CLOSE_ARRAY) {
          if (--depth === 0) {
            const tail = chunk.slice(begin, i + 1);
            const text = pieces.length === 0 ? tail : pieces.join('') + tail;
            pieces = [];
            held = 0;
            begin = -1;
            at = At.After;
            if (text.length > maxElement)
              fail(`item ${index} is longer than ${maxElement / (1024 * 1024)} MiB`, startLine, index);
            yield { text, index, line: startLine };
          }
        } else if (c === NEWLINE) line++;
        continue;
      }
      if (c === NEWLINE) {
        line++;
        continue;
      }
      if (isSpace(c)) continue;
      switch (at) {
        case At.Start:
          if (c !== OPEN_ARRAY) fail('not a JSON array of findings');
          at = At.First;
          break;
        case At.First:
        case At.Next:
          if (c === CLOSE_ARRAY && at === At.First) {
            at = At.End;
            break;
          }
          index++;
          if (c !== OPEN_OBJECT) {
            if (startsValue(c)) fail(`item ${index} is not a finding (an object)`, line, index);
            fail('not valid JSON');
          }
          at = At.In;
          depth = 1;
          inString = false;
          escaped = false;
          startLine = line;
          begin = i;
          break;
        case At.After:
          if (c === COMMA) at = At.Next;
          else if (c === CLOSE_ARRAY) at = At.End;
          else fail('not valid JSON');
          break;
        case At.End:
          fail('not valid JSON: text after the end of the array');
      }
    }
    if (at === At.In) {
      const rest = chunk.slice(Math.max(begin, 0));
      held += rest.length;
      if (held > maxElement)
        fail(`item ${index} is longer than ${maxElement / (1024 * 1024)} MiB`, startLine, index);
      pieces.push(rest);
    }
  }
  if (at === At.Start) fail('the file is empty');
  if (at !== At.End) fail('not valid JSON: the file ends inside the array');
}

/** The line of the file where an element's text stops being JSON (the element starting on `line`). */
export function elementErrorLine(element: ArrayElement): number {
  return element.line + (jsonErrorLine(element.text) ?? 1) - 1;
}
