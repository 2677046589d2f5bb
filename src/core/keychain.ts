import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { CliError, InterruptedError } from './errors.js';
import { SEA_KEYCHAIN_HELPER } from './sea.js';

/** The keychain holds the item in a locked collection (cli-contract.md §6: say so, never "not logged in"). */
export class KeychainLockedError extends CliError {
  constructor(message = 'the OS keychain is locked') {
    super(message, {
      hint: 'unlock your keyring (log in to the desktop session, or open Passwords and Keys), then try again',
    });
  }
}

/** No answer within the bound, or the helper process died. */
export class KeychainTimeoutError extends CliError {}

/** How the keychain helper is started: the arguments and the environment given to process.execPath. */
export interface WorkerCommand {
  args: string[];
  env?: Record<string, string>;
}

/**
 * The helper: in the single executable, the executable itself (never a `node` from PATH, which may not exist);
 * otherwise keychain-worker.js beside the bundle (or keychain-worker.ts beside this file in the sources), run
 * by this node.
 */
export function keychainWorker(): WorkerCommand | undefined {
  if (process.getBuiltinModule('node:sea')?.isSea()) return { args: [], env: { [SEA_KEYCHAIN_HELPER]: '1' } };
  for (const rel of ['./keychain-worker.js', './keychain-worker.ts']) {
    try {
      const p = fileURLToPath(new URL(rel, import.meta.url));
      if (existsSync(p)) return { args: [p] };
    } catch {
      // not a file: URL (never the case for cssctl)
    }
  }
  return undefined;
}

interface Pending {
  resolve: (v: unknown) => void;
  reject: (e: Error) => void;
  timer: NodeJS.Timeout;
}

/**
 * keytar's three calls, answered by keychain-worker.js in a child process. Every call is bounded by
 * `timeoutMs`; on timeout (or Ctrl-C) the child is killed, so a keychain that never answers can neither hang
 * the command nor keep it from exiting. While no call is pending, the child keeps nothing alive.
 */
export class ChildKeytar {
  private child?: ChildProcess;
  private readonly pending = new Map<number, Pending>();
  private seq = 0;
  private buffer = '';
  private failed?: string;

  constructor(
    private readonly worker: WorkerCommand,
    private readonly env: NodeJS.ProcessEnv,
    private readonly timeoutMs = 3000,
    private readonly signal?: AbortSignal,
  ) {
    signal?.addEventListener('abort', () => this.kill(new InterruptedError()), { once: true });
  }

  getPassword(service: string, account: string): Promise<string | null> {
    return this.call({ op: 'get', service, account }) as Promise<string | null>;
  }
  async setPassword(service: string, account: string, password: string): Promise<void> {
    await this.call({ op: 'set', service, account, password });
  }
  deletePassword(service: string, account: string): Promise<boolean> {
    return this.call({ op: 'delete', service, account }) as Promise<boolean>;
  }

  close(): void {
    this.kill(new KeychainTimeoutError('the keychain helper was closed'));
  }

  private start(): ChildProcess {
    const child = spawn(process.execPath, this.worker.args, {
      env: { ...this.env, ...this.worker.env },
      stdio: ['pipe', 'pipe', 'ignore'],
      windowsHide: true,
    });
    child.unref();
    (child.stdout as unknown as { unref?: () => void }).unref?.();
    (child.stdin as unknown as { unref?: () => void }).unref?.();
    child.stdout!.setEncoding('utf8').on('data', (d: string) => this.onData(d));
    child.stdin!.on('error', () => undefined);
    child.on('error', (err) =>
      this.kill(new KeychainTimeoutError(`the keychain helper failed: ${err.message}`)),
    );
    child.on('exit', () => this.kill(new KeychainTimeoutError('the keychain helper stopped')));
    const onExit = () => child.kill('SIGKILL');
    process.once('exit', onExit);
    child.once('exit', () => process.removeListener('exit', onExit));
    return child;
  }

  private call(req: Record<string, string>): Promise<unknown> {
    if (this.signal?.aborted) return Promise.reject(new InterruptedError());
    if (this.failed) return Promise.reject(new KeychainTimeoutError(this.failed));
    this.child ??= this.start();
    const id = ++this.seq;
    return new Promise((resolve, reject) => {
      // This timer is what keeps the process alive while waiting; the child and its pipes do not.
      const timer = setTimeout(
        () =>
          this.kill(
            new KeychainTimeoutError(
              `the OS keychain did not answer within ${Math.round(this.timeoutMs / 1000)} s`,
            ),
          ),
        this.timeoutMs,
      );
      this.pending.set(id, { resolve, reject, timer });
      this.child!.stdin!.write(`${JSON.stringify({ id, ...req })}\n`);
    });
  }

  private onData(d: string): void {
    this.buffer += d;
    for (let nl = this.buffer.indexOf('\n'); nl >= 0; nl = this.buffer.indexOf('\n')) {
      const line = this.buffer.slice(0, nl);
      this.buffer = this.buffer.slice(nl + 1);
      let msg: { id: number; ok: boolean; value?: unknown; error?: string; locked?: boolean };
      try {
        msg = JSON.parse(line) as typeof msg;
      } catch {
        continue;
      }
      const p = this.pending.get(msg.id);
      if (!p) continue;
      this.pending.delete(msg.id);
      clearTimeout(p.timer);
      if (msg.ok) p.resolve(msg.value);
      else if (msg.locked) p.reject(new KeychainLockedError());
      else p.reject(new Error(msg.error ?? 'keychain error'));
    }
  }

  private kill(err: Error): void {
    this.failed ??= err.message;
    for (const [id, p] of this.pending) {
      clearTimeout(p.timer);
      this.pending.delete(id);
      p.reject(err);
    }
    if (this.child && this.child.exitCode === null && this.child.signalCode === null)
      this.child.kill('SIGKILL');
  }
}
