// The jq engine: jq 1.8 compiled to WebAssembly (npm `jq-wasm`, pinned exactly in package.json). This module is
// loaded only when --jq is given (src/jq/stage.ts): no other command pays for it. jq-wasm is bundled apart
// (dist/jq.cjs, with its WebAssembly beside it as dist/jq.wasm, scripts/build.mjs); the single executable carries
// both as assets.
//
// Where jq runs: first on the main thread, for slices of time (src/jq/here.ts): starting a worker costs more
// than jq itself. A program that outlasts them (`last(range(1e12))`, `repeat(1)`, `def f: f; f`, or a long one
// that ends) is stopped there and runs again in a worker thread, skipping the results already written, and every
// later run of the command goes there too. WebAssembly running on the main thread keeps every signal
// handler from running (Ctrl-C, SIGTERM, a CI runner's time-out), so it may hold it only for the slice; in the
// thread, the main thread only waits, and the command's signal (aborted on Ctrl-C or SIGTERM, src/cli.ts)
// terminates the thread at once: the command ends with exit 130.
import { existsSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Worker } from 'node:worker_threads';
import type { JqResult } from 'jq-wasm';
import { CliError, InterruptedError } from '../core/errors.js';
import { JqHere, slice, type JqSource } from './here.js';
import {
  JQ_WORKER_CODE,
  RING_BYTES,
  RING_DATA,
  RING_NUDGED,
  RING_READ,
  RING_WRITTEN,
} from './worker-code.js';

/**
 * Where jq is loaded from: jq-wasm's JavaScript as a file, or the text of one (the single executable's asset),
 * and its WebAssembly apart (a file, or the asset's bytes): 54 KB of JavaScript and 0.9 MB of WebAssembly, where
 * the WebAssembly inlined as base64 made 1.3 MB of JavaScript to compile and decode first.
 */
function jqFrom(): JqSource {
  const sea = process.getBuiltinModule('node:sea') as typeof import('node:sea') | undefined;
  if (sea?.isSea())
    return {
      code: sea.getAsset('jq.cjs', 'utf8'),
      filename: join(dirname(process.execPath), 'jq.cjs'),
      // The asset's own bytes, not a copy of its 0.9 MB (~10 ms): WebAssembly only reads them.
      wasm: sea.getRawAsset('jq.wasm'),
    };
  // The package: dist/jq.cjs and dist/jq.wasm beside the bundle (import.meta.url is dist/cli.cjs there).
  const built = fileURLToPath(new URL('./jq.cjs', import.meta.url));
  if (existsSync(built))
    return { path: built, wasmPath: fileURLToPath(new URL('./jq.wasm', import.meta.url)) };
  // src/ as it is (the unit tests): jq-wasm from node_modules.
  const path = process
    .getBuiltinModule('node:module')
    .createRequire(import.meta.url)
    .resolve('jq-wasm');
  return { path, wasmPath: join(dirname(path), 'build', 'jq.wasm') };
}

type Reply =
  { id: number; result: JqResult } | { id: number; aborted: string } | { id: number; failed: string };

/** Takes the results jq has yielded so far, each as compact JSON (one per jq output), in order. */
export type OnResults = (results: string[]) => void;

/** jq's thread: one at a time per process, made again after it was terminated or died. */
class JqThread {
  private readonly worker: Worker;
  private readonly pending = new Map<number, { resolve: (r: Reply) => void; reject: (e: unknown) => void }>();
  private next = 1;
  /** The results jq writes as it runs (worker-code.ts): control words and bytes, shared with jq's thread. */
  private readonly ctrl: Int32Array;
  private readonly ring: Uint8Array;
  private readonly decoder = new TextDecoder();
  /** The text after the last line break taken from the ring. */
  private partial = '';
  /** Who takes the results of the run under way (one streams at a time: jq's thread runs one at a time). */
  private readonly listeners = new Map<number, OnResults>();
  dead = false;

  constructor() {
    const { Worker } = process.getBuiltinModule(
      'node:worker_threads',
    ) as typeof import('node:worker_threads');
    const shared = new SharedArrayBuffer(RING_DATA + RING_BYTES);
    this.ctrl = new Int32Array(shared, 0, 4);
    this.ring = new Uint8Array(shared, RING_DATA, RING_BYTES);
    this.worker = new Worker(JQ_WORKER_CODE, { eval: true, workerData: { from: jqFrom(), ring: shared } });
    // Only a question waiting for its answer keeps the process alive (ref'd in ask()).
    this.worker.unref();
    this.worker.on('message', (reply: Reply | { nudge: true }) => {
      if ('nudge' in reply) {
        this.take();
        return;
      }
      this.take();
      // A last result without its line break (a halt may leave one).
      if (this.partial !== '') this.listeners.get(reply.id)?.([this.partial]);
      this.partial = '';
      this.listeners.delete(reply.id);
      const p = this.pending.get(reply.id);
      if (!p) return;
      this.pending.delete(reply.id);
      if (this.pending.size === 0) this.worker.unref();
      p.resolve(reply);
    });
    this.worker.on('error', (err) => this.end(new CliError(`jq stopped: ${err.message}`, { cause: err })));
    this.worker.on('exit', (code) => this.end(new CliError(`jq stopped (its thread exited with ${code})`)));
  }

  /**
   * jq over `input` (or over the parts held under a key); rejects with InterruptedError at once when `signal` is
   * aborted (the thread is ended).
   */
  ask(
    input: string | { held: number },
    filter: string,
    flags: string[],
    signal?: AbortSignal,
    onResults?: OnResults,
    skip = 0,
  ): Promise<Reply> {
    if (this.dead) return Promise.reject(new CliError('jq stopped'));
    if (signal?.aborted) return Promise.reject(new InterruptedError());
    const id = this.next++;
    this.worker.ref();
    if (onResults) this.listeners.set(id, onResults);
    const stream = onResults !== undefined;
    this.worker.postMessage(
      typeof input === 'string'
        ? { id, input, filter, flags, stream, skip }
        : { id, held: input.held, filter, flags, stream, skip },
    );
    return this.answer(id, signal);
  }

  /**
   * Takes what jq's thread has put in the ring since the last time and hands the whole lines on, in order, to the
   * run they belong to (the one under way: a run's answer comes only once its bytes were taken). The thread waits
   * while the ring is full, so a filter that never ends holds no more memory than the ring.
   */
  private take(): void {
    Atomics.store(this.ctrl, RING_NUDGED, 0);
    const read = Atomics.load(this.ctrl, RING_READ);
    const written = Atomics.load(this.ctrl, RING_WRITTEN);
    const n = (written - read) | 0;
    if (n === 0) return;
    const at = read & (RING_BYTES - 1);
    const first = Math.min(n, RING_BYTES - at);
    // A copy: TextDecoder takes no view of shared memory.
    const bytes = new Uint8Array(n);
    bytes.set(this.ring.subarray(at, at + first));
    if (n > first) bytes.set(this.ring.subarray(0, n - first), first);
    Atomics.store(this.ctrl, RING_READ, written);
    Atomics.notify(this.ctrl, RING_READ);
    const text = this.partial + this.decoder.decode(bytes, { stream: true });
    const cut = text.lastIndexOf('\n');
    this.partial = text.slice(cut + 1);
    if (cut < 0) return;
    const listener = this.listeners.values().next().value;
    listener?.(text.slice(0, cut).split('\n'));
  }

  private answer(id: number, signal?: AbortSignal): Promise<Reply> {
    return new Promise<Reply>((resolve, reject) => {
      const onAbort = () => this.end(new InterruptedError());
      signal?.addEventListener('abort', onAbort, { once: true });
      this.pending.set(id, {
        resolve: (r) => {
          signal?.removeEventListener('abort', onAbort);
          resolve(r);
        },
        reject: (e) => {
          signal?.removeEventListener('abort', onAbort);
          reject(e);
        },
      });
    });
  }

  /** Ends the thread (whatever jq is doing) and every question waiting on it. */
  end(why: unknown): void {
    if (!this.dead) {
      this.dead = true;
      void this.worker.terminate();
    }
    if (current === this) current = undefined;
    for (const p of this.pending.values()) p.reject(why);
    this.pending.clear();
  }
}

let current: JqThread | undefined;
function thread(): JqThread {
  if (!current || current.dead) current = new JqThread();
  return current;
}

/** jq on this thread (src/jq/here.ts) until a run outlasts its slices; from then on, jq's thread. */
const FIRST_SLICE_MS = 50;
let here: JqHere | undefined;
let handedOver = false;

/**
 * Runs jq over `input` here for a slice of time, and in jq's thread when it needs longer (skipping the results
 * already handed on here).
 */
async function ask(
  input: string,
  filter: string,
  flags: string[],
  signal: AbortSignal | undefined,
  onResults?: OnResults,
): Promise<Reply> {
  let skip = 0;
  if (!handedOver) {
    here ??= new JqHere(jqFrom());
    try {
      await here.ready();
    } catch (err) {
      here = undefined;
      return { id: 0, failed: String((err as Error).message || err) };
    }
    // A first, short slice; a run that outlasts it may need the thread, which is started then and boots beside
    // the second slice (the run from its start again, past the results already written), so that a run handed
    // over goes on at once.
    for (const ms of [FIRST_SLICE_MS, slice.ms]) {
      const r = await here.run(input, filter, flags, onResults, { ms, skip });
      if ('done' in r || 'aborted' in r) {
        // Started for nothing: the thread is not kept for a later run (each later run is tried here first).
        if (ms !== FIRST_SLICE_MS) current?.end(new CliError('jq stopped'));
        return 'done' in r ? { id: 0, result: r.done } : { id: 0, aborted: r.aborted };
      }
      skip += r.delivered;
      if (signal?.aborted) throw new InterruptedError();
      thread();
    }
    handedOver = true;
  }
  // A signal that came during the slice: nothing is handed over.
  if (signal?.aborted) throw new InterruptedError();
  return thread().ask(input, filter, flags, signal, onResults, skip);
}

/** Ends jq's thread, if one is running (a command that failed: nothing more is filtered). */
export function stopJq(): void {
  current?.end(new CliError('jq was stopped'));
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
  /** halt_error: the exit code the program chose (jq's 5 by default) and its message, as jq prints it. */
  halt?: { code: number; message: string };
}

/**
 * `jq: error (at /dev/stdin:3): …` — a run-time error and the input line it names; `(not a string)` when the
 * error's value is not a string (`error(null)`, `error({…})`).
 */
const RUN_ERROR = /^jq: error \(at [^)]*?:(\d+)\)( \(not a string\))?: (.*)$/m;

/**
 * `$ENV` and `env` as the jq tool gives them: the process's environment. jq-wasm's WebAssembly only knows
 * Emscripten's stand-in (`HOME=/home/web_user`…), which cannot be changed from outside, so the program is run
 * inside a binding of both, on its first line (no line break: `$__loc__` and jq's messages keep their lines).
 * jq's lexical scope lets a program's own `$ENV` or `def env` win, as they would in jq.
 */
function withEnv(filter: string, env: NodeJS.ProcessEnv): string {
  const vars: Record<string, string> = {};
  for (const [k, v] of Object.entries(env)) if (typeof v === 'string') vars[k] = v;
  return `${JSON.stringify(vars)} as $ENV | def env: $ENV; ${filter}`;
}

/**
 * One jq program with its variables, run over JSON text in jq's thread. jq compiles the program on every run
 * (it is jq's `main`); an abort (out of memory, a trap) replaces the instance, so that one bad run never poisons
 * the next.
 */
export class JqProgram {
  private constructor(
    private readonly filter: string,
    private readonly flags: string[],
    private readonly signal?: AbortSignal,
  ) {}

  /**
   * Checks that the filter compiles: jq is run over an empty input, which compiles the program and runs it on
   * nothing. Resolves to the program, or to jq's message when it does not compile.
   */
  static async compile(
    filter: string,
    varFlags: string[],
    opts: { env?: NodeJS.ProcessEnv; signal?: AbortSignal } = {},
  ): Promise<{ program: JqProgram } | { error: string }> {
    const flags = ['-c', ...varFlags];
    const checked = await ask('', filter, flags, opts.signal);
    if ('aborted' in checked) return { error: aborted(checked.aborted) }; // jq folds constants as it compiles
    if ('failed' in checked) throw new CliError(`jq could not be loaded: ${checked.failed}`);
    if (checked.result.exitCode !== 0) return { error: compileMessage(checked.result) };
    // Checked as the user wrote it (so a message's lines and columns are theirs), then run with the process's
    // environment bound; a program that cannot take the binding (a `module` directive must come first) runs as
    // it is.
    // jq has no eval: a program whose text never names them cannot reach `$ENV` or `env`, and is not bound
    // (the binding, compiled again with each ndjson chunk, costs about 0.5 ms a chunk for a small environment).
    if (opts.env !== undefined && /env/i.test(filter)) {
      const bound = withEnv(filter, opts.env);
      const again = await ask('', bound, flags, opts.signal);
      if ('result' in again && again.result.exitCode === 0)
        return { program: new JqProgram(bound, flags, opts.signal) };
    }
    return { program: new JqProgram(filter, flags, opts.signal) };
  }

  /** The same program, ended by another signal. */
  withSignal(signal: AbortSignal): JqProgram {
    return new JqProgram(this.filter, this.flags, signal);
  }

  /**
   * Runs the program over `text`: one or more JSON values (a document, or ndjson lines). With `onResults`, the
   * results are handed to it as jq yields them (the run's own `results` are then empty), and none after jq's
   * first error.
   */
  run(text: string, onResults?: OnResults): Promise<JqRun> {
    return this.runOver(text, onResults);
  }

  /**
   * A document gathered part by part as it is written (-o json); `run()` of the result runs the program over it,
   * `drop()` forgets it.
   */
  document(): { add(text: string): void; run(onResults?: OnResults): Promise<JqRun>; drop(): void } {
    let parts: string[] = [];
    return {
      add: (text) => {
        if (!this.signal?.aborted) parts.push(text);
      },
      run: (onResults) => {
        const text = parts.join('');
        parts = [];
        return this.runOver(text, onResults);
      },
      drop: () => {
        parts = [];
      },
    };
  }

  private async runOver(input: string, onResults?: OnResults): Promise<JqRun> {
    if (this.signal?.aborted) throw new InterruptedError();
    const reply = await ask(input, this.filter, this.flags, this.signal, onResults);
    if ('failed' in reply) throw new CliError(`jq could not be loaded: ${reply.failed}`);
    if ('aborted' in reply) return { results: [], messages: '', error: { message: aborted(reply.aborted) } };
    const r = reply.result;
    const results = r.stdout === '' ? [] : r.stdout.split('\n');
    const m = RUN_ERROR.exec(r.stderr);
    if (m) {
      // jq goes on after an error and may report more: the first is the one cssctl stops at.
      const messages = r.stderr
        .split('\n')
        .filter((l) => l !== '' && !RUN_ERROR.test(l))
        .join('\n');
      // jq names the value an error was raised with when it is not a string: the location it adds is jq's own.
      const message = m[2] ? `${m[3]!} (not a string)` : m[3]!;
      return { results, messages, error: { message, line: Number(m[1]) } };
    }
    const parse = /^jq: (parse error: .*)$/m.exec(r.stderr);
    if (parse && r.exitCode !== 0) {
      // Not JSON on the way in: a command whose output is text.
      return { results, messages: '', error: { message: `the output is not JSON (${parse[1]})` } };
    }
    // halt_error (exit 5, or the code it was given): its message is what the program chose to say.
    if (r.exitCode !== 0) return { results, messages: '', halt: { code: r.exitCode, message: r.stderr } };
    return { results, messages: r.stderr };
  }
}

/** The message for a WebAssembly abort: Emscripten's own adds only advice on how to build it. */
function aborted(why: string): string {
  return `jq stopped: ${why.replace(/\s*Build with -s\S+.*$/, '') || 'aborted'} (out of memory?)`;
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
