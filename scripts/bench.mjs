// The performance report of issue 8, every figure measured in this one run and given as a ratio to a
// yardstick measured in the same run (the machines are noisy; absolute numbers are not compared across runs).
// Talks only to sandboxes on 127.0.0.1. Takes about six minutes.
//   1. Start-up: cssctl commands against a bare `node -e 0`, and where the time goes.
//   2. Exports of 20,000 and 200,000 findings (rate limits off): peak RSS, and wall time against a bare
//      undici pager writing the same bytes (scripts/bench/bare-pager.mjs).
//   3. 600 findings at 25 per page under a rate limit: 429s, and wall time against the ideal client.
//   4. Report formats (sarif, junit, html) at 20,000 and 200,000 findings beside ndjson: peak RSS.
//   4b. -o ocsf at 20,000 and 200,000 findings beside the ndjson export: peak RSS (≤ 1.2× ndjson's).
//   5. --jq at 20,000 and 200,000 findings: ndjson (streamed, flat) and json (the whole list held).
//   6. Baselines: findings diff of two large sets against one export; --report of three formats in one read.
//   1b. Start-up of the installed package on Node 22, 24 and 26 (from the registry's node-<os>-<arch>).
//   1c. What a user runs: the single executable (npm run build:exe first) and the installed package on the
//      executable's own Node, side by side, a stored login against the sandbox, the bench's launch cost out.
//   7. The MCP server: `cssctl mcp` answering `initialize` against `node -e 0`, and summarize_findings over
//      200,000 findings through the server against `findings summary`'s own peak RSS.
// Usage: npm run build && npm run bench [-- --quick --runs 15 --findings 20000 --only startup|nodes|exe|exports|ratelimit|reports|ocsf|jq|html|baselines|mcp[,…]] (--reports-only = --only reports)
// --vs <dir>: another build (a checkout with its dist/ built, e.g. main's) packed and installed beside this one;
// sections 1b and 1c then time both in the same interleaved run and print before (that build) and after (this one).
import { spawn, spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import {
  closeSync,
  existsSync,
  mkdirSync,
  mkdtempSync,
  openSync,
  readFileSync,
  rmSync,
  statSync,
  writeFileSync,
  writeSync,
} from 'node:fs';
import { createServer } from 'node:net';
import { cpus, homedir, tmpdir } from 'node:os';
import { join } from 'node:path';
import { clearTimeout, setTimeout } from 'node:timers';
import { setTimeout as sleep } from 'node:timers/promises';
import { fileURLToPath } from 'node:url';

const root = fileURLToPath(new URL('..', import.meta.url));
const bin = join(root, 'bin/cssctl.cjs');
const pager = join(root, 'scripts/bench/bare-pager.mjs');
const bareRequest = join(root, 'scripts/bench/bare-request.mjs');
const arg = (name, dflt) => {
  const i = process.argv.indexOf(`--${name}`);
  return i > 0 ? Number(process.argv[i + 1]) : dflt;
};
/**
 * --quick (CI, `.ci/run`): every section and every target, with 5 runs and a tenth of the findings, to take
 * about two minutes on a 2-core machine. The memory targets are ratios between two sizes, so they hold at a tenth
 * as well; the start-up ratios are medians of fewer pairs, so they move more from run to run.
 */
const QUICK = process.argv.includes('--quick');
/** --vs <dir>: the build to compare this one with (before → after), in sections 1b and 1c. */
const VS = process.argv.includes('--vs') ? process.argv[process.argv.indexOf('--vs') + 1] : undefined;
const RUNS = arg('runs', QUICK ? 5 : 15);
const SMALL = arg('findings', QUICK ? 2_000 : 20_000);
const LARGE = SMALL * 10;
const work = mkdtempSync(join(tmpdir(), 'cssctl-bench-'));
const TIME = existsSync('/usr/bin/time') ? '/usr/bin/time' : undefined;
const baseEnv = {
  PATH: process.env.PATH,
  HOME: work,
  LANG: 'C.UTF-8',
  CSSCTL_CONFIG_DIR: join(work, 'config'),
  CSSCTL_CREDENTIAL_STORE: 'file',
};

const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
const ms = (x) => `${x.toFixed(1).padStart(7)} ms`;
const mib = (kib) => `${(kib / 1024).toFixed(1).padStart(6)} MiB`;
const mark = (ok) => (ok ? 'ok' : 'MISSED');
const row = (...cols) => console.log(`  ${cols.join('  ')}`);

/** No case may hang the report (node deadlocked at exit under --optimize-for-size before --no-concurrent-sparkplug). */
const CASE_TIMEOUT_MS = 180_000;

/** Runs node with `args`; returns wall ms, peak RSS (KiB) and stderr. stdout: a file, 'ignore', or kept. */
function runNode(args, env, { stdoutFile, input } = {}) {
  const rssFile = join(work, 'rss');
  rmSync(rssFile, { force: true });
  const cmd = TIME ? TIME : process.execPath;
  const argv = TIME
    ? ['-f', '%M', '-o', rssFile, process.execPath, ...args]
    : ['--import', join(root, 'scripts/bench-rss.mjs'), ...args];
  const out = stdoutFile === 'ignore' ? 'ignore' : stdoutFile ? openSync(stdoutFile, 'w') : 'pipe';
  const t = process.hrtime.bigint();
  const r = spawnSync(cmd, argv, {
    timeout: CASE_TIMEOUT_MS,
    env: { ...baseEnv, ...env, BENCH_RSS_FILE: rssFile },
    input,
    stdio: [input === undefined ? 'ignore' : 'pipe', out, 'pipe'],
    encoding: 'utf8',
    maxBuffer: 1 << 28,
  });
  const wall = Number(process.hrtime.bigint() - t) / 1e6;
  if (typeof out === 'number') closeSync(out);
  if (r.status !== 0) throw new Error(`node ${args.join(' ')} failed (${r.status}): ${r.stderr}`);
  const rssText = existsSync(rssFile) ? readFileSync(rssFile, 'utf8').trim().split('\n').pop() : '0';
  return { wall, rssKiB: Number(rssText), stdout: r.stdout, stderr: r.stderr };
}

/**
 * Interleaves the candidates run by run so drift in machine load hits them all alike; medians. A case is
 * [name, args, extraEnv, command]: command defaults to this node; extraEnv may be a function called per run.
 */
function timeCases(cases, runs, env, { stdout = 'ignore', cwd } = {}) {
  const times = cases.map(() => []);
  // Every other round in reverse order: a case's place in the round biases it (a run right after another one
  // measured 3–6% slower here), and the pairs taken run by run should not carry that into their ratios.
  const order = cases.map((_, j) => j);
  for (let i = 0; i < runs; i++)
    (i % 2 ? [...order].reverse() : order).forEach((j) => {
      const [, args, extraEnv, command] = cases[j];
      const more = typeof extraEnv === 'function' ? extraEnv() : extraEnv;
      const t = process.hrtime.bigint();
      const r = spawnSync(command ?? process.execPath, args, {
        timeout: CASE_TIMEOUT_MS,
        env: { ...baseEnv, ...env, ...more },
        cwd,
        stdio: ['ignore', stdout, 'ignore'],
        maxBuffer: 1 << 26,
      });
      times[j].push(Number(process.hrtime.bigint() - t) / 1e6);
      if (r.status !== 0) throw new Error(`${command ?? 'node'} ${args.join(' ')} exited ${r.status}`);
    });
  const out = cases.map(([name], j) => [name, median(times[j])]);
  // Each run's times, for ratios taken pair by pair (paired()).
  out.runs = Object.fromEntries(cases.map(([name], j) => [name, times[j]]));
  return out;
}

/** The median of a's time over b's, run by run (both from one timeCases: run i of each was taken in turn). */
function paired(runs, a, b) {
  return median(runs[a].map((t, i) => t / runs[b][i]));
}

/** JSON-RPC lines for `cssctl mcp`: initialize, initialized, then the given calls (ids 2, 3, …). */
function mcpInput(calls = []) {
  const msgs = [
    {
      jsonrpc: '2.0',
      id: 1,
      method: 'initialize',
      params: {
        protocolVersion: '2025-06-18',
        capabilities: {},
        clientInfo: { name: 'bench', version: '1' },
      },
    },
    { jsonrpc: '2.0', method: 'notifications/initialized' },
    ...calls.map(([name, args], i) => ({
      jsonrpc: '2.0',
      id: i + 2,
      method: 'tools/call',
      params: { name, arguments: args },
    })),
  ];
  return msgs.map((m) => `${JSON.stringify(m)}\n`).join('');
}

/**
 * Runs `cssctl mcp` (under /usr/bin/time when there is one) with `input` on a stdin kept open until the answer
 * to request `lastId` arrives; then closes stdin (the server ends). Resolves to the ms until the first answer
 * (initialize), the ms until the last one, the peak RSS (KiB) and stdout.
 */
function runMcp(env, input, lastId) {
  const rssFile = join(work, 'rss-mcp');
  rmSync(rssFile, { force: true });
  const argv = [bin, 'mcp'];
  const [cmd, args] = TIME
    ? [TIME, ['-f', '%M', '-o', rssFile, process.execPath, ...argv]]
    : [process.execPath, ['--import', join(root, 'scripts/bench-rss.mjs'), ...argv]];
  return new Promise((resolve, reject) => {
    const t = process.hrtime.bigint();
    const ms = () => Number(process.hrtime.bigint() - t) / 1e6;
    const child = spawn(cmd, args, {
      env: { ...baseEnv, ...env, BENCH_RSS_FILE: rssFile },
      stdio: ['pipe', 'pipe', 'ignore'],
    });
    let out = '';
    let first;
    let last;
    const timer = setTimeout(() => child.kill('SIGKILL'), CASE_TIMEOUT_MS);
    child.stdout.setEncoding('utf8').on('data', (d) => {
      out += d;
      first ??= out.includes('\n') ? ms() : undefined;
      if (
        last === undefined &&
        out.split('\n').some((l) => l.includes(`"id":${lastId}}`) || l.includes(`"id":${lastId},`))
      ) {
        last = ms();
        child.stdin.end();
      }
    });
    child.on('error', reject);
    child.on('exit', (code) => {
      clearTimeout(timer);
      if (last === undefined) return reject(new Error(`cssctl mcp exited ${code} before answering: ${out}`));
      const rss = existsSync(rssFile) ? readFileSync(rssFile, 'utf8').trim().split('\n').pop() : '0';
      resolve({ first, last, rssKiB: Number(rss), stdout: out });
    });
    child.stdin.write(input);
  });
}

/** `node -e 0` and `cssctl mcp` answering initialize, interleaved run by run; the medians. */
async function timeMcpInitialize(runs, env) {
  const node = [];
  const mcp = [];
  for (let i = 0; i < runs; i++) {
    const t = process.hrtime.bigint();
    spawnSync(process.execPath, ['-e', '0'], { env: baseEnv, stdio: 'ignore' });
    node.push(Number(process.hrtime.bigint() - t) / 1e6);
    mcp.push((await runMcp(env, mcpInput(), 1)).first);
  }
  return { node: median(node), mcp: median(mcp) };
}

function freePort() {
  return new Promise((resolve) => {
    const s = createServer().listen(0, '127.0.0.1', () => {
      const { port } = s.address();
      s.close(() => resolve(port));
    });
  });
}

/** A sandbox with `findings` per workspace; `fn` gets its URL and an owner token for acme. */
async function withSandbox(sandboxEnv, fn) {
  const port = await freePort();
  const child = spawn(process.execPath, [join(root, 'dist/sandbox.js')], {
    env: { ...baseEnv, PORT: String(port), ...sandboxEnv },
    stdio: ['ignore', 'pipe', 'ignore'],
  });
  await new Promise((resolve, reject) => {
    child.stdout.on('data', (d) => d.toString().includes('listening') && resolve());
    child.on('exit', (c) => reject(new Error(`sandbox exited ${c}`)));
  });
  const url = `http://127.0.0.1:${port}`;
  try {
    const res = await globalThis.fetch(`${url}/api/v1/auth/login`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ workspace: 'acme', email: 'owner@acme.test', password: 'demo-owner-acme' }),
    });
    const { access_token: token } = await res.json();
    return await fn(url, token);
  } finally {
    child.kill();
    await new Promise((r) => child.once('exit', r));
  }
}

/**
 * The V8 settings an export runs under (bin/cssctl.cjs relaunches node with them): a small young generation
 * among them. The bare pager is also run with them, to tell what they buy from what cssctl's own code costs.
 */
const V8_SETTINGS = (await import(bin)).EXPORT_V8_FLAGS;
const sha = (file) => createHash('sha256').update(readFileSync(file)).digest('hex').slice(0, 12);
/** `findings list` is another branch's work: its cases run once the command is in the build. */
const hasFindingsList = spawnSync(process.execPath, [bin, 'findings', 'list', '--help'], {
  env: baseEnv,
  encoding: 'utf8',
}).stdout.startsWith('Usage: cssctl findings list');

function machine() {
  const model = (() => {
    try {
      return /model name\s*:\s*(.*)/.exec(readFileSync('/proc/cpuinfo', 'utf8'))?.[1] ?? cpus()[0]?.model;
    } catch {
      return cpus()[0]?.model;
    }
  })();
  return `${model}, ${cpus().length} cores, Node ${process.version}, ${process.platform}-${process.arch}`;
}

// ---- 1. start-up ------------------------------------------------------------------------------------
async function startup() {
  return withSandbox({ SANDBOX_RATE_LIMIT: '1000000' }, async (url, token) => {
    const login = spawnSync(
      process.execPath,
      [bin, 'login', '--base-url', url, '-w', 'acme', '--email', 'owner@acme.test', '--password-stdin'],
      { env: baseEnv, input: 'demo-owner-acme\n', encoding: 'utf8' },
    );
    if (login.status !== 0) throw new Error(login.stderr);
    const req = { CSSCTL_TOKEN: token, CSSCTL_WORKSPACE: 'acme' };
    // What bin/cssctl.cjs does before running a command: dist/cli.cjs compiled with its code cache (the login
    // above made it for a plain run; node -e has flags of its own: its first timed run makes one), and run;
    // and the same compiled from its source, to show what the code cache saves.
    const cliOnly = (cache) => `(await import(${JSON.stringify(bin)})).loadCli({ cache: ${cache} })`;
    // A first run: no code cache for this Node yet, so the CLI is compiled from source, and the cache is
    // written at exit (a fresh cache folder each run).
    let fresh = 0;
    const firstRun = () => ({ XDG_CACHE_HOME: join(work, `first-run-${fresh++}`) });
    const cases = [
      ['node -e 0', ['-e', '0']],
      ['cssctl --version', [bin, '--version']],
      ['cssctl --help', [bin, '--help']],
      ['cssctl connections list --json', [bin, 'connections', 'list', '--json']],
      // --jq loads jq-wasm (jq 1.8 in WebAssembly) on that path only; without it nothing of jq is loaded
      // (test/e2e/jq.test.ts checks require.cache), so the line above is what every other command pays.
      ['cssctl connections list --jq .', [bin, 'connections', 'list', '--jq', '.']],
      ['cssctl api /findings?limit=1', [bin, 'api', '/findings?limit=1']],
      ['  load the CLI (commander, chalk, tree)', ['--input-type=module', '-e', cliOnly(true)]],
      ['  the same without the code cache', ['--input-type=module', '-e', cliOnly(false)]],
      ['  cssctl config path (+ config reader)', [bin, 'config', 'path']],
      // conf is loaded only by the commands that change config.json (src/core/config-writer.ts, bundled apart).
      ['  cssctl config set (+ lock, conf, write)', [bin, 'config', 'set', 'workspace', 'acme']],
      [
        '  node loading conf alone',
        ['-e', `require(${JSON.stringify(join(root, 'dist/config-writer.cjs'))})`],
      ],
      ["  bare GET, cssctl's undici parts", [bareRequest, 'core', `${url}/api/v1/connections`], req],
      ['  bare GET, whole undici', [bareRequest, 'full', `${url}/api/v1/connections`], req],
      ['  bare GET, node:http', [bareRequest, 'http', `${url}/api/v1/connections`], req],
      ['  connections list, first run (writes the cache)', [bin, 'connections', 'list', '--json'], firstRun],
    ];
    const times = timeCases(cases, RUNS, {});
    // `cssctl mcp` until it answers initialize (its first run, here, made the code caches).
    await runMcp(req, mcpInput(), 1);
    const mcp = await timeMcpInitialize(RUNS, req);
    return { times, mcp };
  });
}

// ---- 1b. start-up of the installed package on every supported Node, and of the single executable -------
/** Node <major> from the npm registry's `node` package, in ~/.cache/cssctl-node-<major> (as scripts/lib.sh). */
function nodeOf(major) {
  const dir = join(homedir(), '.cache', `cssctl-node-${major}`);
  const node = join(dir, 'node_modules', '.bin', 'node');
  const is = () =>
    existsSync(node) &&
    spawnSync(node, ['-p', 'process.versions.node'], { encoding: 'utf8' }).stdout.startsWith(`${major}.`);
  if (!is()) {
    console.error(`bench: installing Node.js ${major} into ${dir}`);
    mkdirSync(dir, { recursive: true });
    const r = spawnSync(
      'npm',
      // node-<os>-<arch>: the binary the `node` package's install script would fetch (scripts/lib.sh node_package)
      [
        'install',
        '--no-save',
        '--no-audit',
        '--no-fund',
        '--loglevel=error',
        `node-${process.platform}-${process.arch}@${major}`,
      ],
      {
        cwd: dir,
        stdio: 'inherit',
      },
    );
    if (r.status !== 0 || !is()) throw new Error(`bench: could not install Node.js ${major}`);
  }
  return node;
}

/** `npm pack` of this build, installed with `npm install -g` into a prefix: the installed bin/cssctl.cjs. */
const installedBins = new Map();
/** This build (or with `from`, another checkout's: --vs), installed once per bench run. */
function installPackage(from = root) {
  if (!installedBins.has(from)) installedBins.set(from, packAndInstall(from, `${installedBins.size}`));
  return installedBins.get(from);
}
/** A folder outside any checkout, where installed cssctl runs as a user's would (no project files around it). */
const outside = () => {
  const dir = join(work, 'outside');
  mkdirSync(dir, { recursive: true });
  return dir;
};
function packAndInstall(from, name) {
  const dest = join(work, `pack-${name}`);
  mkdirSync(dest, { recursive: true });
  const packed = spawnSync('npm', ['pack', '--ignore-scripts', '--json', '--pack-destination', dest], {
    cwd: from,
    encoding: 'utf8',
  });
  if (packed.status !== 0) throw new Error(`bench: npm pack failed: ${packed.stderr}`);
  const tarball = join(dest, JSON.parse(packed.stdout)[0].filename);
  const prefix = join(work, `prefix-${name}`);
  // --ignore-scripts: keytar is not built (the bench uses the file store).
  const inst = spawnSync(
    'npm',
    [
      'install',
      '-g',
      '--prefix',
      prefix,
      '--ignore-scripts',
      '--no-audit',
      '--no-fund',
      '--loglevel=error',
      tarball,
    ],
    { encoding: 'utf8' },
  );
  if (inst.status !== 0) throw new Error(`bench: npm install -g failed: ${inst.stderr}`);
  return join(prefix, 'lib', 'node_modules', 'cssctl', 'bin', 'cssctl.cjs');
}

const NODE_MAJORS = [22, 24, 26];
const NODE_TARGETS = { '--version': 1.3, '--help': 1.5, 'connections list --json': 2.0 };

async function reportNodes() {
  console.log(
    `\n1b. Start-up of the installed package (npm pack, npm install -g into an empty prefix, run from outside the` +
      ` repository) on Node ${NODE_MAJORS.join(', ')} against the sandbox, median of ${RUNS} ratios taken run by run` +
      ` against \`node -e 0\` of the same Node (--jq . against the same command's --json):`,
  );
  const installed = installPackage();
  // --vs: the other build's package, timed in the same interleaved runs (its own code cache folder).
  const before = VS ? installPackage(VS) : undefined;
  if (VS) console.log(`  before: ${VS} (packed and installed the same way), after: this build`);
  const nodes = NODE_MAJORS.map((m) => [m, nodeOf(m)]);
  await withSandbox({ SANDBOX_RATE_LIMIT: '1000000' }, async (url, token) => {
    const req = { CSSCTL_TOKEN: token, CSSCTL_BASE_URL: url, CSSCTL_WORKSPACE: 'acme' };
    const cases = [];
    let fresh = 0;
    for (const [m, node] of nodes) {
      const cache = { XDG_CACHE_HOME: join(work, `cache-${m}`) };
      // Each Node's first run makes its code cache; the timed runs read it.
      spawnSync(node, [installed, 'connections', 'list', '--json'], {
        env: { ...baseEnv, ...req, ...cache },
        cwd: outside(),
      });
      cases.push([`${m} node -e 0`, ['-e', '0'], cache, node]);
      if (before) {
        const cacheBefore = { XDG_CACHE_HOME: join(work, `cache-before-${m}`) };
        spawnSync(node, [before, 'connections', 'list', '--json'], {
          env: { ...baseEnv, ...req, ...cacheBefore },
          cwd: outside(),
        });
        for (const args of [
          ['connections', 'list', '--json'],
          ['connections', 'list', '--jq', '.'],
        ])
          cases.push([`${m} before ${args.join(' ')}`, [before, ...args], cacheBefore, node]);
      }
      for (const args of [
        ['--version'],
        ['--help'],
        ['connections', 'list', '--json'],
        ['connections', 'list', '--jq', '.'],
      ])
        cases.push([`${m} ${args.join(' ')}`, [installed, ...args], cache, node]);
      cases.push([
        `${m} first run`,
        [installed, 'connections', 'list', '--json'],
        () => ({ XDG_CACHE_HOME: join(work, `first-${m}-${fresh++}`) }),
        node,
      ]);
    }
    const timed = timeCases(cases, RUNS, req, { cwd: outside() });
    const t = Object.fromEntries(timed);
    for (const [m, node] of nodes) {
      const base = t[`${m} node -e 0`];
      const version = spawnSync(node, ['--version'], { encoding: 'utf8' }).stdout.trim();
      // Each a median of ratios taken run by run against this Node's `node -e 0`; --jq against its own --json.
      const cols = Object.entries(NODE_TARGETS).map(([name, target]) => {
        const r = paired(timed.runs, `${m} ${name}`, `${m} node -e 0`);
        return `${name} ${r.toFixed(2)}× (≤ ${target}× ${mark(r <= target)})`;
      });
      const jq = paired(timed.runs, `${m} connections list --jq .`, `${m} connections list --json`);
      cols.push(`--jq . ${jq.toFixed(2)}× its --json (≤ 1.5× ${mark(jq <= 1.5)})`);
      const first = t[`${m} first run`];
      row(
        `Node ${version.padEnd(9)} node -e 0 ${ms(base)};`,
        cols.join('; '),
        `; first run ${(first / base).toFixed(2)}× (+${(first - t[`${m} connections list --json`]).toFixed(0)} ms)`,
      );
      if (before) {
        const list = (who) => paired(timed.runs, `${m} ${who}connections list --json`, `${m} node -e 0`);
        const jqOf = (who) =>
          paired(timed.runs, `${m} ${who}connections list --jq .`, `${m} ${who}connections list --json`);
        // This build against the other, run by run: the same command, so load drift within a round cancels.
        const vs = (cmd) => paired(timed.runs, `${m} ${cmd}`, `${m} before ${cmd}`);
        row(
          `  before → after: connections list --json ${list('before ').toFixed(2)}× → ${list('').toFixed(2)}×`,
          `of node -e 0; --jq . ${jqOf('before ').toFixed(2)}× → ${jqOf('').toFixed(2)}× its own --json;`,
          `after/before, pair by pair: --json ${vs('connections list --json').toFixed(2)},`,
          `--jq . ${vs('connections list --jq .').toFixed(2)}`,
        );
      }
    }
  });
}

/**
 * 1c. What a user runs, both launchers side by side in one interleaved run: the single executable and the npm
 * package (npm pack, npm install -g) run by the same Node (the one inside the executable: NODE_VERSION from the
 * registry), against the sandbox, signed in by a stored `login` (the file store), stdout a pipe. Each as a
 * multiple of `node -e 0` of that Node. Beside them, what made this figure differ from measurements taken
 * outside the bench (docs/performance.md): the same commands with CSSCTL_TOKEN (no stored session, which the bench
 * used to time), and `node -e 0` of the Node running the bench (another yardstick).
 */
async function reportExe() {
  const exe = join(root, 'dist', `cssctl-${process.platform}-${process.arch}`);
  console.log(
    '\n1c. The single executable and the installed package on the same Node, side by side, against the sandbox' +
      ` (a stored login), median of ${RUNS} interleaved runs, as a multiple of \`node -e 0\` of that Node:`,
  );
  if (!existsSync(exe)) {
    console.log('  (no dist/cssctl-<os>-<arch>: run npm run build:exe first)');
    return;
  }
  const seaConfig = join(root, 'dist', 'sea', `${process.platform}-${process.arch}`, 'sea-config.json');
  const { executable: node } = JSON.parse(readFileSync(seaConfig, 'utf8'));
  const installed = installPackage();
  await withSandbox({ SANDBOX_RATE_LIMIT: '1000000' }, async (url, token) => {
    // One user: one config folder and stored session for both launchers, a cache folder for the package's
    // code cache (made by its first run), stdout a pipe read to the end, as a shell pipeline or CI log reads it.
    const user = { CSSCTL_CONFIG_DIR: join(work, 'user-config'), XDG_CACHE_HOME: join(work, 'user-cache') };
    const login = spawnSync(
      exe,
      ['login', '--base-url', url, '-w', 'acme', '--email', 'owner@acme.test', '--password-stdin'],
      { env: { ...baseEnv, ...user }, input: 'demo-owner-acme\n', encoding: 'utf8' },
    );
    if (login.status !== 0) throw new Error(`bench: login failed: ${login.stderr}`);
    const pkg = (...args) => [installed, ...args];
    for (let i = 0; i < 2; i++)
      spawnSync(node, pkg('connections', 'list', '--json'), { env: { ...baseEnv, ...user } });
    const viaToken = { CSSCTL_TOKEN: token, CSSCTL_BASE_URL: url, CSSCTL_WORKSPACE: 'acme' };
    const list = ['connections', 'list', '--json'];
    const cases = [
      ['node -e 0', ['-e', '0'], user, node],
      ['exe --version', ['--version'], user, exe],
      ['package --version', pkg('--version'), user, node],
      ['exe --help', ['--help'], user, exe],
      ['package --help', pkg('--help'), user, node],
      ['exe connections list --json', list, user, exe],
      ['package connections list --json', pkg(...list), user, node],
      ['exe connections list --jq .', ['connections', 'list', '--jq', '.'], user, exe],
      ['package connections list --jq .', pkg('connections', 'list', '--jq', '.'), user, node],
      ['exe, CSSCTL_TOKEN', list, { ...user, ...viaToken }, exe],
      ['package, CSSCTL_TOKEN', pkg(...list), { ...user, ...viaToken }, node],
      [`node -e 0 of Node ${process.version}`, ['-e', '0'], user],
      // What starting and reaping a process costs this bench (a node that has run the sections before):
      // taken out of every figure below, as a user's shell does not pay it.
      ['true', [], user, '/bin/true'],
    ];
    // --vs: the other build's package on this Node (and its executable, when that build has one), beside.
    const before = VS ? installPackage(VS) : undefined;
    const exeBefore = VS ? join(VS, 'dist', `cssctl-${process.platform}-${process.arch}`) : undefined;
    if (before) {
      const userBefore = { ...user, XDG_CACHE_HOME: join(work, 'user-cache-before') };
      for (let i = 0; i < 2; i++)
        spawnSync(node, [before, ...list], { env: { ...baseEnv, ...userBefore }, cwd: outside() });
      cases.push(
        ['package before connections list --json', [before, ...list], userBefore, node],
        [
          'package before connections list --jq .',
          [before, 'connections', 'list', '--jq', '.'],
          userBefore,
          node,
        ],
      );
      if (existsSync(exeBefore))
        cases.push(
          ['exe before connections list --json', list, user, exeBefore],
          ['exe before connections list --jq .', ['connections', 'list', '--jq', '.'], user, exeBefore],
        );
    }
    const timed = timeCases(cases, RUNS, {}, { stdout: 'pipe', cwd: outside() });
    const raw = Object.fromEntries(timed);
    const launch = raw.true;
    const t = Object.fromEntries(Object.entries(raw).map(([k, v]) => [k, v - launch]));
    const base = t['node -e 0'];
    const ratio = (name) => t[name] / base;
    console.log(
      `  Node ${spawnSync(node, ['--version'], { encoding: 'utf8' }).stdout.trim()}: node -e 0 ${ms(base)};` +
        ` this bench's own cost of starting a process (/bin/true, ${ms(launch).trim()}) is taken out of every figure` +
        ` (with it: exe ${(raw['exe connections list --json'] / raw['node -e 0']).toFixed(2)}×, package` +
        ` ${(raw['package connections list --json'] / raw['node -e 0']).toFixed(2)}× for the request)`,
    );
    for (const cmd of ['--version', '--help', 'connections list --json']) {
      const [e, p] = [ratio(`exe ${cmd}`), ratio(`package ${cmd}`)];
      const target = cmd === 'connections list --json' ? 2.0 : cmd === '--help' ? 1.5 : 1.3;
      // The executable against the package, run by run (each less the launch cost of that run's /bin/true).
      const vs = median(
        timed.runs[`exe ${cmd}`].map(
          (x, i) => (x - timed.runs.true[i]) / (timed.runs[`package ${cmd}`][i] - timed.runs.true[i]),
        ),
      );
      row(
        cmd.padEnd(26),
        `exe ${ms(t[`exe ${cmd}`])} ${e.toFixed(2)}×`,
        `package ${ms(t[`package ${cmd}`])} ${p.toFixed(2)}×`,
        `exe/package ${vs.toFixed(2)} (≤ 1.00 ${mark(vs <= 1)})`,
        `both ≤ ${target}× ${mark(e <= target && p <= target)}`,
      );
    }
    for (const who of ['exe', 'package']) {
      const jq = paired(timed.runs, `${who} connections list --jq .`, `${who} connections list --json`);
      const was = timed.runs[`${who} before connections list --jq .`]
        ? ` (before, ${VS}: ${paired(timed.runs, `${who} before connections list --jq .`, `${who} before connections list --json`).toFixed(2)}×;` +
          ` its --json ${(t[`${who} before connections list --json`] / base).toFixed(2)}× node -e 0, against` +
          ` ${ratio(`${who} connections list --json`).toFixed(2)}× now; after/before, pair by pair: --json` +
          ` ${paired(timed.runs, `${who} connections list --json`, `${who} before connections list --json`).toFixed(2)},` +
          ` --jq . ${paired(timed.runs, `${who} connections list --jq .`, `${who} before connections list --jq .`).toFixed(2)})`
        : '';
      row(
        `${who} --jq . / its --json`.padEnd(26),
        `${jq.toFixed(2)}× (median of ${RUNS} pairs; target ≤ 1.5× ${mark(jq <= 1.5)})${was}`,
      );
    }
    const other = t[`node -e 0 of Node ${process.version}`];
    row(
      `With CSSCTL_TOKEN instead of the stored session: exe ${ratio('exe, CSSCTL_TOKEN').toFixed(2)}×, package` +
        ` ${ratio('package, CSSCTL_TOKEN').toFixed(2)}×. Against \`node -e 0\` of Node ${process.version}` +
        ` (${ms(other).trim()}, ${(other / base).toFixed(2)}× this one): exe` +
        ` ${(t['exe connections list --json'] / other).toFixed(2)}×, package` +
        ` ${(t['package connections list --json'] / other).toFixed(2)}×.`,
    );
  });
}

// ---- 2. exports ------------------------------------------------------------------------------------
const exportCases = [
  { name: 'api --paginate /findings', args: ['api', '--paginate', '/findings'], bare: 'json' },
  ...(hasFindingsList
    ? [
        {
          name: 'findings list --all -o ndjson',
          args: ['findings', 'list', '--all', '-o', 'ndjson'],
          bare: 'ndjson',
        },
        { name: 'findings list --all --json', args: ['findings', 'list', '--all', '--json'], bare: 'json' },
      ]
    : []),
];

async function exports(count, runs) {
  return withSandbox(
    { SANDBOX_FINDINGS: String(count), SANDBOX_RATE_LIMIT: '100000000' },
    async (url, token) => {
      const env = { CSSCTL_TOKEN: token, CSSCTL_BASE_URL: url, CSSCTL_WORKSPACE: 'acme' };
      const results = {};
      const record = (key, r, file) => {
        (results[key] ??= { walls: [], rss: [], bytes: 0, hash: '' }).walls.push(r.wall);
        results[key].rss.push(r.rssKiB);
        results[key].bytes = statSync(file).size;
        results[key].hash = sha(file);
      };
      for (let i = 0; i < runs; i++) {
        for (const c of exportCases) {
          const file = join(work, `out-${c.name.replace(/\W+/g, '-')}`);
          record(c.name, runNode([bin, ...c.args], env, { stdoutFile: file }), file);
        }
        for (const format of ['json', 'ndjson']) {
          if (!exportCases.some((c) => c.bare === format)) continue;
          const file = join(work, `out-bare-${format}`);
          record(
            `bare ${format}`,
            runNode([pager, url, '/findings', format], env, { stdoutFile: file }),
            file,
          );
          // The same with cssctl's V8 settings: what they buy, and what they cost.
          record(
            `bare ${format}, cssctl's V8 settings`,
            runNode([...V8_SETTINGS, pager, url, '/findings', format], env, { stdoutFile: file }),
            file,
          );
        }
      }
      for (const r of Object.values(results)) {
        r.wall = median(r.walls);
        r.rssKiB = median(r.rss);
      }
      return results;
    },
  );
}

// ---- 3. under a rate limit -------------------------------------------------------------------------
/**
 * 600 findings at 25 per page, each run in a fresh sandbox (fresh windows): cssctl and the ideal client,
 * each with the limit on and off. What the limit requires is the wait it imposes on the ideal client
 * (its time with the limit less its time without); cssctl may take its own time without the limit plus
 * that wait, plus 5%.
 */
async function rateLimited(limit, windowSec, runs) {
  // Reset is in whole seconds, so how long the waits are depends on where in its second the first request
  // lands: every client starts 20 ms after a second begins, and sends its first request within that second.
  const aligned = () => sleep(1020 - (Date.now() % 1000));
  const on = {
    SANDBOX_FINDINGS: '600',
    SANDBOX_RATE_LIMIT: String(limit),
    SANDBOX_RATE_WINDOW: String(windowSec),
  };
  const off = { SANDBOX_FINDINGS: '600', SANDBOX_RATE_LIMIT: '100000000' };
  const t = { cssctlOn: [], cssctlOff: [], idealOn: [], idealOff: [] };
  let cssctl429 = 0;
  let ideal429 = 0;
  let requests = 0;
  const cssctl = (sandboxEnv, key) =>
    withSandbox(sandboxEnv, async (url, token) => {
      const env = { CSSCTL_TOKEN: token, CSSCTL_BASE_URL: url, CSSCTL_WORKSPACE: 'acme' };
      const args = [bin, 'api', '--paginate', '/findings?limit=25', '--verbose'];
      await aligned();
      const r = runNode(args, env, { stdoutFile: 'ignore' });
      t[key].push(r.wall);
      cssctl429 += (r.stderr.match(/ -> 429 /g) ?? []).length;
      requests = (r.stderr.match(/ -> \d{3} /g) ?? []).length;
    });
  const ideal = (sandboxEnv, key) =>
    withSandbox(sandboxEnv, async (url, token) => {
      const env = { CSSCTL_TOKEN: token, CSSCTL_WORKSPACE: 'acme' };
      const args = [pager, url, '/findings', 'json', '--limit', '25', '--respect-limits'];
      await aligned();
      const r = runNode(args, env, { stdoutFile: 'ignore' });
      t[key].push(r.wall);
      ideal429 += Number(/status429=(\d+)/.exec(r.stderr)?.[1] ?? 0);
    });
  for (let i = 0; i < runs; i++) {
    await cssctl(on, 'cssctlOn');
    await ideal(on, 'idealOn');
    await cssctl(off, 'cssctlOff');
    await ideal(off, 'idealOff');
  }
  const m = Object.fromEntries(Object.entries(t).map(([k, v]) => [k, median(v)]));
  return { ...m, required: Math.max(0, m.idealOn - m.idealOff), cssctl429, ideal429, requests };
}

// ---- 4. CI report formats ---------------------------------------------------------------------------
/**
 * Peak RSS of the CI report formats (src/report/formats/) at SMALL and LARGE findings beside
 * ndjson, through `cssctl findings list --all -o <fmt>` against the sandbox.
 */
async function reportsMemory(FORMATS) {
  const rows = [];
  for (const n of [SMALL, LARGE]) {
    await withSandbox(
      { SANDBOX_FINDINGS: String(n), SANDBOX_RATE_LIMIT: '100000000' },
      async (url, token) => {
        const env = { CSSCTL_TOKEN: token, CSSCTL_BASE_URL: url, CSSCTL_WORKSPACE: 'acme' };
        for (const fmt of FORMATS) {
          const r = runNode([bin, 'findings', 'list', '--all', '-o', fmt, '-q'], env, {
            stdoutFile: 'ignore',
          });
          rows.push({ n, fmt, ...r });
        }
      },
    );
  }
  return rows;
}

async function reportReports(formats = ['ndjson', 'sarif', 'junit', 'html']) {
  console.log(
    '\n4. Report exports (CI reports and html), `cssctl findings list --all -o <fmt>`, peak RSS (target ≤ 1.5× both ways):',
  );
  if (!hasFindingsList) {
    console.log('  (no `findings list` in this build)');
    return;
  }
  const rows = await reportsMemory(formats);
  for (const r of rows)
    row(
      `${r.fmt.padEnd(7)} ${r.n.toLocaleString('en-US').padStart(7)} findings`,
      mib(r.rssKiB),
      `${(r.wall / 1000).toFixed(2)} s`,
    );
  for (const fmt of formats) {
    const [a, b] = [SMALL, LARGE].map((n) => rows.find((r) => r.n === n && r.fmt === fmt));
    const nd = rows.find((r) => r.n === LARGE && r.fmt === 'ndjson');
    const ok = b.rssKiB / a.rssKiB <= 1.5 && b.rssKiB / nd.rssKiB <= 1.5;
    row(
      `${fmt.padEnd(7)} 10× the findings → ${(b.rssKiB / a.rssKiB).toFixed(2)}× the peak;`,
      `at ${LARGE.toLocaleString('en-US')}: ${(b.rssKiB / nd.rssKiB).toFixed(2)}× ndjson's`,
      mark(ok),
    );
  }
}

/**
 * `-o ocsf` (cli-contract.md §14) streams like ndjson: one event a line, written as each page is read. Its
 * events are several times the bytes of the findings, so the target is on the peak: at LARGE findings within
 * 1.2× the ndjson export's, measured alternately (3 runs each, medians: one RSS reading is noisy).
 */
async function reportOcsf(runs = QUICK ? 1 : 3) {
  console.log(
    '\n4b. OCSF, `cssctl findings list --all -o ocsf` beside `-o ndjson`, peak RSS (target at the larger size: ≤ 1.2× ndjson):',
  );
  if (!hasFindingsList) {
    console.log('  (no `findings list` in this build)');
    return;
  }
  const peaks = {};
  for (const n of [SMALL, LARGE]) {
    await withSandbox(
      { SANDBOX_FINDINGS: String(n), SANDBOX_RATE_LIMIT: '100000000' },
      async (url, token) => {
        const env = { CSSCTL_TOKEN: token, CSSCTL_BASE_URL: url, CSSCTL_WORKSPACE: 'acme' };
        for (let i = 0; i < runs; i++)
          for (const fmt of ['ndjson', 'ocsf']) {
            const out = join(work, `bench.${fmt}`);
            const r = runNode([bin, 'findings', 'list', '--all', '-o', fmt, '-q'], env, { stdoutFile: out });
            const lines = readFileSync(out, 'utf8').split('\n').length - 1;
            if (lines !== n) throw new Error(`-o ${fmt} wrote ${lines} lines for ${n} findings`);
            const bytes = statSync(out).size;
            rmSync(out, { force: true });
            (peaks[`${fmt} ${n}`] ??= []).push({ ...r, bytes });
          }
      },
    );
  }
  const med = (key, f) => median(peaks[key].map(f));
  for (const n of [SMALL, LARGE])
    for (const fmt of ['ndjson', 'ocsf']) {
      const key = `${fmt} ${n}`;
      row(
        `${fmt.padEnd(7)} ${n.toLocaleString('en-US').padStart(7)} findings`,
        mib(med(key, (r) => r.rssKiB)),
        `${(med(key, (r) => r.wall) / 1000).toFixed(2)} s`,
        `${(med(key, (r) => r.bytes) / 1024 / 1024).toFixed(1)} MiB written`,
      );
    }
  const ratio = med(`ocsf ${LARGE}`, (r) => r.rssKiB) / med(`ndjson ${LARGE}`, (r) => r.rssKiB);
  const flat = med(`ocsf ${LARGE}`, (r) => r.rssKiB) / med(`ocsf ${SMALL}`, (r) => r.rssKiB);
  row(
    `ocsf at ${LARGE.toLocaleString('en-US')}: ${ratio.toFixed(2)}× ndjson's peak (target ≤ 1.20)`,
    mark(ratio <= 1.2),
  );
  row(`ocsf  10× the findings → ${flat.toFixed(2)}× the peak (flat: ≤ 1.5)`, mark(flat <= 1.5));
}

/**
 * --jq's memory: with -o ndjson the filter runs over each chunk as it streams (flat); with -o json over the
 * whole list at the end (the document is held, as jq holds its one input).
 */
async function reportJq() {
  console.log('\n5. --jq over `findings list --all`, peak RSS (ndjson target ≤ 1.5× the 10k peak):');
  const rows = [];
  for (const n of [SMALL, LARGE]) {
    await withSandbox(
      { SANDBOX_FINDINGS: String(n), SANDBOX_RATE_LIMIT: '100000000' },
      async (url, token) => {
        const env = { CSSCTL_TOKEN: token, CSSCTL_BASE_URL: url, CSSCTL_WORKSPACE: 'acme' };
        for (const [mode, args] of [
          ['ndjson --jq .id', ['-o', 'ndjson', '--jq', '.id']],
          ['--jq length', ['--jq', 'length']],
        ]) {
          const r = runNode([bin, 'findings', 'list', '--all', '-q', ...args], env, { stdoutFile: 'ignore' });
          rows.push({ n, mode, ...r });
          row(
            `${mode.padEnd(16)} ${n.toLocaleString('en-US').padStart(7)} findings`,
            mib(r.rssKiB),
            `${(r.wall / 1000).toFixed(2)} s`,
          );
        }
      },
    );
  }
  const [a, b] = [SMALL, LARGE].map((n) => rows.find((r) => r.n === n && r.mode === 'ndjson --jq .id'));
  row(
    `ndjson --jq: 10× the findings → ${(b.rssKiB / a.rssKiB).toFixed(2)}× the peak`,
    mark(b.rssKiB / a.rssKiB <= 1.5),
  );
  // A filter that never ends, cut at 100,000 and 1,000,000 small results (`limit(n; repeat(1))`): results are
  // written as jq yields them, so the peak does not grow with how long it has run.
  await withSandbox({ SANDBOX_RATE_LIMIT: '100000000' }, async (url, token) => {
    const env = { CSSCTL_TOKEN: token, CSSCTL_BASE_URL: url, CSSCTL_WORKSPACE: 'acme' };
    const [x, y] = [100_000, 1_000_000].map((n) => {
      const r = runNode([bin, 'connections', 'list', '--jq', `limit(${n}; repeat(1))`], env, {
        stdoutFile: 'ignore',
      });
      row(`--jq 'limit(${n}; repeat(1))'`.padEnd(36), mib(r.rssKiB), `${(r.wall / 1000).toFixed(2)} s`);
      return r;
    });
    row(
      `--jq repeat(1): 10× the results → ${(y.rssKiB / x.rssKiB).toFixed(2)}× the peak (flat: ≤ 1.2×)`,
      mark(y.rssKiB / x.rssKiB <= 1.2),
    );
  });
}

async function reportStartup() {
  const { times: s, mcp } = await startup();
  const base = s[0][1];
  const ratio = (name) => s.find(([n]) => n === name)[1] / base;
  console.log(`\n1. Start-up, median of ${RUNS} interleaved runs, as a multiple of \`node -e 0\`:`);
  const targets = { 'cssctl --version': 1.3, 'cssctl --help': 1.5, 'cssctl connections list --json': 2.0 };
  for (const [name, t] of s) {
    const target = targets[name];
    const verdict = target ? `target ≤ ${target}× ${mark(t / base <= target)}` : '';
    row(name.padEnd(44), ms(t), `${(t / base).toFixed(2)}×`.padStart(6), verdict);
  }
  const cli = ratio('  load the CLI (commander, chalk, tree)');
  const uncached = ratio('  the same without the code cache');
  const conf = ratio('  cssctl config path (+ config reader)');
  const core = ratio("  bare GET, cssctl's undici parts");
  const http = ratio('  bare GET, node:http');
  const list = ratio('cssctl connections list --json');
  const confSet = ratio('  cssctl config set (+ lock, conf, write)');
  const confAlone = ratio('  node loading conf alone');
  const jq = ratio('cssctl connections list --jq .');
  const plus = (x) => `+${Math.max(0, x).toFixed(2)}×`;
  console.log(
    `  Where a request command's time goes: node itself 1.00×; loading the CLI ${plus(cli - 1)} (compiled` +
      ` from source instead of with its code cache: ${plus(uncached - 1)}); reading the profile` +
      ` ${plus(conf - cli)}; the rest (credentials, session, one GET through undici, output) ${plus(list - conf)}.` +
      ` For scale: one GET with only the undici parts cssctl loads, compiled without a cache, is` +
      ` ${core.toFixed(2)}×; with node:http, ${http.toFixed(2)}×.` +
      ` --jq loads and compiles jq's WebAssembly on its own path: ${plus(jq - list)} over --json.`,
  );
  const mcpRatio = mcp.mcp / mcp.node;
  row(
    'cssctl mcp: initialize answered'.padEnd(44),
    ms(mcp.mcp),
    `${mcpRatio.toFixed(2)}×`.padStart(6),
    `target ≤ 3.0× ${mark(mcpRatio <= 3.0)} (against node -e 0 of its own interleaved runs, ${ms(mcp.node).trim()})`,
  );
  console.log(
    `  Settings through conf: a command that writes config.json (config set) is ${plus(confSet - conf)} over` +
      ` config path (the lock, loading conf and ajv, compiling the schema, the atomic write); loading conf alone` +
      ` is ${plus(confAlone - 1)} over node itself. Request commands only read settings, with cssctl's own reader` +
      ` (${plus(conf - cli)}): reading them through conf would add at least the load.`,
  );
}

async function reportExports() {
  console.log(`\n2. Exports (rate limits off), ${exportCases.map((c) => c.name).join(', ')}:`);
  if (!hasFindingsList)
    console.log('  (no `findings list` in this build: its cases run once the command exists)');
  const small = await exports(SMALL, 1);
  const large = await exports(LARGE, QUICK ? 3 : 5);
  for (const [label, res, n] of [
    [`${SMALL.toLocaleString('en-US')}`, small, SMALL],
    [`${LARGE.toLocaleString('en-US')}`, large, LARGE],
  ]) {
    for (const [name, r] of Object.entries(res)) {
      row(
        `${label.padStart(7)} ${name.padEnd(30)}`,
        mib(r.rssKiB),
        `${(r.wall / 1000).toFixed(2).padStart(6)} s`,
        `${Math.round(n / (r.wall / 1000))
          .toLocaleString('en-US')
          .padStart(7)} items/s`,
        `${(r.bytes / 1e6).toFixed(1)} MB sha ${r.hash}`,
      );
    }
  }
  console.log(
    `  Peak RSS, 10× the items (targets: under 150 MiB at ${LARGE.toLocaleString('en-US')} and ≤ 1.15× the peak at` +
      ` ${SMALL.toLocaleString('en-US')}; an export runs in a node started with the export flags, bin/cssctl.cjs):`,
  );
  for (const c of exportCases) {
    const a = small[c.name].rssKiB;
    const b = large[c.name].rssKiB;
    const ok = b / 1024 < 150 && b / a <= 1.15;
    const mb = `(${((b * 1024) / 1e6).toFixed(1)} MB)`;
    row(`${c.name.padEnd(38)}`, `${mib(a)} → ${mib(b)} ${mb}`, `${(b / a).toFixed(2)}×`, mark(ok));
  }
  console.log(
    `  Wall time of ${LARGE.toLocaleString('en-US')}, median of 5, against the bare undici pager (target ≤ 1.00×):`,
  );
  for (const c of exportCases) {
    const r = large[c.name];
    const y = large[`bare ${c.bare}`];
    const z = large[`bare ${c.bare}, cssctl's V8 settings`];
    const same = r.hash === y.hash ? 'same bytes' : 'BYTES DIFFER';
    row(
      `${c.name.padEnd(38)}`,
      `${(r.wall / y.wall).toFixed(2)}× (${same})`,
      mark(r.wall <= y.wall),
      `— ${(r.wall / z.wall).toFixed(2)}× the pager given cssctl's V8 settings` +
        ` (it then peaks at ${mib(z.rssKiB).trim()}, and ${(z.wall / y.wall).toFixed(2)}× its own time)`,
    );
  }
}

async function reportRateLimits() {
  console.log(
    '\n3. 600 findings at 25 per page (24 requests) under a rate limit, medians of 9 and 3, fresh windows:',
  );
  for (const [limit, windowSec, label] of [
    [120, 60, 'the real limit, 120 per 60 s'],
    [10, 1, 'a tight one, 10 per 1 s'],
  ]) {
    // Under the real limit a run takes ~0.35 s, where 5% is ~17 ms: nine runs, so one slow run moves nothing.
    const r = await rateLimited(limit, windowSec, QUICK ? (windowSec > 1 ? 3 : 1) : windowSec > 1 ? 9 : 3);
    const budget = r.cssctlOff + r.required;
    console.log(
      `  ${label} (${Math.ceil(24 / limit)} window(s)): the limit requires ${(r.required / 1000).toFixed(2)} s of` +
        ` waiting (the ideal client: ${(r.idealOn / 1000).toFixed(2)} s with it, ${(r.idealOff / 1000).toFixed(2)} s` +
        ` without, 429s ${r.ideal429})`,
    );
    row(
      'cssctl api --paginate'.padEnd(38),
      `${(r.cssctlOn / 1000).toFixed(2)} s (${(r.cssctlOff / 1000).toFixed(2)} s without the limit),` +
        ` ${r.requests} requests, 429s ${r.cssctl429}`,
      `${(r.cssctlOn / budget).toFixed(3)}× (without + required)`,
      `target no 429 and ≤ 1.05× ${mark(r.cssctl429 === 0 && r.cssctlOn <= budget * 1.05)}`,
    );
  }
  console.log('  The ideal client sends at once and, at Remaining 0, waits exactly until X-RateLimit-Reset.');
}

// ---- 5. baselines and several reports ---------------------------------------------------------------
/**
 * `findings diff` of two LARGE-finding sets beside one LARGE-finding export (target: ≤ 2× its peak RSS), and
 * `--report` of three formats beside one export (target: the same number of requests: one read). The two sets
 * are ndjson files written by `findings list --all -o ndjson` from the sandbox: the base as read, the head the
 * same findings with new ids, 5% re-rated, 5% gone and 5% new — the diff holds the base and streams the head,
 * as it does for two scans.
 */
async function reportBaselines() {
  // The contract's figure (§8): two 100,000-finding sets against one 100,000-finding export.
  const N = QUICK ? 10_000 : 100_000;
  console.log(`\n6. Baselines and --report, ${N.toLocaleString('en-US')} findings:`);
  if (!hasFindingsList) {
    console.log('  (no `findings list` in this build)');
    return;
  }
  await withSandbox({ SANDBOX_FINDINGS: String(N), SANDBOX_RATE_LIMIT: '100000000' }, async (url, token) => {
    const env = { CSSCTL_TOKEN: token, CSSCTL_BASE_URL: url, CSSCTL_WORKSPACE: 'acme' };
    const base = join(work, 'base.ndjson');
    const exp = runNode([bin, 'findings', 'list', '--all', '-o', 'ndjson', '-q'], env, {
      stdoutFile: base,
    });
    const head = join(work, 'head.ndjson');
    const lines = readFileSync(base, 'utf8').trim().split('\n');
    const sev = ['critical', 'high', 'medium', 'low', 'info'];
    const out = [];
    lines.forEach((line, i) => {
      const f = JSON.parse(line);
      if (i % 20 === 0) return; // fixed
      f.id = `new-${f.id}`;
      if (i % 20 === 1) f.severity = sev[(sev.indexOf(f.severity) + 1) % sev.length]; // updated
      out.push(JSON.stringify(f));
      if (i % 20 === 2) out.push(JSON.stringify({ ...f, id: `add-${i}`, resource: `${f.resource}-new` })); // new
    });
    writeFileSync(head, `${out.join('\n')}\n`);
    const diff = runNode(
      [bin, 'findings', 'diff', '--base', base, '--head', head, '-o', 'ndjson', '-q'],
      env,
      {
        stdoutFile: 'ignore',
      },
    );
    const ratio = diff.rssKiB / exp.rssKiB;
    row('findings list --all -o ndjson     ', mib(exp.rssKiB), `${(exp.wall / 1000).toFixed(2)} s`);
    row('findings diff (two sets, ndjson)  ', mib(diff.rssKiB), `${(diff.wall / 1000).toFixed(2)} s`);
    row(`diff peak / export peak: ${ratio.toFixed(2)}× (target ≤ 2×)`, mark(ratio <= 2));

    // A JSON-array head (as `findings list --all -o json` writes it) is read element by element: the peak does
    // not grow with the file (issue 28 #11; past ~512 MiB it could not be read at all when it was read whole).
    // The base is small here, so what is measured is the head's reading.
    const smallBase = join(work, 'small-base.ndjson');
    writeFileSync(smallBase, `${lines.slice(0, 1000).join('\n')}\n`);
    const arrays = [1, 5].map((times) => {
      const path = join(work, `head-${times}.json`);
      const fd = openSync(path, 'w');
      writeSync(fd, '[\n');
      for (let t = 0; t < times; t++)
        for (let i = 0; i < out.length; i += 1000) {
          const part = out.slice(i, i + 1000).map((l) => (t === 0 ? l : l.replace('"id":"', `"id":"x${t}-`)));
          writeSync(fd, `${t === 0 && i === 0 ? '  ' : ',\n  '}${part.join(',\n  ')}`);
        }
      writeSync(fd, '\n]\n');
      closeSync(fd);
      const r = runNode(
        [bin, 'findings', 'diff', '--base', smallBase, '--head', path, '-o', 'ndjson', '-q'],
        env,
        {
          stdoutFile: 'ignore',
        },
      );
      const size = statSync(path).size;
      rmSync(path);
      return { size, ...r };
    });
    for (const a of arrays)
      row(
        `findings diff --head <JSON array of ${(a.size / 2 ** 20).toFixed(0)} MiB>`,
        mib(a.rssKiB),
        `${(a.wall / 1000).toFixed(2)} s`,
      );
    const growth = arrays[1].rssKiB / arrays[0].rssKiB;
    row(
      `JSON-array head, 5× the file: ${growth.toFixed(2)}× the peak (target ≤ 1.2×: flat)`,
      mark(growth <= 1.2),
    );

    const requests = (stderr) => stderr.split('\n').filter((l) => /\bGET\b.*\/findings/.test(l)).length;
    const one = runNode([bin, 'findings', 'list', '--all', '-o', 'ndjson', '--verbose'], env, {
      stdoutFile: 'ignore',
    });
    const three = runNode(
      [
        bin,
        'findings',
        'list',
        '--all',
        '-o',
        'ndjson',
        '--verbose',
        '--report',
        `sarif=${join(work, 'r.sarif')}`,
        '--report',
        `junit=${join(work, 'r.xml')}`,
        '--report',
        `github=${join(work, 'r.txt')}`,
      ],
      env,
      { stdoutFile: 'ignore' },
    );
    const [a, b] = [requests(one.stderr), requests(three.stderr)];
    row(
      `--report ×3 beside -o ndjson: ${b} GET /findings vs ${a} for the export alone`,
      mark(a > 0 && a === b),
    );
    row('--report ×3 peak', mib(three.rssKiB), `${(three.wall / 1000).toFixed(2)} s`);
  });
}

// ---- 7. the MCP server ---------------------------------------------------------------------------------
/**
 * summarize_findings by rule over LARGE findings through `cssctl mcp` (initialize, the call, stdin closed once it
 * is answered) against `findings summary --by rule` reading the same findings: peak RSS, median of 3 each
 * (target ≤ 1.15×: the server's SDK and the call's result hold next to nothing beside the read itself).
 */
async function reportMcp() {
  console.log(
    `\n7. The MCP server: summarize_findings (by rule) over ${LARGE.toLocaleString('en-US')} findings through` +
      ' `cssctl mcp` against `findings summary --by rule`, peak RSS (target ≤ 1.15×):',
  );
  await withSandbox(
    { SANDBOX_FINDINGS: String(LARGE), SANDBOX_RATE_LIMIT: '100000000' },
    async (url, token) => {
      const env = { CSSCTL_TOKEN: token, CSSCTL_BASE_URL: url, CSSCTL_WORKSPACE: 'acme' };
      const cli = [];
      const server = [];
      for (let i = 0; i < (QUICK ? 1 : 3); i++) {
        cli.push(
          runNode([bin, 'findings', 'summary', '--by', 'rule', '--json', '-q'], env, {
            stdoutFile: 'ignore',
          }),
        );
        const r = await runMcp(env, mcpInput([['summarize_findings', { by: 'rule' }]]), 2);
        const total = JSON.parse(r.stdout.split('\n').find((l) => l.includes('"id":2')))?.result
          ?.structuredContent?.total;
        if (total !== LARGE)
          throw new Error(`summarize_findings counted ${total}, not ${LARGE}: ${r.stdout.slice(0, 300)}`);
        server.push({ rssKiB: r.rssKiB, wall: r.last });
      }
      const a = median(cli.map((r) => r.rssKiB));
      const b = median(server.map((r) => r.rssKiB));
      row(
        'findings summary --by rule'.padEnd(38),
        mib(a),
        `${(median(cli.map((r) => r.wall)) / 1000).toFixed(2)} s`,
      );
      row(
        'cssctl mcp: summarize_findings by rule'.padEnd(38),
        mib(b),
        `${(median(server.map((r) => r.wall)) / 1000).toFixed(2)} s (to the answer)`,
      );
      row(`server peak / command peak: ${(b / a).toFixed(2)}× (target ≤ 1.15×)`, mark(b / a <= 1.15));
    },
  );
}

try {
  const started = Date.now();
  console.log(`cssctl benchmark — ${machine()}`);
  console.log(
    `All ratios are within this run. /usr/bin/time: ${TIME ? 'peak RSS from %M' : 'absent (process.resourceUsage)'}.`,
  );

  const only = process.argv.includes('--reports-only')
    ? 'reports'
    : process.argv.includes('--only')
      ? process.argv[process.argv.indexOf('--only') + 1]
      : undefined;
  // --only nodes,exe: several sections in one run.
  const wants = (section) => !only || only.split(',').includes(section);
  if (wants('startup')) await reportStartup();
  if (wants('nodes')) await reportNodes();
  if (wants('exe')) await reportExe();
  if (wants('exports')) await reportExports();
  if (wants('ratelimit')) await reportRateLimits();
  if (wants('reports')) await reportReports();
  if (wants('ocsf')) await reportOcsf();
  if (wants('jq')) await reportJq();
  // Only html's flat memory, beside ndjson (`npm run bench -- --only html`).
  if (only?.split(',').includes('html')) await reportReports(['ndjson', 'html']);
  if (wants('baselines')) await reportBaselines();
  if (wants('mcp')) await reportMcp();
  console.log(`\nBenchmark took ${((Date.now() - started) / 1000).toFixed(0)} s.`);
} finally {
  rmSync(work, { recursive: true, force: true });
}
