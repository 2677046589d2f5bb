// A set of findings from a file (cli-contract.md §8 `<ref>`): a JSON array or ndjson of findings as
// `findings list -o json|ndjson` writes them, or a SARIF log that cssctl wrote. Anything else is exit 2 naming
// the file and the line.
import { closeSync, constants, createReadStream, openSync, readSync, statSync } from 'node:fs';
import { createInterface } from 'node:readline';
import type { Finding } from '../../api/findings-types.js';
import { UsageError } from '../../core/errors.js';
import { nestsDeeperThan, tooDeep } from '../../core/json-depth.js';
import { GIVEN_FINGERPRINT } from '../fingerprint.js';
import { jsonErrorLine } from './json-error.js';
import { ArrayTextError, arrayElements, elementErrorLine } from './json-array.js';

/** A value names a file when it contains `/` or ends in .json, .ndjson or .sarif. */
export function isFileRef(value: string): boolean {
  return value.includes('/') || /\.(json|ndjson|sarif)$/i.test(value);
}

function bad(path: string, line: number | undefined, what: string): UsageError {
  return new UsageError(`${path}${line === undefined ? '' : `:${line}`}: ${what}`, {
    hint: 'give a file that findings list -o json or -o ndjson wrote, or a SARIF log cssctl wrote',
  });
}

/** The largest SARIF log read (whole). */
const MAX_DOCUMENT = 256 * 2 ** 20;

/** A UTF-8 byte order mark, which some editors and shells (PowerShell) put at the start of a file they write. */
const BOM = /^\uFEFF/;

/**
 * Whether an object can be a finding: it has one of the fields a finding is matched by. Anything else (a list
 * answer of the service, `{"items": […], "total": n}`, saved on one line) would be compared as one finding with
 * no fields, and every finding of the other side would be new.
 */
function looksLikeFinding(v: object): boolean {
  return ['id', 'fingerprint', 'title', 'resource', 'rule_id', 'check_id'].some((k) => k in v);
}

/** The line of a JSON.parse error: V8's message when it gives one, else found by walking the text. */
function lineOf(text: string, err: unknown): number | undefined {
  const m = /\(line (\d+) column \d+\)/.exec(String((err as Error).message));
  return m ? Number(m[1]) : jsonErrorLine(text);
}

/** The first non-blank character of the file (which kind of file it is), without reading it whole. */
function firstChar(path: string): string {
  // Checked to be a regular file first; O_NONBLOCK so that one swapped for a FIFO never blocks the open.
  const fd = openSync(path, constants.O_RDONLY | constants.O_NONBLOCK);
  try {
    const buf = Buffer.alloc(4096);
    for (let pos = 0; ;) {
      const n = readSync(fd, buf, 0, buf.length, pos);
      if (n === 0) return '';
      const m = /\S/.exec(buf.toString('utf8', 0, n));
      if (m) return m[0];
      pos += n;
    }
  } finally {
    closeSync(fd);
  }
}

function checkFile(path: string): void {
  let st;
  try {
    st = statSync(path);
  } catch (err) {
    const code = (err as NodeJS.ErrnoException).code;
    throw new UsageError(
      `cannot read ${path}: ${code === 'ENOENT' ? 'no such file' : (code ?? String(err))}`,
    );
  }
  if (!st.isFile()) throw new UsageError(`cannot read ${path}: not a regular file`);
}

/**
 * Checks the file and gives its findings as a stream: ndjson line by line and a JSON array element by element
 * (memory stays flat); a SARIF log is parsed whole. Each item must be an object.
 */
export function readFindingsFile(path: string): AsyncIterable<Finding> {
  checkFile(path);
  const first = firstChar(path);
  if (first === '') throw bad(path, 1, 'the file is empty');
  if (first !== '[' && first !== '{') throw bad(path, 1, 'not JSON, ndjson or a SARIF log');
  return {
    async *[Symbol.asyncIterator]() {
      if (first === '[') {
        yield* jsonArray(path);
        return;
      }
      // An object: a SARIF log (one document) or ndjson (one finding a line).
      const lines = createInterface({ input: createReadStream(path, 'utf8'), crlfDelay: Infinity });
      let n = 0;
      let firstDoc: unknown;
      let firstLine = 0;
      let buffered: string[] | undefined;
      for await (let line of lines) {
        n++;
        if (n === 1) line = line.replace(BOM, '');
        if (line.trim() === '') continue;
        if (buffered) {
          buffered.push(line);
          continue;
        }
        if (nestsDeeperThan(line)) throw bad(path, n, `the line ${tooDeep()}`);
        let value: unknown;
        try {
          value = JSON.parse(line);
        } catch {
          if (firstDoc === undefined) {
            // Not one JSON value a line: a document over several lines (a SARIF log), read whole below.
            buffered = [line];
            firstLine = n;
            continue;
          }
          throw bad(path, n, 'not a JSON value (an ndjson file has one finding a line)');
        }
        if (firstDoc === undefined) {
          firstDoc = value;
          if (isSarif(value)) {
            yield* sarifFindings(path, value);
            return;
          }
        }
        if (value === null || typeof value !== 'object' || Array.isArray(value))
          throw bad(path, n, 'not a finding (an object)');
        if (!looksLikeFinding(value))
          throw bad(path, n, 'not a finding: an object with no id, title, resource or fingerprint');
        yield value as Finding;
      }
      if (buffered) {
        lines.close();
        // A SARIF log is one document, read whole; cssctl writes at most 25,000 results into one, far below
        // this. Past it, the text could not even be one string (V8's limit is ~512 MiB).
        if (statSync(path).size > MAX_DOCUMENT)
          throw bad(
            path,
            1,
            `a JSON document over several lines larger than ${MAX_DOCUMENT / 2 ** 20} MiB (not a SARIF log cssctl wrote); give a JSON array or ndjson`,
          );
        const { readFileSync } = await import('node:fs');
        const textAll = readFileSync(path, 'utf8').replace(BOM, '');
        let doc: unknown;
        try {
          doc = JSON.parse(textAll);
        } catch (err) {
          throw bad(path, lineOf(textAll, err) ?? firstLine, 'not valid JSON');
        }
        if (!isSarif(doc)) throw bad(path, 1, 'a JSON object that is not a SARIF log');
        yield* sarifFindings(path, doc);
      }
    },
  };
}

/** A JSON array of findings, read element by element (json-array.ts): memory stays flat in the file's size. */
async function* jsonArray(path: string): AsyncGenerator<Finding> {
  const chunks = createReadStream(path, { encoding: 'utf8', highWaterMark: 1024 * 1024 });
  try {
    for await (const element of arrayElements(chunks)) {
      let f: unknown;
      try {
        f = JSON.parse(element.text);
      } catch {
        throw bad(path, elementErrorLine(element), 'not valid JSON');
      }
      if (!looksLikeFinding(f as object))
        throw bad(
          path,
          element.line,
          `item ${element.index} is not a finding: it has no id, title, resource or fingerprint`,
        );
      yield f as Finding;
    }
  } catch (err) {
    if (err instanceof ArrayTextError) throw bad(path, err.line, err.message);
    throw err;
  } finally {
    chunks.destroy();
  }
}

function isSarif(v: unknown): v is { runs: unknown[] } {
  return v !== null && typeof v === 'object' && Array.isArray((v as { runs?: unknown }).runs);
}

/** What a JSON value is, for an error that says what was found instead: `null`, `a number (5)`, `a list`. */
function what(v: unknown): string {
  if (v === null) return 'null';
  if (Array.isArray(v)) return 'a list';
  if (typeof v === 'object') return 'an object';
  if (typeof v === 'string') return `a string (${JSON.stringify(v.length > 20 ? `${v.slice(0, 19)}…` : v)})`;
  return `${typeof v === 'number' ? 'a number' : `a ${typeof v}`} (${String(v)})`;
}

type Json = Record<string, unknown>;

/**
 * The parts of a SARIF log this reader uses, checked before any finding is given (cli-contract.md §8: a file
 * that is not one cssctl wrote is exit 2 naming the file and what is wrong): `where` is a JSON path such as
 * `runs[0].results[3].partialFingerprints`.
 */
class SarifShape {
  constructor(private readonly path: string) {}

  fail(where: string, expected: string, v: unknown): never {
    throw bad(this.path, undefined, `${where} is ${what(v)}, not ${expected} (a SARIF log cssctl wrote)`);
  }
  object(v: unknown, where: string): Json {
    if (v === null || typeof v !== 'object' || Array.isArray(v)) this.fail(where, 'an object', v);
    return v as Json;
  }
  /** An optional object: undefined when absent. */
  maybeObject(v: unknown, where: string): Json | undefined {
    return v === undefined ? undefined : this.object(v, where);
  }
  list(v: unknown, where: string): unknown[] {
    if (v === undefined) return [];
    if (!Array.isArray(v)) this.fail(where, 'a list', v);
    return v;
  }
  /** An optional string: undefined when absent. */
  maybeString(v: unknown, where: string): string | undefined {
    if (v === undefined) return undefined;
    if (typeof v !== 'string') this.fail(where, 'a string', v);
    return v;
  }
}

/**
 * A SARIF log cssctl wrote: fingerprints from cssctlFindingHash/v1, severities from properties.severity. The
 * whole log is checked before the first finding is given.
 */
function* sarifFindings(path: string, doc: { runs: unknown[] }): Generator<Finding> {
  const shape = new SarifShape(path);
  const found: Finding[] = [];
  doc.runs.forEach((runValue, i) => {
    const at = `runs[${i}]`;
    const run = shape.object(runValue, at);
    const driver = shape.maybeObject(shape.maybeObject(run.tool, `${at}.tool`)?.driver, `${at}.tool.driver`);
    if (driver?.name !== 'cssctl') throw bad(path, 1, 'a SARIF log that cssctl did not write');
    const titles = new Map<string | undefined, string | undefined>();
    shape.list(driver.rules, `${at}.tool.driver.rules`).forEach((ruleValue, j) => {
      const where = `${at}.tool.driver.rules[${j}]`;
      const rule = shape.object(ruleValue, where);
      const short = shape.maybeObject(rule.shortDescription, `${where}.shortDescription`);
      titles.set(
        shape.maybeString(rule.id, `${where}.id`),
        shape.maybeString(short?.text, `${where}.shortDescription.text`),
      );
    });
    shape.list(run.results, `${at}.results`).forEach((resultValue, j) => {
      const where = `${at}.results[${j}]`;
      const r = shape.object(resultValue, where);
      const hashes = shape.maybeObject(r.partialFingerprints, `${where}.partialFingerprints`);
      const properties = shape.maybeObject(r.properties, `${where}.properties`) ?? {};
      const fingerprint = hashes?.['cssctlFindingHash/v1'];
      const severity = properties.severity;
      if (typeof fingerprint !== 'string' || typeof severity !== 'string')
        throw bad(
          path,
          undefined,
          `${where}: a SARIF result without cssctlFindingHash/v1 or properties.severity`,
        );
      const ruleId = shape.maybeString(r.ruleId, `${where}.ruleId`);
      const message = shape.maybeObject(r.message, `${where}.message`);
      const location = shape.list(r.locations, `${where}.locations`)[0];
      const logical =
        location === undefined
          ? undefined
          : shape.list(
              shape.object(location, `${where}.locations[0]`).logicalLocations,
              `${where}.locations[0].logicalLocations`,
            )[0];
      const resource =
        logical === undefined
          ? undefined
          : shape.maybeString(
              shape.object(logical, `${where}.locations[0].logicalLocations[0]`).fullyQualifiedName,
              `${where}.locations[0].logicalLocations[0].fullyQualifiedName`,
            );
      const id = properties['finding-id'];
      const connection = properties.connection;
      found.push({
        id: typeof id === 'string' ? id : '',
        severity,
        title: titles.get(ruleId) ?? shape.maybeString(message?.text, `${where}.message.text`),
        resource,
        ...(typeof connection === 'string' ? { connection_alias: connection } : {}),
        rule_id: ruleId,
        [GIVEN_FINGERPRINT]: fingerprint,
      } as Finding);
    });
  });
  yield* found;
}
