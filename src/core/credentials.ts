import { existsSync, lstatSync, unlinkSync } from 'node:fs';
import { join } from 'node:path';
import { CliError, InterruptedError, UsageError } from './errors.js';
import { ensureDir, readableByOthers, writeFileAtomic } from './files.js';
import { withFileLock } from './lock.js';
import { readStateFileSync } from './read-file.js';
import { ChildKeytar, KeychainTimeoutError, keychainWorker } from './keychain.js';

/** What a login leaves behind for a profile. Lives only in the keychain or the 0600 file. */
export interface Tokens {
  access_token: string;
  refresh_token?: string;
  token_type?: string;
  /** Epoch milliseconds at which the access token expires. */
  expires_at: number;
  /** The base URL of the service that issued them: they are sent nowhere else (cli-contract.md §5). */
  base_url?: string;
}

export type StoreKind = 'keychain' | 'file';
export type TokenSource = StoreKind | 'env';

export interface CredentialStore {
  readonly kind: StoreKind;
  get(profile: string): Promise<Tokens | undefined>;
  set(profile: string, tokens: Tokens): Promise<void>;
  /** Returns whether something was removed. */
  delete(profile: string): Promise<boolean>;
}

export const KEYCHAIN_SERVICE = 'cssctl';
const KEYCHAIN_TIMEOUT_MS = 3000;

interface Keytar {
  getPassword(service: string, account: string): Promise<string | null>;
  setPassword(service: string, account: string, password: string): Promise<void>;
  deletePassword(service: string, account: string): Promise<boolean>;
}

function parseTokens(text: string | null | undefined): Tokens | undefined {
  if (!text) return undefined;
  try {
    const t = JSON.parse(text) as Partial<Tokens>;
    if (typeof t.access_token !== 'string' || !t.access_token) return undefined;
    return {
      access_token: t.access_token,
      refresh_token: typeof t.refresh_token === 'string' ? t.refresh_token : undefined,
      token_type: typeof t.token_type === 'string' ? t.token_type : undefined,
      ...(typeof t.base_url === 'string' && t.base_url ? { base_url: t.base_url } : {}),
      // A stored expiry past what a Date can hold (written by an older cssctl) must not break `auth status`.
      expires_at:
        typeof t.expires_at === 'number' && Number.isFinite(t.expires_at)
          ? Math.max(0, Math.min(t.expires_at, 8.64e15))
          : 0,
    };
  } catch {
    return undefined;
  }
}

class KeychainUnavailable extends Error {}

function withTimeout<T>(p: Promise<T>, ms: number, what: string): Promise<T> {
  return new Promise((resolve, reject) => {
    const t = setTimeout(() => reject(new KeychainUnavailable(`${what} timed out`)), ms);
    t.unref?.();
    p.then(
      (v) => {
        clearTimeout(t);
        resolve(v);
      },
      (e: unknown) => {
        clearTimeout(t);
        reject(new KeychainUnavailable(e instanceof Error ? e.message : String(e), { cause: e }));
      },
    );
  });
}

/** The OS keychain through keytar: service `cssctl`, account = profile name, secret = the tokens as JSON. */
export class KeychainStore implements CredentialStore {
  readonly kind = 'keychain' as const;
  constructor(private readonly keytar: Keytar) {}

  /**
   * Starts the keychain helper (keytar in a child process, see keychain.ts) and checks that a keychain
   * answers; undefined when none can be reached. `warn` hears why when a keychain exists but did not answer.
   */
  static async connect(
    env: NodeJS.ProcessEnv,
    opts: { timeoutMs?: number; signal?: AbortSignal; warn?: (message: string) => void } = {},
  ): Promise<KeychainStore | undefined> {
    // On Linux the Secret Service lives on the session bus: without one there is no keychain to ask.
    if (process.platform === 'linux' && !env.DBUS_SESSION_BUS_ADDRESS) return undefined;
    const worker = keychainWorker();
    if (!worker) return undefined;
    const keytar = new ChildKeytar(worker, env, opts.timeoutMs ?? KEYCHAIN_TIMEOUT_MS, opts.signal);
    try {
      await keytar.getPassword(KEYCHAIN_SERVICE, '__cssctl_probe__');
      return new KeychainStore(keytar);
    } catch (err) {
      keytar.close();
      if (err instanceof InterruptedError) throw err;
      if (err instanceof KeychainTimeoutError) opts.warn?.(err.message);
      return undefined;
    }
  }

  async get(profile: string): Promise<Tokens | undefined> {
    return parseTokens(await this.call(this.keytar.getPassword(KEYCHAIN_SERVICE, profile), 'read'));
  }
  async set(profile: string, tokens: Tokens): Promise<void> {
    await this.call(this.keytar.setPassword(KEYCHAIN_SERVICE, profile, JSON.stringify(tokens)), 'write');
  }
  async delete(profile: string): Promise<boolean> {
    return this.call(this.keytar.deletePassword(KEYCHAIN_SERVICE, profile), 'delete');
  }
  private async call<T>(p: Promise<T>, what: string): Promise<T> {
    try {
      return await withTimeout(p, KEYCHAIN_TIMEOUT_MS, `keychain ${what}`);
    } catch (err) {
      const cause = (err as { cause?: unknown }).cause;
      if (cause instanceof CliError) throw cause; // locked, interrupted, timed out: already one clear line
      throw new CliError(`keychain ${what} failed: ${(err as Error).message}`);
    }
  }
}

interface CredentialFile {
  version: 1;
  profiles: Record<string, Tokens>;
}

/**
 * How the file store is protected, in words for the login warning and `auth status`: a file mode on Linux and
 * macOS; on Windows cssctl sets none (Windows has no POSIX modes; Node's mode argument only sets read-only
 * there), so only the permissions of the user's profile folder, where %APPDATA% is, keep other users out.
 */
export function fileStoreProtection(platform: NodeJS.Platform = process.platform): string {
  return platform === 'win32'
    ? 'no file mode on Windows: only the permissions of your user profile folder protect it'
    : 'mode 0600';
}

/** `credentials.json` in the config folder: mode 0600 in a 0700 folder (not on Windows), written atomically. */
export class FileStore implements CredentialStore {
  readonly kind = 'file' as const;
  readonly path: string;
  private warned = false;
  constructor(
    readonly dir: string,
    private readonly warn?: (message: string) => void,
  ) {
    this.path = join(dir, 'credentials.json');
  }

  /** Reads the file; never changes it (a read-only command writes nothing, and a link is not followed). */
  private read(): CredentialFile {
    if (!existsSync(this.path)) return { version: 1, profiles: {} };
    let parsed: unknown;
    try {
      parsed = JSON.parse(readStateFileSync(this.path));
    } catch {
      throw this.corrupt();
    }
    const profiles = (parsed as Partial<CredentialFile>)?.profiles;
    if (!profiles || typeof profiles !== 'object' || Array.isArray(profiles)) throw this.corrupt();
    return { version: 1, profiles };
  }

  private corrupt(): CliError {
    return new CliError(`cannot read ${this.path}: not a valid credential file`, {
      hint: 'run cssctl logout to remove it (every profile stored in it is logged out), then log in again',
    });
  }

  private write(data: CredentialFile): void {
    const created = ensureDir(this.dir);
    if (!created && !this.warned && readableByOthers(this.dir)) {
      this.warned = true;
      this.warn?.(
        `${this.dir} can be read by other users; cssctl leaves its mode alone (credentials.json is 0600) — consider chmod 700 ${this.dir}`,
      );
    }
    writeFileAtomic(this.path, `${JSON.stringify(data, null, 2)}\n`, 0o600);
  }

  async get(profile: string): Promise<Tokens | undefined> {
    const t = this.read().profiles[profile];
    return t ? parseTokens(JSON.stringify(t)) : undefined;
  }

  async set(profile: string, tokens: Tokens): Promise<void> {
    await withFileLock(this.dir, 'credentials', async () => {
      const data = this.read();
      data.profiles[profile] = tokens;
      this.write(data);
    });
  }

  async delete(profile: string): Promise<boolean> {
    if (!existsSync(this.path)) return false;
    return withFileLock(this.dir, 'credentials', async () => {
      let data: CredentialFile;
      try {
        data = this.read();
      } catch (err) {
        // A corrupt file cannot be repaired: logout removes it (the advice its error gives).
        if (lstatSync(this.path).isSymbolicLink()) throw err;
        unlinkSync(this.path);
        return true;
      }
      if (!(profile in data.profiles)) return false;
      delete data.profiles[profile];
      this.write(data);
      return true;
    });
  }
}

export type StoreMode = 'auto' | 'keychain' | 'file';

export function parseStoreMode(value: string | undefined): StoreMode {
  const v = (value ?? 'auto').trim().toLowerCase() || 'auto';
  if (v === 'auto' || v === 'keychain' || v === 'file') return v;
  throw new UsageError(`invalid CSSCTL_CREDENTIAL_STORE "${value}": use auto, keychain or file`);
}

export interface LoadedTokens {
  tokens: Tokens;
  source: TokenSource;
}

/** Tokens as a store holds them: always from the keychain or the file, never the environment. */
export interface StoredTokens extends LoadedTokens {
  source: StoreKind;
}

/** Chooses among keychain and file per CSSCTL_CREDENTIAL_STORE, and remembers where each profile's tokens live. */
export class Credentials {
  private keychainPromise?: Promise<KeychainStore | undefined>;
  readonly file: FileStore;

  constructor(
    readonly mode: StoreMode,
    private readonly configDir: string,
    private readonly env: NodeJS.ProcessEnv,
    connectKeychain?: (env: NodeJS.ProcessEnv) => Promise<KeychainStore | undefined>,
    opts: { warn?: (message: string) => void; signal?: AbortSignal } = {},
  ) {
    this.file = new FileStore(configDir, opts.warn);
    this.warn = opts.warn;
    this.connectKeychain =
      connectKeychain ??
      ((e) => KeychainStore.connect(e, { warn: (m) => (this.unreachable = m), signal: opts.signal }));
  }

  private readonly warn?: (message: string) => void;
  /** Why a keychain that exists could not be used (it did not answer), once known. */
  private unreachable?: string;

  /** Why a keychain that exists did not answer (known once keychain() has settled), for `cssctl doctor`. */
  get unreachableReason(): string | undefined {
    return this.unreachable;
  }

  private readonly connectKeychain: (env: NodeJS.ProcessEnv) => Promise<KeychainStore | undefined>;

  /** The keychain, connected once; never asked at all with CSSCTL_CREDENTIAL_STORE=file. */
  keychain(quiet = false): Promise<KeychainStore | undefined> {
    if (this.mode === 'file') return Promise.resolve(undefined);
    this.keychainPromise ??= this.connectKeychain(this.env).then((k) => {
      if (!k && this.unreachable && !quiet)
        this.warn?.(`${this.unreachable}; it is not used for this command`);
      return k;
    });
    return this.keychainPromise;
  }

  private async requireKeychain(): Promise<KeychainStore> {
    const k = await this.keychain();
    if (!k) {
      throw new CliError('no OS keychain could be reached (CSSCTL_CREDENTIAL_STORE=keychain)', {
        hint: 'start a keyring/Secret Service, or set CSSCTL_CREDENTIAL_STORE=file',
      });
    }
    return k;
  }

  async load(profile: string): Promise<StoredTokens | undefined> {
    if (this.mode !== 'file') {
      const k = this.mode === 'keychain' ? await this.requireKeychain() : await this.keychain();
      const t = await k?.get(profile);
      if (t) return { tokens: t, source: 'keychain' };
      if (this.mode === 'keychain') return undefined;
    }
    const t = await this.file.get(profile);
    return t ? { tokens: t, source: 'file' } : undefined;
  }

  /**
   * Stores fresh tokens. With `where` (a refresh) they go back where they came from; otherwise (a login)
   * to the keychain when one answers, else to the file — and any copy in the other store is removed.
   * In `auto` mode a keychain that answers but refuses the write (a keyring with no collection and no
   * display to ask on, say) also falls back to the file; `fallback` then says why.
   */
  async save(
    profile: string,
    tokens: Tokens,
    where?: StoreKind,
  ): Promise<{ store: StoreKind; fallback?: string }> {
    if (where === 'file' || (!where && this.mode === 'file')) {
      await this.file.set(profile, tokens);
      if (!where) await (await this.keychain())?.delete(profile).catch(() => false);
      return { store: 'file' };
    }
    if (where === 'keychain' || this.mode === 'keychain') {
      await (await this.requireKeychain()).set(profile, tokens);
      if (!where) await this.file.delete(profile);
      return { store: 'keychain' };
    }
    const keychain = await this.keychain();
    let fallback = 'no OS keychain could be reached';
    if (keychain) {
      try {
        await keychain.set(profile, tokens);
        await this.file.delete(profile);
        return { store: 'keychain' };
      } catch (err) {
        fallback = `the OS keychain refused the write (${(err as Error).message})`;
      }
    }
    await this.file.set(profile, tokens);
    return { store: 'file', fallback };
  }

  /**
   * Removes the profile's tokens from every store that can be reached (the keychain is not asked in `file`
   * mode). A keychain that is locked or does not answer is reported after the file is cleared: the tokens
   * it holds are still there, and saying "not logged in" would be a lie (cli-contract.md §6).
   */
  async remove(profile: string): Promise<StoreKind[]> {
    const removed: StoreKind[] = [];
    let keychainError: unknown;
    try {
      const k = await this.keychain(true);
      if (k && (await k.delete(profile))) removed.push('keychain');
      if (!k && this.unreachable) throw new KeychainTimeoutError(this.unreachable);
    } catch (err) {
      if (err instanceof InterruptedError) throw err;
      keychainError = err;
    }
    if (await this.file.delete(profile)) removed.push('file');
    if (keychainError) {
      const why = keychainError instanceof Error ? keychainError.message : String(keychainError);
      const done = removed.length > 0 ? `; removed the copy in ${removed.join(' and ')}` : '';
      throw new CliError(
        `could not remove the tokens of profile ${profile} from the OS keychain: ${why}${done}`,
        {
          hint: (keychainError as CliError).hint ?? 'try again when the keychain answers',
          cause: keychainError,
        },
      );
    }
    return removed;
  }
}
