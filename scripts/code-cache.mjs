// A trained V8 code cache for dist/cli.cjs: taken after the CLI has run a few commands in one process against a
// sandbox on 127.0.0.1, so it holds the functions they compiled (commander, the HTTP stack with undici, the
// config and credential readers, a formatter), not only the bundle's top level. The single executable carries
// one (scripts/build-exe.mjs), taken by the very Node it is built from, under the flags it starts with: a
// code cache fits one V8 and one set of flags. The npm package makes its own on first run instead
// (bin/cssctl.cjs), for whichever Node runs it.
import { spawn } from 'node:child_process';
import { clearTimeout, setTimeout } from 'node:timers';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { PassThrough, Readable, Writable } from 'node:stream';
import { fileURLToPath } from 'node:url';

const root = fileURLToPath(new URL('..', import.meta.url));
const self = fileURLToPath(import.meta.url);

/**
 * A fixed seed for the training process's random numbers: V8 derives its string hash seed from it, and the cache
 * holds the hashes of the strings it names, so without it two builds of one commit made different caches (and
 * executables). V8 leaves --random-seed out of the flags a cache is checked against, so the executable, started
 * without it (a random seed, as every Node), still takes the cache.
 */
export const TRAINING_FLAGS = ['--predictable', '--random-seed=1'];

/** Where the bundle is said to be while the cache is trained (see train). */
const TRAINING_DIR = '/cssctl';

/**
 * The processes a cache is being made with (the sandbox, the training Node or qemu): stopped when this process
 * exits in any way, and by stopChildren() from a signal handler, so a failed build leaves none behind.
 */
const children = new Set();
export function stopChildren() {
  for (const child of children) {
    try {
      child.kill('SIGKILL');
    } catch {
      // already gone
    }
  }
  children.clear();
}
process.on('exit', stopChildren);

/**
 * For a build's main script: on SIGINT, SIGTERM or SIGHUP, the children are stopped, a line says so, and the
 * process ends with the code a shell gives a process killed by that signal (130, 143, 129).
 */
export function installStopHandlers(who) {
  for (const [sig, code] of Object.entries({ SIGINT: 130, SIGTERM: 143, SIGHUP: 129 }))
    process.on(sig, () => {
      stopChildren();
      console.error(`${who}: stopped (${sig})`);
      process.exit(code);
    });
}

function track(child) {
  children.add(child);
  child.once('exit', () => children.delete(child));
  return child;
}

/**
 * What the cache is trained on: the path every request command takes (commander, the context, the profile
 * and the credential file, the session, the HTTP layers and undici, an output format), signed in both ways (a
 * stored login and CSSCTL_TOKEN), in a table and in JSON. A verb's own code is compiled when it first runs:
 * training more commands made a larger cache that every command pays to read, and measured no faster for
 * the commands it added (`findings list`, `scans list`, `config list`).
 */
function trainingRuns({ url, token }) {
  const viaToken = { CSSCTL_TOKEN: token, CSSCTL_BASE_URL: url, CSSCTL_WORKSPACE: 'acme' };
  return [
    [['connections', 'list']],
    [['connections', 'list', '--json']],
    [['connections', 'list', '--json'], viaToken],
    [['api', '/connections'], viaToken],
  ];
}

class Collect extends Writable {
  text = '';
  _write(chunk, _enc, cb) {
    this.text += chunk;
    cb();
  }
}

async function startSandbox() {
  const child = track(
    spawn(process.execPath, [join(root, 'dist/sandbox.js')], {
      env: { PATH: process.env.PATH, PORT: '0' },
      stdio: ['ignore', 'pipe', 'pipe'],
    }),
  );
  let errors = '';
  child.stderr.on('data', (d) => (errors += d));
  const url = await new Promise((resolve, reject) => {
    let out = '';
    child.stdout.on('data', (d) => {
      out += d;
      const m = /listening on (http:\/\/127\.0\.0\.1:\d+)/.exec(out);
      if (m) resolve(m[1]);
    });
    child.on('error', (err) => reject(new Error(`the sandbox could not start: ${err.message}`)));
    child.on('exit', (code) => reject(new Error(`the sandbox exited (${code}): ${errors}`)));
  });
  return { url, child };
}

/** In a fresh node: runs the training commands in-process against the sandbox at `url`, and writes the cache. */
async function train(file, url) {
  // undici's timer tick (lib/util/timers.js onTick) runs every 500 ms while a request has a timer: how often it
  // had run depended on how long the runs took (under qemu, under load), and V8 keeps what that did to the
  // function's tiering in the cache: one build in eight differed there. In training it never runs (its timeouts,
  // all it serves, are minutes away): the executable compiles that one small function when it first ticks.
  const realSetTimeout = globalThis.setTimeout;
  globalThis.setTimeout = (fn, ms, ...args) =>
    typeof fn === 'function' && fn.name === 'onTick'
      ? realSetTimeout(() => {}, 2 ** 31 - 1).unref()
      : realSetTimeout(fn, ms, ...args);
  const { loadCli } = await import('../bin/cssctl.cjs');
  // V8 keeps the script's name in the cache: a fixed one, so the cache does not depend on where the checkout is
  // (two clones made different caches). The files are this checkout's; those built apart from the bundle come
  // through module(), as in the executable (sea-main.mjs), so nothing is resolved from the fixed name.
  const dist = join(root, 'dist');
  const requireDist = createRequire(join(dist, 'cli.cjs'));
  const files = {
    sea: true,
    path: (name) => join(TRAINING_DIR, name),
    text: (name) => readFileSync(join(dist, name), 'utf8'),
    module: (name) => requireDist(`./${name}`),
  };
  const { cli, script } = loadCli({ cache: false, files });
  if (!script) throw new Error('bin/cssctl.cjs did not compile the CLI as a script');
  const home = mkdtempSync(join(tmpdir(), 'cssctl-code-cache-'));
  try {
    const env = {
      PATH: process.env.PATH,
      HOME: home,
      LANG: 'C.UTF-8',
      CSSCTL_CONFIG_DIR: join(home, 'config'),
      CSSCTL_CREDENTIAL_STORE: 'file',
    };
    const run = async (argv, extra = {}, input = '') => {
      const stdout = new Collect();
      const code = await cli.main({
        argv,
        env: { ...env, ...extra },
        streams: { stdin: Readable.from([input]), stdout, stderr: new PassThrough().resume() },
      });
      return { code, text: stdout.text };
    };
    const login = await run(
      ['login', '--base-url', url, '-w', 'acme', '--email', 'owner@acme.test', '--password-stdin'],
      {},
      'demo-owner-acme\n',
    );
    if (login.code !== 0) throw new Error(`login exited ${login.code}`);
    const token = (await run(['auth', 'token'])).text.trim();
    for (const [argv, extra] of trainingRuns({ url, token })) {
      const { code } = await run(argv, extra);
      // A run that fails would leave the cache without the path it stands for.
      if (code !== 0) throw new Error(`cssctl ${argv.join(' ')} exited ${code}`);
    }
  } finally {
    rmSync(home, { recursive: true, force: true });
  }
  writeFileSync(file, script.createCachedData());
}

/**
 * Writes `out`: the code cache `node` (a Node binary) makes under `flags` after the training runs, run through
 * `runner` (`qemu-aarch64 -L …` for an arm64 Node on x64: scripts/build-exe.mjs runnerFor). The sandbox runs in
 * this Node (a Node under qemu without binfmt_misc cannot start another). Needs dist/ (npm run build).
 */
export async function writeCodeCache({ node = process.execPath, runner = [], flags = [], out }) {
  const { url, child } = await startSandbox();
  let timer;
  try {
    const [cmd, ...pre] = [...runner, node];
    const made = track(
      spawn(cmd, [...pre, ...flags, ...TRAINING_FLAGS, self, '--train', out, url], { stdio: 'inherit' }),
    );
    timer = setTimeout(() => made.kill('SIGKILL'), 600_000);
    // A program that cannot be started (ENOENT) is an 'error' event, not an exit: a line, not a crash.
    const status = await new Promise((resolve) => {
      made.once('error', (err) => resolve(`${cmd} could not be started: ${err.message}`));
      made.once('close', (code, signal) => resolve(code === 0 ? 0 : `it exited ${code ?? signal}`));
    });
    if (status !== 0) {
      rmSync(out, { force: true });
      throw new Error(`build: could not take the code cache (${status}; see above)`);
    }
  } finally {
    clearTimeout(timer);
    child.kill('SIGKILL');
    children.delete(child);
  }
}

if (process.argv[2] === '--train') await train(process.argv[3], process.argv[4]);
