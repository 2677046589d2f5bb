// The jq engine: jq 1.8 compiled to WebAssembly (npm `jq-wasm`, pinned exactly in package.json). This module
// is loaded only when --jq is given (src/jq/stage.ts), and loads jq-wasm with it: no other command pays for
// it. jq-wasm is bundled apart, with its WebAssembly inlined (dist/jq.cjs, scripts/build.mjs).
import type { Jq, JqResult } from 'jq-wasm';

/** A new jq instance (jq-wasm compiles its inlined WebAssembly). */
async function newInstance(): Promise<Jq> {
  const { loadJq } = await import('jq-wasm');
  return loadJq();
}

/** The process's jq instance: one serves every program; an instance that aborted is replaced. */
let shared: Promise<Jq> | undefined;
function sharedInstance(): Promise<Jq> {
  shared ??= newInstance();
  return shared;
}

/** A jq error while running: jq's message, and the input it happened on (its line, 1-based). */
export interface JqRunError {
  message: string;
  line?: number;
}

export interface JqRun {
  /** Each result as compact JSON (one per jq output). */
  results: string[];
  /** What jq wrote to stderr that is not the error (`debug`, `stderr`). */
  messages: string;
  error?: JqRunError;
}

/** `jq: error (at /dev/stdin:3): …` — a run-time error and the input line it names. */
const RUN_ERROR = /^jq: error \(at [^)]*?:(\d+)\): (.*)$/m;

/**
 * One jq program with its variables, run over JSON text. jq compiles the program on every run (it is jq's
 * `main`); the instance is made again after an abort (out of memory, a trap), so that one bad run never
 * poisons the next.
 */
export class JqProgram {
  private constructor(
    private readonly filter: string,
    private readonly flags: string[],
    private jq: Jq | undefined,
  ) {}

  /**
   * Checks that the filter compiles: jq is run over an empty input, which compiles the program and runs it
   * on nothing. Resolves to the program, or to jq's message when it does not compile.
   */
  static async compile(
    filter: string,
    varFlags: string[],
  ): Promise<{ program: JqProgram } | { error: string }> {
    const jq = await sharedInstance();
    const flags = ['-c', ...varFlags];
    let r: JqResult;
    try {
      r = quietly(() => jq.raw('', filter, flags));
    } catch (err) {
      // jq folds constants as it compiles: `"x" * 1e9` can abort here already.
      shared = newInstance();
      return { error: aborted(err) };
    }
    if (r.exitCode !== 0) return { error: compileMessage(r) };
    return { program: new JqProgram(filter, flags, jq) };
  }

  /** Runs the program over `text`: one or more JSON values (a document, or ndjson lines). */
  run(text: string): JqRun {
    const jq = this.jq;
    if (!jq) return { results: [], messages: '', error: { message: 'jq is not ready (await ready())' } };
    let r: JqResult;
    try {
      r = quietly(() => jq.raw(text, this.filter, this.flags));
    } catch (err) {
      // The WebAssembly aborted (jq ran out of memory, or trapped): this instance is not used again.
      this.jq = undefined;
      shared = newInstance();
      this.pending = shared.then((fresh) => (this.jq = fresh));
      return { results: [], messages: '', error: { message: aborted(err) } };
    }
    const results = r.stdout === '' ? [] : r.stdout.split('\n');
    const m = RUN_ERROR.exec(r.stderr);
    if (m) {
      // jq goes on after an error and may report more: the first is the one cssctl stops at.
      const messages = r.stderr
        .split('\n')
        .filter((l) => l !== '' && !RUN_ERROR.test(l))
        .join('\n');
      return { results, messages, error: { message: m[2]!, line: Number(m[1]) } };
    }
    const parse = /^jq: (parse error: .*)$/m.exec(r.stderr);
    if (parse && r.exitCode !== 0) {
      // Not JSON on the way in: a command whose output is text.
      return { results, messages: '', error: { message: `the output is not JSON (${parse[1]})` } };
    }
    if (r.exitCode !== 0) {
      // halt_error: its message is what the program chose to say.
      return { results, messages: '', error: { message: r.stderr.trim() || `jq exited with ${r.exitCode}` } };
    }
    return { results, messages: r.stderr };
  }

  private pending?: Promise<unknown>;

  /** Waits until an instance made after an abort is ready (run() before then would have nothing to use). */
  async ready(): Promise<void> {
    await this.pending;
    this.pending = undefined;
  }
}

/** The message for a WebAssembly abort: Emscripten's own adds only advice on how to build it. */
function aborted(err: unknown): string {
  const why = err instanceof Error ? err.message.replace(/\s*Build with -s\S+.*$/, '') : String(err);
  return `jq stopped: ${why || 'aborted'} (out of memory?)`;
}

/** The Emscripten runtime prints "Aborted()" with console.error when jq aborts: cssctl reports it itself. */
function quietly<T>(fn: () => T): T {
  const saved = console.error;
  console.error = () => undefined;
  try {
    return fn();
  } finally {
    console.error = saved;
  }
}

/**
 * jq's compile message on one line: `syntax error, unexpected end of file at <top-level>, line 1, column 5`
 * (jq also prints the line of the program with a caret under the place, and a count of errors).
 */
function compileMessage(r: JqResult): string {
  const lines = r.stderr.split('\n');
  const errors = lines.filter((l) => l.startsWith('jq: error: ')).map((l) => l.slice(11).replace(/:$/, ''));
  if (errors.length > 0) return errors.join('; ');
  // Not a compile error as such: an invalid --argjson, say ("jq: invalid JSON text passed to --argjson").
  const first = lines.find((l) => l.trim() !== '') ?? `jq exited with ${r.exitCode}`;
  return first.replace(/^jq: /, '');
}
