// Writes dist/cli-<v8>-<arch>.cache: V8's code cache for dist/cli.cjs, taken after the CLI has run its common
// commands in this process against a sandbox on 127.0.0.1, so it holds the functions those commands compile
// (commander, the HTTP stack with undici, the config and credential readers, the formatters), not only the
// bundle's top level. bin/cssctl.js hands it to node:vm; a request command starts ~40 ms sooner
// (`npm run bench`). Run by scripts/build.mjs; the cache is taken in a fresh node with default V8 flags (a
// cache is refused under other flags) and checked in another one.
import { spawn, spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { PassThrough, Readable, Writable } from 'node:stream';
import { fileURLToPath } from 'node:url';

const root = fileURLToPath(new URL('..', import.meta.url));
const self = fileURLToPath(import.meta.url);

/**
 * What the cache is trained on: the commands operators and CI run most, in their usual formats, signed in
 * both ways (a stored login and CSSCTL_TOKEN), with a not-found error. None asks for a second page: an export's
 * second page switches V8's flags (src/core/heap.ts), and a cache taken then would be refused at start-up.
 */
function trainingRuns({ url, token, scanId }) {
  const viaToken = { CSSCTL_TOKEN: token, CSSCTL_BASE_URL: url, CSSCTL_WORKSPACE: 'acme' };
  return [
    [['auth', 'status']],
    [['auth', 'token']],
    [['config', 'list']],
    [['connections', 'list']],
    [['connections', 'list', '--json']],
    [['connections', 'list', '--json'], viaToken],
    [['connections', 'list', '-o', 'csv']],
    [['findings', 'list']],
    [['findings', 'list', '--severity', 'critical,high', '--json']],
    [['findings', 'list', '--all', '-o', 'ndjson'], viaToken],
    [['findings', 'list', '--all', '-o', 'sarif']],
    [['scans', 'list']],
    [['scans', 'get', scanId, '--json']],
    [['scans', 'get', 'scan_does_not_exist']],
    [['api', '/connections'], viaToken],
    [['api', '--paginate', '/findings?severity=high']],
  ];
}

class Discard extends Writable {
  _write(_chunk, _enc, cb) {
    cb();
  }
}

async function startSandbox() {
  const child = spawn(process.execPath, [join(root, 'dist/sandbox.js')], {
    env: { PATH: process.env.PATH, PORT: '0', SANDBOX_FINDINGS: '40', SANDBOX_SCAN_STEP_MS: '1' },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let errors = '';
  child.stderr.on('data', (d) => (errors += d));
  const url = await new Promise((resolve, reject) => {
    let out = '';
    child.stdout.on('data', (d) => {
      out += d;
      const m = /listening on (http:\/\/127\.0\.0\.1:\d+)/.exec(out);
      if (m) resolve(m[1]);
    });
    child.on('exit', (code) => reject(new Error(`the sandbox exited (${code}): ${errors}`)));
  });
  return { url, child };
}

/** In a fresh node: runs the training commands in-process and writes the cache. */
async function train(file) {
  const { loadCli } = await import('../bin/cssctl.js');
  const { cli, script } = loadCli({ cache: false });
  if (!script) throw new Error('bin/cssctl.js did not compile the CLI as a script');
  const home = mkdtempSync(join(tmpdir(), 'cssctl-code-cache-'));
  const { url, child } = await startSandbox();
  try {
    const env = {
      PATH: process.env.PATH,
      HOME: home,
      LANG: 'C.UTF-8',
      CSSCTL_CONFIG_DIR: join(home, 'config'),
      CSSCTL_CREDENTIAL_STORE: 'file',
    };
    const run = async (argv, extra = {}, input = '') => {
      const stdout = new Discard();
      let text = '';
      stdout._write = (chunk, _enc, cb) => ((text += chunk), cb());
      const code = await cli.main({
        argv,
        env: { ...env, ...extra },
        streams: { stdin: Readable.from([input]), stdout, stderr: new PassThrough().resume() },
      });
      return { code, text };
    };
    const login = await run(
      ['login', '--base-url', url, '-w', 'acme', '--email', 'owner@acme.test', '--password-stdin'],
      {},
      'demo-owner-acme\n',
    );
    if (login.code !== 0) throw new Error(`login exited ${login.code}`);
    const token = (await run(['auth', 'token'])).text.trim();
    const scan = await run(['scans', 'create', '--connection', 'prod', '--json']);
    const scanId = JSON.parse(scan.text).scan_id;
    for (const [argv, extra] of trainingRuns({ url, token, scanId })) {
      const { code } = await run(argv, extra);
      // Every run but the not-found one succeeds; anything else means the cache misses a path it should hold.
      if (code !== (argv.includes('scan_does_not_exist') ? 5 : 0))
        throw new Error(`cssctl ${argv.join(' ')} exited ${code}`);
    }
  } finally {
    child.kill();
    rmSync(home, { recursive: true, force: true });
  }
  writeFileSync(file, script.createCachedData());
}

/** Called by scripts/build.mjs once dist/cli.cjs and dist/sandbox.js are built. */
export async function writeCodeCache() {
  const { codeCacheName } = await import('../bin/cssctl.js');
  const file = join(root, 'dist', codeCacheName());
  const made = spawnSync(process.execPath, [self, '--train', file], { stdio: 'inherit', timeout: 120_000 });
  if (made.status !== 0) {
    rmSync(file, { force: true });
    throw new Error('build: could not take the code cache (see above)');
  }
  const check = spawnSync(
    process.execPath,
    [
      '--input-type=module',
      '-e',
      `const m = await import(${JSON.stringify(join(root, 'bin/cssctl.js'))});
       process.stdout.write(m.loadCli().from)`,
    ],
    { encoding: 'utf8' },
  );
  if (check.stdout !== 'code cache') {
    rmSync(file, { force: true });
    throw new Error(`build: V8 refused the code cache it was given (${check.stdout}${check.stderr})`);
  }
}

if (process.argv[2] === '--train') await train(process.argv[3]);
