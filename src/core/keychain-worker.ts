// The keychain, out of process. keytar's calls block a libuv thread inside libsecret until D-Bus answers; a
// keychain that accepts the connection and never answers would hold that thread for ever, and Node waits for
// it at exit — deaf to Ctrl-C. So cssctl asks keytar here, in a child it can kill (see keychain.ts).
//
// Protocol: one JSON request per line on stdin, one JSON answer per line on stdout.
//   {"id":1,"op":"get"|"set"|"delete","account":"…","password":"…"}
//   {"id":1,"ok":true,"value":…} | {"id":1,"ok":false,"error":"…","locked":true?}
// The secret travels over the pipe only, never in argv or the environment.
// Only node: imports here: this file also runs unbundled (Node strips its types) in unit tests.
import { execFile } from 'node:child_process';
import { createRequire } from 'node:module';
import { createInterface } from 'node:readline';

export interface Keytar {
  getPassword(service: string, account: string): Promise<string | null>;
  setPassword(service: string, account: string, password: string): Promise<void>;
  deletePassword(service: string, account: string): Promise<boolean>;
}

interface Request {
  id: number;
  op: 'get' | 'set' | 'delete';
  service: string;
  account: string;
  password?: string;
}

/**
 * Whether the Secret Service holds an item for this account in a locked collection. libsecret answers
 * "nothing there" for a locked item (get → null, delete → false); the Secret Service's SearchItems tells
 * locked items apart. Unknown (no gdbus, no answer) counts as not locked.
 */
function lockedItem(service: string, account: string): Promise<boolean> {
  if (process.platform !== 'linux') return Promise.resolve(false);
  const attrs = JSON.stringify({ service, account });
  return new Promise((resolve) => {
    execFile(
      'gdbus',
      [
        'call',
        '--session',
        '--timeout',
        '2',
        '--dest',
        'org.freedesktop.secrets',
        '--object-path',
        '/org/freedesktop/secrets',
        '--method',
        'org.freedesktop.Secret.Service.SearchItems',
        attrs,
      ],
      { timeout: 2500 },
      (err, stdout) => {
        if (err) return resolve(false);
        // "(unlocked paths, locked paths)": anything in the second list is a locked item.
        const text = String(stdout);
        resolve(/objectpath/.test(text.slice(text.indexOf(']') + 1)));
      },
    );
  });
}

async function handle(keytar: Keytar, r: Request): Promise<unknown> {
  switch (r.op) {
    case 'get': {
      const v = await keytar.getPassword(r.service, r.account);
      if (v === null && (await lockedItem(r.service, r.account))) return { locked: true };
      return { value: v };
    }
    case 'set':
      await keytar.setPassword(r.service, r.account, r.password ?? '');
      return { value: null };
    case 'delete': {
      const v = await keytar.deletePassword(r.service, r.account);
      if (!v && (await lockedItem(r.service, r.account))) return { locked: true };
      return { value: v };
    }
  }
}

function reply(obj: object): void {
  process.stdout.write(`${JSON.stringify(obj)}\n`);
}

/** keytar from node_modules (the npm package); the single executable loads its own (scripts/sea-main.mjs). */
function keytarFromNodeModules(): Keytar {
  const mod = createRequire(import.meta.url)('keytar') as { default?: Keytar } & Keytar;
  return mod.default ?? mod;
}

/** Answers requests on stdin until it closes. */
export function serve(loadKeytar: () => Keytar = keytarFromNodeModules): void {
  let keytar: Keytar | undefined;
  let loadError: string | undefined;
  try {
    keytar = loadKeytar();
  } catch (err) {
    loadError = `keytar could not be loaded: ${(err as Error).message.split('\n')[0]}`;
  }

  createInterface({ input: process.stdin }).on('line', (line) => {
    let r: Request;
    try {
      r = JSON.parse(line) as Request;
    } catch {
      return;
    }
    if (!keytar) return reply({ id: r.id, ok: false, error: loadError });
    handle(keytar, r).then(
      (res) => {
        const locked = (res as { locked?: boolean }).locked;
        reply(
          locked
            ? { id: r.id, ok: false, locked, error: 'locked' }
            : { id: r.id, ok: true, ...(res as object) },
        );
      },
      (err: unknown) => reply({ id: r.id, ok: false, error: (err as Error)?.message ?? String(err) }),
    );
  });
  // The parent went away: nothing more will be asked. SIGKILL, not exit(): a keytar call stuck in libsecret
  // would make a normal exit wait for it.
  process.stdin.on('end', () => process.kill(process.pid, 'SIGKILL'));
}

if (import.meta.main) serve();
