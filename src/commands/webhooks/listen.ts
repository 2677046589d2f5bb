import { statSync } from 'node:fs';
import { resolve } from 'node:path';
import type { Context } from '../../core/context.js';
import { list as listOutput, text, type Result } from '../../report/result.js';
import { CliError, UsageError } from '../../core/errors.js';
import { ensureDir } from '../../core/files.js';
import { redactUrl } from '../../core/http/log.js';
import { isLoopbackHost } from '../../core/url.js';
import { SIGNATURE_HEADER } from '../../core/webhook-signature.js';
import { clean, parseDuration, parseEvents, signingSecret, webhookUrl } from './common.js';
import { saveDelivery } from './saved.js';
import { startReceiver, type ForwardResult, type Receiver, type ReceiverOptions } from './receiver.js';
import { deliveryLine } from './summary.js';
import type { OptionsOf } from '../shared/define.js';
import type { listenCommand } from './listen.command.js';

/** What `webhooks listen` takes (listen.command.ts). */
export type ListenOptions = OptionsOf<typeof listenCommand>;

export function parsePort(raw: string): number {
  const t = raw.trim();
  if (!/^\d{1,5}$/.test(t) || Number(t) > 65535) {
    throw new UsageError(`invalid --port "${clean(raw)}": expected a whole number from 0 to 65535`);
  }
  return Number(t);
}

export function parsePath(raw: string): string {
  if (!raw.startsWith('/') || /[\s?#]/.test(raw)) {
    throw new UsageError(`invalid --path "${clean(raw)}": expected a path such as / or /webhooks`);
  }
  return raw;
}

/**
 * Whether --forward-to names this receiver itself (plain http, its port, its path, a host it answers on): each
 * relayed delivery would come back to be relayed again, thousands a second with --forward-duplicates.
 */
export function forwardsToItself(forwardTo: string, host: string, port: number, path: string): boolean {
  const u = new URL(forwardTo);
  if (u.protocol !== 'http:' || port === 0) return false;
  if ((u.port === '' ? 80 : Number(u.port)) !== port) return false;
  const trim = (p: string) => p.replace(/\/+$/, '');
  if (trim(u.pathname) !== trim(path)) return false;
  const target = u.hostname.replace(/^\[(.*)\]$/, '$1').toLowerCase();
  const any = host === '0.0.0.0' || host === '::';
  return target === host.toLowerCase() || (isLoopbackHost(target) && (any || isLoopbackHost(host)));
}

function listenError(err: unknown, host: string, port: number): CliError {
  const code = (err as NodeJS.ErrnoException).code;
  const where = `${host.includes(':') ? `[${host}]` : host}:${port}`;
  switch (code) {
    case 'EADDRINUSE':
      return new CliError(`cannot listen on ${where}: the port is already in use`, {
        hint: 'pick another with --port',
      });
    case 'EACCES':
      return new CliError(`cannot listen on ${where}: permission denied`, {
        hint: 'ports below 1024 need privileges; pick another with --port',
      });
    case 'EADDRNOTAVAIL':
    case 'ENOTFOUND':
    case 'EAI_AGAIN':
      return new CliError(`cannot listen on ${where}: no such address on this machine`, {
        hint: 'use --host 127.0.0.1',
      });
    default:
      return new CliError(`cannot listen on ${where}: ${(err as Error).message}`);
  }
}

/** The --save folder, absolute: an existing folder, or one created now (0700). A file there is exit 2. */
function saveFolder(raw: string): string {
  if (raw.trim() === '') throw new UsageError('--save needs a folder');
  const dir = resolve(raw);
  let isDir: boolean | undefined;
  try {
    isDir = statSync(dir).isDirectory();
  } catch {
    // missing: created below
  }
  if (isDir === false) throw new UsageError(`--save ${clean(raw)} is not a folder`);
  try {
    ensureDir(dir);
  } catch (err) {
    // Exit 1 (the folder could not be made, as a report's file that cannot be written), naming the flag.
    if (err instanceof CliError) throw new CliError(`--save: ${err.message}`, { cause: err });
    throw err;
  }
  return dir;
}

/**
 * A local receiver that verifies every delivery, prints the verified ones and, with --forward-to, relays them
 * untouched. Runs until SIGINT/SIGTERM, then lets the delivery in flight finish.
 */
export async function listen(ctx: Context, opts: ListenOptions): Promise<Result> {
  const io = ctx.io;
  // All input is checked, and the secret found, before anything listens: nothing is half-started.
  const host = opts.host.trim().replace(/^\[(.*)\]$/, '$1');
  if (!host) throw new UsageError('--host must not be empty');
  const port = parsePort(opts.port);
  const path = parsePath(opts.path);
  const forwardTo = opts.forwardTo === undefined ? undefined : webhookUrl(opts.forwardTo, '--forward-to');
  const events = opts.events === undefined ? undefined : new Set<string>(parseEvents(opts.events));
  const toleranceMs = opts.tolerance === undefined ? undefined : parseDuration(opts.tolerance, '--tolerance');
  if (opts.forwardDuplicates && forwardTo === undefined) {
    throw new UsageError('--forward-duplicates needs --forward-to');
  }
  if (forwardTo !== undefined && forwardsToItself(forwardTo, host, port, path))
    throw new UsageError(
      `--forward-to ${clean(redactUrl(forwardTo))} is this receiver itself: every delivery would be relayed back to it`,
      { hint: 'forward to the app you are developing, on another port' },
    );
  const { output, timeoutMs } = await ctx.settings();
  if (output !== 'table' && output !== 'json' && output !== 'ndjson') {
    throw new UsageError(`listen prints a line per event, or JSON with -o json or ndjson; not ${output}`);
  }
  const secret = await signingSecret(ctx, opts.secretFile);
  if (opts.printSecret) return text(`${secret}\n`);
  const saveDir = opts.save === undefined ? undefined : saveFolder(opts.save);
  const send = forwardTo === undefined ? undefined : await ctx.http();
  if (ctx.signal.aborted) return {};

  const json = output !== 'table';
  // Each verified delivery, as the renderer takes it: the delivery itself (json, ndjson: one line each) and,
  // for a table, its line.
  const lines = new WeakMap<object, string>();
  const arrived = new Arrivals<Record<string, unknown>>();
  const forward: ReceiverOptions['forward'] =
    send && forwardTo
      ? async (raw, headers): Promise<ForwardResult> => {
          const res = await send({
            method: 'POST',
            url: forwardTo,
            headers: { 'content-type': headers.contentType, [SIGNATURE_HEADER]: headers.signature },
            body: raw,
          });
          return { status: res.status, body: res.body, contentType: res.headers['content-type'] };
        }
      : undefined;

  let receiver: Receiver;
  try {
    receiver = await startReceiver({
      host,
      port,
      path,
      secret,
      forward,
      events,
      tolerance: toleranceMs === undefined ? undefined : { ms: toleranceMs },
      forwardDuplicates: opts.forwardDuplicates === true,
      now: () => ctx.clock.now(),
      save:
        saveDir === undefined
          ? undefined
          : (r) => saveDelivery(saveDir, r.receivedAt, r.event, r.headers, r.raw),
      onVerified: ({ delivery, forwarded, duplicate, saved }) => {
        if (saved && !duplicate) io.debug(`saved ${saved}`);
        const item: Record<string, unknown> = duplicate ? { ...delivery, duplicate: true } : { ...delivery };
        lines.set(item, deliveryLine(delivery, forwarded, duplicate));
        arrived.push(item);
        if (json && forwarded) {
          const event = clean(String(delivery.event));
          io.notice(
            'error' in forwarded
              ? `${event} -> 502: ${clean(forwarded.error)}`
              : `${event} -> ${forwarded.status}`,
          );
        }
      },
      onRejected: (r) => {
        const target = clean(r.target.length > 80 ? `${r.target.slice(0, 79)}…` : r.target);
        io.warn(`rejected ${clean(r.method)} ${target} from ${clean(r.remote)}: ${r.reason} (${r.status})`);
      },
    });
  } catch (err) {
    throw listenError(err, host, port);
  }

  if (!isLoopbackHost(host)) {
    io.warn(`listening on ${clean(host)}, which other machines may reach (every delivery is still verified)`);
  }
  io.notice(
    `Listening on ${receiver.url}${forwardTo ? `, forwarding to ${redactUrl(forwardTo)}` : ''}${saveDir ? `, saving to ${saveDir}` : ''} (Ctrl-C to stop)`,
  );
  async function* deliveries(): AsyncGenerator<Record<string, unknown>> {
    let closed = false;
    try {
      yield* arrived.until(ctx.signal);
      // Stopped: the delivery in flight finishes (a forward may take up to --timeout; a second Ctrl-C ends at
      // once, cli.ts, exit 130), and is printed like the others. The wait is said, with what it waits for: a
      // target that never answers would otherwise hold the first Ctrl-C in silence.
      const { requests, forwarding } = receiver.inFlight();
      if (requests > 0) {
        const what =
          forwarding > 0
            ? `${forwarding} deliver${forwarding === 1 ? 'y' : 'ies'} forwarded to ${redactUrl(forwardTo ?? '')}`
            : `${requests} request${requests === 1 ? '' : 's'} in flight`;
        io.notice(
          `Stopping: waiting for ${what} to be answered (up to ${Math.ceil((timeoutMs + 1000) / 1000)} s); press Ctrl-C again to stop now`,
        );
      }
      await receiver.close(timeoutMs + 1000);
      closed = true;
      yield* arrived.left();
    } finally {
      if (!closed) await receiver.close(timeoutMs + 1000);
      io.notice('Stopped.');
    }
  }
  return {
    output: listOutput({
      source: deliveries(),
      // One line per delivery, whatever happens next: json is ndjson here (a document would never end).
      format: json ? 'ndjson' : 'table',
      columns: [],
      noun: 'deliveries',
      line: (item) => lines.get(item) ?? '',
    }),
  };
}

/** Items that arrive from callbacks, read as a stream that ends when the signal is aborted. */
class Arrivals<T> {
  private readonly queue: T[] = [];
  private wake?: () => void;

  push(item: T): void {
    this.queue.push(item);
    this.wake?.();
  }

  /** What arrived and was not read yet. */
  *left(): Generator<T> {
    while (this.queue.length > 0) yield this.queue.shift()!;
  }

  async *until(signal: AbortSignal): AsyncGenerator<T> {
    const aborted = new Promise<void>((resolve) => {
      if (signal.aborted) resolve();
      else signal.addEventListener('abort', () => resolve(), { once: true });
    });
    for (;;) {
      while (this.queue.length > 0) yield this.queue.shift()!;
      if (signal.aborted) return;
      await Promise.race([aborted, new Promise<void>((resolve) => (this.wake = resolve))]);
      this.wake = undefined;
    }
  }
}
