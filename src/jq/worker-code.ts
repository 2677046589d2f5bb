// The jq worker's own code (src/jq/engine.ts starts it with `new Worker(JQ_WORKER_CODE, { eval: true })`). It is
// text, not a module of the bundle: the same text runs in the npm package, in the single executable (which has
// no files to start a worker from) and under the unit tests (which run src/ as it is). It loads jq (jq 1.8 in
// WebAssembly: dist/jq.cjs, the executable's asset of that name, or jq-wasm from node_modules) and answers
// one message at a time: `{id, input, filter, flags}` → `{id, result}` (jq's stdout, stderr and exit code),
// `{id, aborted}` when the WebAssembly aborted (out of memory, a trap: the instance is replaced by a fresh one),
// or `{id, failed}` when jq could not be loaded at all. A document can be sent in parts as the command writes
// it (`{hold: key, text}`, then `{id, held: key, …}` runs jq over the parts joined; `{drop: key}` forgets them),
// so the main thread never holds the whole of it. jq runs here, off the main thread, so that Ctrl-C and
// SIGTERM are handled whatever a program does: the main thread terminates this thread (`last(range(1e12))`,
// `repeat(1)` and `def f: f; f` never end on their own).
export const JQ_WORKER_CODE = `'use strict';
const { parentPort, workerData } = process.getBuiltinModule('node:worker_threads');
const Module = process.getBuiltinModule('node:module');
// Emscripten prints "Aborted()" with console.error when jq aborts: the main thread reports it itself.
console.error = () => undefined;
console.log = () => undefined;
function load(from) {
  if (from.path !== undefined) return Module.createRequire(from.path)(from.path);
  // Text (the single executable's asset): run as Node's loader runs a CommonJS file, a function of what a module
  // is given (node:vm compileFunction; no private loader API).
  const params = ['exports', 'require', 'module', '__filename', '__dirname'];
  const fn = process.getBuiltinModule('node:vm').compileFunction(from.code, params, { filename: from.filename });
  const m = { exports: {} };
  const dir = process.getBuiltinModule('node:path').dirname(from.filename);
  fn.call(m.exports, m.exports, Module.createRequire(from.filename), m, from.filename, dir);
  return m.exports;
}
let jqModule;
let instance;
function fresh() {
  instance = Promise.resolve().then(() => (jqModule ??= load(workerData.from)).loadJq());
  instance.catch(() => undefined);
}
fresh();
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
    try {
      result = jq.raw(input, msg.filter, msg.flags);
    } catch (err) {
      fresh();
      parentPort.postMessage({ id: msg.id, aborted: String((err && err.message) || err) });
      return;
    }
    parentPort.postMessage({ id: msg.id, result });
  });
});
`;
