// Writes dist/cli-<build>-<v8>-<arch>.cache: V8's code cache for dist/cli.cjs, taken after the CLI has run a
// few commands in this process against a sandbox on 127.0.0.1, so it holds the functions they compiled
// (commander, the HTTP stack with undici, the config and credential readers, a formatter), not only the
// bundle's top level. bin/cssctl.js hands it to node:vm; a request command starts ~40 ms sooner
// (`npm run bench`: `connections list --json` 1.8× `node -e 0` with it, 2.3× without). Run by scripts/build.mjs; the cache is taken in a fresh node with default V8 flags (a
// cache is refused under other flags) and checked in another one.
import { spawn, spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { PassThrough, Readable, Writable } from 'node:stream';
import { fileURLToPath } from 'node:url';

const root = fileURLToPath(new URL('..', import.meta.url));
const self = fileURLToPath(import.meta.url);

/**
 * What the cache is trained on: the path every request command takes (commander, the context, the profile
 * and the credential file, the session, the HTTP layers and undici, an output format), signed in both ways (a
 * stored login and CSSCTL_TOKEN), in a table and in JSON. A verb's own code is compiled when it first runs:
 * training more commands made a larger cache that every command pays to read, and measured no faster for
 * the commands it added (`findings list`, `scans list`, `config list`). None asks for a second page: an
 * export's second page switches V8's flags (src/core/heap.ts), and a cache taken then would be refused.
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
  const child = spawn(process.execPath, [join(root, 'dist/sandbox.js')], {
    env: { PATH: process.env.PATH, PORT: '0' },
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
    child.kill();
    rmSync(home, { recursive: true, force: true });
  }
  writeFileSync(file, script.createCachedData());
}

/** Called by scripts/build.mjs once dist/cli.cjs and dist/sandbox.js are built. */
export async function writeCodeCache() {
  const { codeCacheName } = await import('../bin/cssctl.js');
  const file = join(root, 'dist', codeCacheName(readFileSync(join(root, 'dist/cli.cjs'), 'utf8')));
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
