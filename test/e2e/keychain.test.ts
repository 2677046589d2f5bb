// A keychain that hangs or is locked (issue 9 #2, #5; cli-contract.md §6).
import { spawn } from 'node:child_process';
import { mkdirSync, readFileSync, rmSync } from 'node:fs';
import { createServer, type Server, type Socket } from 'node:net';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CLI_SHELL, cliSpawn, World, errorLine, hasCommand, keytarMissing } from './harness.js';

let w: World;
let hung: Server;
const sockets: Socket[] = [];
let hungBus: string;

beforeAll(async () => {
  w = await World.start();
  // A D-Bus socket that accepts every connection and never answers.
  const path = join(w.dir, 'hung-bus');
  hung = createServer((s) => {
    sockets.push(s);
    s.on('data', () => undefined);
    s.on('error', () => undefined);
  });
  await new Promise<void>((r) => hung.listen(path, r));
  hungBus = `unix:path=${path}`;
});
afterAll(async () => {
  for (const s of sockets) s.destroy();
  hung?.close();
  await w?.close();
});

describe('a hung keychain (D-Bus accepts, never answers)', () => {
  const bound = 9000; // 3 s keychain bound, plus start-up, on a busy machine

  it.for([
    [['auth', 'status'], 'auto', 3],
    [['auth', 'token'], 'auto', 3],
    [['connections', 'list'], 'auto', 3],
    [['logout'], 'auto', 1],
    [['auth', 'status'], 'file', 3],
    [['logout'], 'file', 0],
  ] as const)(
    '%j (store %s) ends within the bound with a clear message',
    async ([args, store, code], ctx) => {
      // With the file store keytar is never asked; with auto, a keytar that does not load never reaches D-Bus.
      ctx.skip(store === 'auto' && Boolean(keytarMissing()), keytarMissing());
      const env = {
        DBUS_SESSION_BUS_ADDRESS: hungBus,
        CSSCTL_CREDENTIAL_STORE: store,
        CSSCTL_BASE_URL: w.url,
        CSSCTL_WORKSPACE: 'acme',
        CSSCTL_PROFILE: `hung-${store}`,
      };
      // The profile exists (a name config.json does not hold is exit 2 before any store is asked).
      w.addProfile(`hung-${store}`, { workspace: 'acme' });
      const res = await w.run([...args], { env, timeoutMs: bound });
      expect(res.code, res.stderr).toBe(code);
      if (store === 'auto') expect(res.stderr).toMatch(/keychain did not answer within 3 s/);
      else expect(res.stderr).not.toMatch(/keychain/);
      if (code === 1) expect(errorLine(res)).toMatch(/could not remove .* OS keychain/);
    },
  );

  it('login falls back to the file and says why; a second login and logout stay bounded', async (ctx) => {
    ctx.skip(Boolean(keytarMissing()), keytarMissing());
    const env = { DBUS_SESSION_BUS_ADDRESS: hungBus, CSSCTL_PROFILE: 'hung-login' };
    const res = await w.login('acme', 'owner', [], { env, timeoutMs: bound });
    expect(res.stderr).toMatch(/keychain did not answer/);
    expect(res.stdout).toMatch(/token stored in .*credentials\.json/);
    const st = await w.run(['auth', 'status', '--json'], { env, timeoutMs: bound });
    expect(st.code, st.stderr).toBe(0);
    expect(JSON.parse(st.stdout)).toMatchObject({ token_source: 'file' });
  });

  it('Ctrl-C while the keychain hangs ends the command at once (exit 130)', async (ctx) => {
    ctx.skip(Boolean(keytarMissing()), keytarMissing());
    const env: Record<string, string> = {
      PATH: process.env.PATH ?? '',
      HOME: w.home,
      CSSCTL_CONFIG_DIR: w.configDir,
      DBUS_SESSION_BUS_ADDRESS: hungBus,
    };
    const child = spawn(...cliSpawn(['auth', 'status']), {
      env,
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let stderr = '';
    child.stderr.setEncoding('utf8').on('data', (d: string) => (stderr += d));
    await new Promise((r) => setTimeout(r, 700));
    const sent = Date.now();
    child.kill('SIGINT');
    const code = await new Promise<number | null>((resolve) => {
      const t = setTimeout(() => {
        child.kill('SIGKILL');
        resolve(-1);
      }, 5000);
      child.on('close', (c) => {
        clearTimeout(t);
        resolve(c);
      });
    });
    expect(code, stderr).toBe(130);
    expect(Date.now() - sent).toBeLessThan(2000);
  });
});

// The test keyring is shared by every test file, so locking it happens in a private D-Bus session with its
// own gnome-keyring, run as one shell script.
const canLock = hasCommand('dbus-run-session') && hasCommand('gnome-keyring-daemon') && hasCommand('gdbus');
describe.runIf(canLock)('a locked keychain', () => {
  it('auth status says locked; logout does not claim "not logged in", exits 1 and says what is left', async (ctx) => {
    ctx.skip(Boolean(keytarMissing()), keytarMissing());
    const data = join(w.dir, 'locked-keyring');
    const c = w.cred('acme');
    const script = `
      eval "$(printf %s pw | gnome-keyring-daemon --unlock --components=secrets 2>/dev/null)"
      export GNOME_KEYRING_CONTROL
      cli() { ${CLI_SHELL} "$@"; echo "rc=$?"; }
      printf '%s\\n' "$PASSWORD" | cli login --base-url "${w.url}" -w acme --email "${c.email}" --password-stdin
      gdbus call --session --dest org.freedesktop.secrets --object-path /org/freedesktop/secrets \\
        --method org.freedesktop.Secret.Service.Lock "['/org/freedesktop/secrets/collection/login']" >/dev/null
      echo '--- status'; cli auth status 2>&1
      echo '--- logout'; cli logout 2>&1
    `;
    // Output goes to a file and the wait is for the exit, not for the pipes: daemons started in the private
    // session may hold inherited descriptors open after it ends.
    const outFile = join(w.dir, 'locked.out');
    const home = join(w.dir, 'locked-home'); // gnome-keyring needs a HOME that exists
    mkdirSync(home, { recursive: true });
    const code = await new Promise<number | null>((resolve) => {
      const child = spawn('dbus-run-session', ['--', 'bash', '-c', `exec >"$OUT" 2>&1\n${script}`], {
        env: {
          PATH: process.env.PATH,
          HOME: home,
          XDG_DATA_HOME: data,
          CSSCTL_CONFIG_DIR: join(w.dir, 'locked-config'),
          PASSWORD: c.password,
          OUT: outFile,
        },
        stdio: 'ignore',
      });
      const t = setTimeout(() => child.kill('SIGKILL'), 25_000);
      child.on('exit', (c) => {
        clearTimeout(t);
        resolve(c);
      });
    });
    const out = readFileSync(outFile, 'utf8');
    expect(code, out).toBe(0);
    rmSync(data, { recursive: true, force: true });
    expect(out).toMatch(/token stored in the OS keychain/);
    const status = out.slice(out.indexOf('--- status'), out.indexOf('--- logout'));
    const logout = out.slice(out.indexOf('--- logout'));
    expect(status).toMatch(/error: .*keychain is locked/);
    expect(status).toMatch(/rc=1/);
    expect(status).not.toMatch(/not logged in/);
    expect(logout).toMatch(/error: could not remove .* OS keychain: the OS keychain is locked/);
    expect(logout).toMatch(/unlock/);
    expect(logout).toMatch(/rc=1/);
    expect(logout).not.toMatch(/Not logged in/);
  });
});
