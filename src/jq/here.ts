// jq on the main thread, for a slice of time. Starting jq's thread costs more than jq itself (a worker is a
// second Node environment to bootstrap: ~50–90 ms of CPU on the bench machine, against ~35 ms for loading jq and
// running it once), so every run starts here, synchronously, under node:vm's `timeout`. Most programs end within
// it (`.`, `.[0].id`, `length`, a `group_by` over a long list), and the command never starts a thread. A program
// that does not is stopped by V8 when the slice is up (a timeout stops WebAssembly too); src/jq/engine.ts then
// starts jq's thread, runs the program here again for a longer slice past the results already written while the
// thread boots, and hands it to the thread if it still has not ended. A signal that arrives during a slice is
// handled when it ends: Ctrl-C and SIGTERM still end any program with 130 in well under a second.
import type { Script } from 'node:vm';
import { JQ_STDERR_HOOK, JQ_STDOUT_HOOK, patchJqWasm } from './worker-code.js';
import type { JqResult } from 'jq-wasm';

/** How long a run may hold the main thread before jq's thread takes it over. */
export const MAIN_SLICE_MS = 250;
/** The slice in use (a test shortens it to see a run handed over). */
export const slice = { ms: MAIN_SLICE_MS };

/** jq-wasm's JavaScript (a file, or its text) and its WebAssembly (a file, or its bytes). */
export type JqSource =
  { path: string; wasmPath: string } | { code: string; filename: string; wasm: ArrayBuffer };

interface Jq {
  raw(input: string, query: string, flags?: string[]): JqResult;
}

export type HereRun =
  | { done: JqResult }
  | { aborted: string }
  /** The slice ran out: `delivered` results were handed on. */
  | { timedOut: true; delivered: number };

const RUN = Symbol.for('cssctl.jq.run');
const global = globalThis as unknown as Record<string | symbol, unknown>;

let module: Promise<{ loadJq(o: { wasmModule: WebAssembly.Module }): Promise<Jq> }> | undefined;
/** jq's WebAssembly, compiled once per process: a run stopped by its slice gets a new instance of it. */
let wasm: WebAssembly.Module | undefined;

/**
 * V8's default `--wasm-tiering-budget` in the V8 of Node 22, 24 and 26 (`node --v8-options`; a unit test checks
 * the Node that runs it).
 */
export const V8_WASM_TIERING_BUDGET = 13_000_000;
/** The largest budget V8 takes (an int32): jq's functions then stay in Liftoff for a command's short runs. */
const JQ_WASM_TIERING_BUDGET = 2 ** 31 - 1;

/**
 * Compiles jq's WebAssembly so that its functions are not recompiled by TurboFan during a short command.
 *
 * Why: every jq run compiles jq's builtins (a ~10 KB jq library parsed by jq's parser, one WebAssembly function
 * of 34 KB). V8 counts that as hot and tiers it up: TurboFan compiles it, and half a dozen others, on a
 * background thread (80–200 ms of CPU on the bench machine, more than the whole `--json` command), and node
 * waits for that compile to finish before it exits (its platform joins the thread running it). The code is
 * never used: the command is over. With the budget raised, jq runs on Liftoff's code only (its lazy, fast
 * baseline compile of each function as first called): `--jq .` costs ~65 ms of CPU for jq instead of ~200–260.
 * jq's thread (a program that outlasts the main thread's slices, src/jq/engine.ts) compiles its own copy with
 * V8's default budget, so a long program is still tiered up.
 *
 * How: V8 takes the budget of a module's functions from its flag when the module is compiled, so the flag is
 * raised for that one synchronous call and put back at once: nothing else runs meanwhile on this thread, and
 * V8's flags are then what they were, so the code caches written at exit (bin/cssctl.cjs) carry the same flag
 * hash as the next process's (a test checks that a `--jq` command's cache is taken by the next command). A budget
 * given to node by the user (`node --wasm-tiering-budget=… cssctl.cjs`) is theirs: then nothing is changed.
 */
export function compileJqWasm(bytes: Uint8Array | ArrayBuffer): WebAssembly.Module {
  // (TypeScript's lib here declares WebAssembly's types only.)
  const { Module } = (
    globalThis as unknown as {
      WebAssembly: { Module: new (b: Uint8Array | ArrayBuffer) => WebAssembly.Module };
    }
  ).WebAssembly;
  // (node takes V8's flags from its own arguments only: NODE_OPTIONS refuses this one.)
  if (process.execArgv.some((a) => /^--wasm[-_]tiering[-_]budget\b/.test(a))) return new Module(bytes);
  const v8 = process.getBuiltinModule('node:v8');
  v8.setFlagsFromString(`--wasm-tiering-budget=${JQ_WASM_TIERING_BUDGET}`);
  try {
    return new Module(bytes);
  } finally {
    v8.setFlagsFromString(`--wasm-tiering-budget=${V8_WASM_TIERING_BUDGET}`);
  }
}

async function instance(from: JqSource): Promise<Jq> {
  module ??= Promise.resolve().then(() => {
    const fs = process.getBuiltinModule('node:fs');
    const filename = 'path' in from ? from.path : from.filename;
    const code = patchJqWasm('path' in from ? fs.readFileSync(from.path, 'utf8') : from.code);
    const { compileFunction } = process.getBuiltinModule('node:vm');
    const fn = compileFunction(code, ['exports', 'require', 'module', '__filename', '__dirname'], {
      filename,
    });
    const m = { exports: {} as never };
    // It requires built-in modules only (scripts/build.mjs): taken as they are, without node:module's loader.
    const require = (id: string) => {
      const builtin = process.getBuiltinModule(id);
      if (builtin === undefined) throw new Error(`jq-wasm: cannot load ${id}`);
      return builtin;
    };
    const dir = process.getBuiltinModule('node:path').dirname(filename);
    fn.call(m.exports, m.exports, require, m, filename, dir);
    wasm = compileJqWasm('path' in from ? fs.readFileSync(from.wasmPath) : from.wasm);
    return m.exports;
  });
  const jqModule = await module;
  // Emscripten keeps console.error and console.log, bound, for "Aborted(…)": jq's aborts are reported by cssctl.
  const { error, log } = console;
  console.error = () => undefined;
  console.log = () => undefined;
  try {
    return await jqModule.loadJq({ wasmModule: wasm! });
  } finally {
    console.error = error;
    console.log = log;
  }
}

/** jq on this thread; a run stopped by its slice leaves the instance unusable, so the next one is fresh. */
export class JqHere {
  private jq?: Promise<Jq>;
  private script?: Script;

  constructor(private readonly from: JqSource) {}

  /** Loads jq now (it is needed by the compile check anyway). Rejects when it cannot be loaded. */
  ready(): Promise<unknown> {
    this.jq ??= instance(this.from);
    return this.jq;
  }

  /**
   * Runs jq over `input`, for MAIN_SLICE_MS at most. With `onResults`, the results jq yielded (none after its
   * first error) are handed on when the slice ends: V8 may stop the run at any point of the JavaScript it calls,
   * which must not be the middle of a write to stdout, so nothing but this function's own gathering runs inside.
   */
  async run(
    input: string,
    filter: string,
    flags: string[],
    onResults?: (results: string[]) => void,
    { ms = slice.ms, skip = 0 }: { ms?: number; skip?: number } = {},
  ): Promise<HereRun> {
    const jq = await (this.jq ??= instance(this.from));
    const batch: string[] = [];
    let line = new Uint8Array(4096);
    let length = 0;
    let stopped = false;
    const decoder = new TextDecoder();
    const onStdout = (byte: number) => {
      if (stopped) return;
      if (skip > 0) {
        if (byte === 10) skip--;
        return;
      }
      if (byte !== 10) {
        if (length === line.length) {
          const grown = new Uint8Array(line.length * 2);
          grown.set(line);
          line = grown;
        }
        line[length++] = byte;
        return;
      }
      batch.push(decoder.decode(line.subarray(0, length)));
      length = 0;
    };
    // "jq: error" at the start of a line of stderr: jq's first error; nothing after it is handed on.
    const ERROR = 'jq: error';
    let errAt = 0;
    const onStderr = (byte: number) => {
      if (errAt >= 0 && errAt < ERROR.length) {
        errAt = byte === ERROR.charCodeAt(errAt) ? errAt + 1 : -1;
        if (errAt === ERROR.length) stopped = true;
      }
      if (byte === 10) errAt = 0;
    };
    const exitCode = process.exitCode;
    global[JQ_STDOUT_HOOK] = onResults ? onStdout : undefined;
    global[JQ_STDERR_HOOK] = onResults ? onStderr : undefined;
    global[RUN] = () => jq.raw(input, filter, onResults ? ['--unbuffered', ...flags] : flags);
    try {
      // A script, so that node:vm's timeout applies: V8 stops whatever runs when it is up.
      this.script ??= new (process.getBuiltinModule('node:vm').Script)(
        'globalThis[Symbol.for("cssctl.jq.run")]()',
      );
      const done = this.script.runInThisContext({ timeout: ms }) as JqResult;
      if (onResults) {
        if (length > 0 && !stopped) batch.push(decoder.decode(line.subarray(0, length)));
        if (batch.length > 0) onResults(batch);
      }
      return { done };
    } catch (err) {
      // Either way this instance is done with: a run stopped halfway leaves Emscripten's state halfway.
      this.jq = undefined;
      if ((err as NodeJS.ErrnoException).code === 'ERR_SCRIPT_EXECUTION_TIMEOUT') {
        // The whole lines jq wrote; a line it was writing when stopped is written again by the thread.
        const delivered = batch.length;
        if (onResults && delivered > 0) onResults(batch);
        return { timedOut: true, delivered };
      }
      return { aborted: String((err as Error).message || err) };
    } finally {
      global[JQ_STDOUT_HOOK] = undefined;
      global[JQ_STDERR_HOOK] = undefined;
      delete global[RUN];
      process.exitCode = exitCode;
    }
  }
}
