// The jq worker's own code (src/jq/engine.ts starts it with `new Worker(JQ_WORKER_CODE, { eval: true })`). It is
// text, not a module of the bundle: the same text runs in the npm package, in the single executable (which has
// no files to start a worker from) and under the unit tests (which run src/ as it is). It loads jq (jq 1.8 in
// WebAssembly: dist/jq.cjs and dist/jq.wasm, the executable's assets of those names, or jq-wasm from
// node_modules) and answers
// one message at a time: `{id, input, filter, flags}` → `{id, result}` (jq's stdout, stderr and exit code),
// `{id, aborted}` when the WebAssembly aborted (out of memory, a trap: the instance is replaced by a fresh one),
// or `{id, failed}` when jq could not be loaded at all. A document can be sent in parts as the command writes
// it (`{hold: key, text}`, then `{id, held: key, …}` runs jq over the parts joined; `{drop: key}` forgets them),
// so the main thread never holds the whole of it. jq runs here, off the main thread, so that Ctrl-C and
// SIGTERM are handled whatever a program does: the main thread terminates this thread (`last(range(1e12))`,
// `repeat(1)` and `def f: f; f` never end on their own).
//
// Results as jq yields them (`stream: true`): jq runs with --unbuffered, so it writes each result as soon as it
// has it, and jq-wasm's stdout hook (JQ_STDOUT_HOOK, put in by scripts/build.mjs, or here when jq-wasm is loaded
// from node_modules) hands each byte to this thread instead of keeping the whole output. Each whole line goes
// into a ring of shared memory (workerData.ring) that the main thread empties when this thread nudges it (one
// nudge in flight at a time); when the ring is full this thread waits, so a program that never ends holds no
// more than the ring however fast it writes. After jq's first run-time error nothing more is handed on (jq goes
// on with the next input; cssctl stops at the first error). The answer to a run is posted once the main thread
// has taken every byte of it, so two runs never mix.

/** The global jq-wasm's patched stdout calls with each byte, when set. */
export const JQ_STDOUT_HOOK = '__cssctlJqStdout';
/** The global jq-wasm's patched stderr calls with each byte (besides keeping it), when set. */
export const JQ_STDERR_HOOK = '__cssctlJqStderr';

/** jq-wasm 3.0.0's output hooks as it is published (package.json pins it), and the same calling the hooks. */
export const JQ_WASM_STDOUT = 'if (byte != null) stdoutSink.push(byte);';
export const JQ_WASM_STDERR = 'if (byte != null) stderrSink.push(byte);';
export const JQ_WASM_STDOUT_HOOKED = `if (byte != null) { if (globalThis.${JQ_STDOUT_HOOK}) globalThis.${JQ_STDOUT_HOOK}(byte); else stdoutSink.push(byte); }`;
export const JQ_WASM_STDERR_HOOKED = `if (byte != null) { if (globalThis.${JQ_STDERR_HOOK}) globalThis.${JQ_STDERR_HOOK}(byte); stderrSink.push(byte); }`;

/**
 * What jq-wasm's text is changed into, in dist/jq.cjs (scripts/build.mjs) and when it is loaded from node_modules
 * (here.ts, and the thread below): its output callbacks call the hooks, and two things Emscripten's runtime
 * reaches for that Node builds only when first touched are left alone: `navigator` (for a LANG default; jq gets
 * "C.UTF-8" without it) and WebCrypto, whose getRandomValues jq calls once per instance for 4 bytes, the seed of
 * its hash tables (WebCrypto, or node:crypto, is ~20 built-in modules to load; V8's Math.random, seeded from the
 * system's entropy at start-up, keeps that seed from being guessed by whoever writes the JSON).
 */
export const JQ_WASM_PATCHES: readonly (readonly [string, string])[] = [
  [JQ_WASM_STDOUT, JQ_WASM_STDOUT_HOOKED],
  [JQ_WASM_STDERR, JQ_WASM_STDERR_HOOKED],
  ['(globalThis.navigator?.language ?? "C")', '"C"'],
  [
    'var initRandomFill = () => (view) => (crypto.getRandomValues(view), 0);',
    'var initRandomFill = () => (view) => { for (let i = 0; i < view.length; i++) view[i] = Math.floor(Math.random() * 256); return 0; };',
  ],
];

/** jq-wasm's text with JQ_WASM_PATCHES made; throws when one is not there (another jq-wasm than the pinned one). */
export function patchJqWasm(code: string): string {
  if (code.includes(JQ_STDOUT_HOOK)) return code;
  let out = code;
  for (const [from, to] of JQ_WASM_PATCHES) {
    if (!out.includes(from)) throw new Error(`jq-wasm has changed: "${from.slice(0, 40)}…" is not in it`);
    out = out.replace(from, to);
  }
  return out;
}

/** Bytes of results that may wait for the main thread (a power of two). */
export const RING_BYTES = 1 << 20;
/** The ring's control words (Int32): bytes written, bytes read (both wrapping), a nudge in flight. */
export const RING_WRITTEN = 0;
export const RING_READ = 1;
export const RING_NUDGED = 2;
/** Where the ring's bytes start in its shared buffer. */
export const RING_DATA = 16;

export const JQ_WORKER_CODE = `'use strict';
const { parentPort, workerData } = process.getBuiltinModule('node:worker_threads');
const Module = process.getBuiltinModule('node:module');
// Emscripten prints "Aborted()" with console.error when jq aborts: the main thread reports it itself.
console.error = () => undefined;
console.log = () => undefined;
const STDOUT_HOOK = ${JSON.stringify(JQ_STDOUT_HOOK)};
const STDERR_HOOK = ${JSON.stringify(JQ_STDERR_HOOK)};
const PATCHES = ${JSON.stringify(JQ_WASM_PATCHES)};
function hooked(code) {
  if (code.includes(STDOUT_HOOK)) return code;
  for (const [from, to] of PATCHES) {
    if (!code.includes(from)) throw new Error('jq-wasm has changed: ' + from.slice(0, 40) + ' is not in it');
    code = code.replace(from, to);
  }
  return code;
}
function load(from) {
  const fs = process.getBuiltinModule('node:fs');
  const filename = from.path !== undefined ? from.path : from.filename;
  const code = hooked(from.path !== undefined ? fs.readFileSync(from.path, 'utf8') : from.code);
  // Run as Node's loader runs a CommonJS file, a function of what a module is given (node:vm compileFunction;
  // no private loader API).
  const params = ['exports', 'require', 'module', '__filename', '__dirname'];
  const fn = process.getBuiltinModule('node:vm').compileFunction(code, params, { filename });
  const m = { exports: {} };
  const dir = process.getBuiltinModule('node:path').dirname(filename);
  fn.call(m.exports, m.exports, Module.createRequire(filename), m, filename, dir);
  return m.exports;
}
let jqModule;
let wasm;
let instance;
function fresh() {
  instance = Promise.resolve().then(() => {
    jqModule ??= load(workerData.from);
    const from = workerData.from;
    wasm ??= from.wasm !== undefined ? from.wasm : process.getBuiltinModule('node:fs').readFileSync(from.wasmPath);
    return jqModule.loadJq({ wasmBinary: wasm });
  });
  instance.catch(() => undefined);
}
fresh();

const RING = ${RING_BYTES};
const ctrl = new Int32Array(workerData.ring, 0, 4);
const ring = new Uint8Array(workerData.ring, ${RING_DATA}, RING);
function nudge() {
  if (Atomics.compareExchange(ctrl, ${RING_NUDGED}, 0, 1) === 0) parentPort.postMessage({ nudge: true });
}
function put(bytes) {
  let off = 0;
  while (off < bytes.length) {
    const w = Atomics.load(ctrl, ${RING_WRITTEN});
    const r = Atomics.load(ctrl, ${RING_READ});
    const free = RING - ((w - r) | 0);
    if (free === 0) {
      nudge();
      Atomics.wait(ctrl, ${RING_READ}, r, 200);
      continue;
    }
    const n = Math.min(free, bytes.length - off);
    const at = w & (RING - 1);
    const first = Math.min(n, RING - at);
    ring.set(bytes.subarray(off, off + first), at);
    if (n > first) ring.set(bytes.subarray(off + first, off + n), 0);
    Atomics.store(ctrl, ${RING_WRITTEN}, (w + n) | 0);
    off += n;
  }
  nudge();
}
/** Until the main thread has taken every byte written. */
function drained() {
  for (;;) {
    const r = Atomics.load(ctrl, ${RING_READ});
    if (r === Atomics.load(ctrl, ${RING_WRITTEN})) return;
    nudge();
    Atomics.wait(ctrl, ${RING_READ}, r, 200);
  }
}
let line = new Uint8Array(4096);
let length = 0;
let stopped = false;
let skip = 0;
function onStdout(byte) {
  if (stopped) return;
  if (skip > 0) {
    if (byte === 10) skip--;
    return;
  }
  if (length === line.length) {
    const grown = new Uint8Array(line.length * 2);
    grown.set(line);
    line = grown;
  }
  line[length++] = byte;
  if (byte === 10) {
    put(line.subarray(0, length));
    length = 0;
    if (line.length > 65536) line = new Uint8Array(4096);
  }
}
// "jq: error" at the start of a line of stderr: jq's first run-time error; what jq writes after it is not passed on.
const ERROR = [...'jq: error'].map((c) => c.charCodeAt(0));
let errAt = 0;
function onStderr(byte) {
  if (errAt >= 0 && errAt < ERROR.length) {
    errAt = byte === ERROR[errAt] ? errAt + 1 : -1;
    if (errAt === ERROR.length) stopped = true;
  }
  if (byte === 10) errAt = 0;
}

const held = new Map();
let queue = Promise.resolve();
parentPort.on('message', (msg) => {
  queue = queue.then(async () => {
    if (msg.hold !== undefined) {
      if (!held.has(msg.hold)) held.set(msg.hold, []);
      held.get(msg.hold).push(msg.text);
      return;
    }
    if (msg.drop !== undefined) {
      held.delete(msg.drop);
      return;
    }
    let input = msg.input;
    if (msg.held !== undefined) {
      input = (held.get(msg.held) || []).join('');
      held.delete(msg.held);
    }
    let jq;
    try {
      jq = await instance;
    } catch (err) {
      fresh();
      parentPort.postMessage({ id: msg.id, failed: String((err && err.message) || err) });
      return;
    }
    let result;
    length = 0;
    stopped = false;
    errAt = 0;
    skip = msg.skip || 0;
    globalThis[STDOUT_HOOK] = msg.stream ? onStdout : undefined;
    globalThis[STDERR_HOOK] = msg.stream ? onStderr : undefined;
    try {
      result = jq.raw(input, msg.filter, msg.stream ? ['--unbuffered', ...msg.flags] : msg.flags);
    } catch (err) {
      fresh();
      if (msg.stream) drained();
      parentPort.postMessage({ id: msg.id, aborted: String((err && err.message) || err) });
      return;
    } finally {
      globalThis[STDOUT_HOOK] = undefined;
      globalThis[STDERR_HOOK] = undefined;
    }
    // A last result without its line break (jq always ends one; a halt may not) is handed on as it is.
    if (msg.stream && length > 0 && !stopped) put(line.subarray(0, length));
    if (msg.stream) drained();
    parentPort.postMessage({ id: msg.id, result });
  });
});
`;
