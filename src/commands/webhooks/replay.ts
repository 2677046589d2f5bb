import { basename } from 'node:path';
import type { Context } from '../../core/context.js';
import { list as listOutput, type Result } from '../../report/result.js';
import { InterruptedError, UsageError } from '../../core/errors.js';
import { redactUrl } from '../../core/http/log.js';
import { SIGNATURE_HEADER, sign } from '../../core/webhook-signature.js';
import { clean, signingSecret, webhookUrl } from './common.js';
import { loadAllSaved, loadSaved, sha256Hex, type LoadedDelivery } from './saved.js';
import type { ArgsOf, OptionsOf } from '../shared/define.js';
import type { replayCommand } from './replay.command.js';

/** What `webhooks replay` takes (replay.command.ts). */
export type ReplayOptions = OptionsOf<typeof replayCommand>;

/** Headers that describe one connection or one message framing, not the delivery: never replayed. */
const NOT_REPLAYED = new Set([
  'host',
  'content-length',
  'connection',
  'keep-alive',
  'transfer-encoding',
  'te',
  'trailer',
  'upgrade',
  'expect',
  'proxy-authorization',
  'proxy-connection',
]);

/** The saved request headers to send again, with the signature given (or none). */
export function replayHeaders(d: LoadedDelivery, signature: string | undefined): Record<string, string> {
  const headers: Record<string, string> = {};
  for (const [name, value] of Object.entries(d.saved.headers)) {
    const n = name.toLowerCase();
    if (NOT_REPLAYED.has(n) || n === SIGNATURE_HEADER) continue;
    headers[n] = Array.isArray(value) ? value.join(', ') : value;
  }
  headers['content-type'] ??= 'application/json';
  if (signature !== undefined) headers[SIGNATURE_HEADER] = signature;
  return headers;
}

interface Outcome {
  file: string;
  event: string | null;
  received_at: string;
  status: number | null;
  ok: boolean;
  duration_ms: number;
  error?: string;
}

/**
 * Sends saved deliveries again, oldest first: the exact body, and the saved signature (or, with --resign, one
 * made with the current secret). Every file is checked before anything is sent; any answer that is not 2xx
 * (or no answer) makes the exit 1.
 */
export async function replay(
  ctx: Context,
  opts: ReplayOptions,
  paths: ArgsOf<typeof replayCommand>,
): Promise<Result> {
  const io = ctx.io;
  if (paths.length === 0) throw new UsageError('name one or more saved deliveries or folders');
  const url = webhookUrl(opts.to, '--to');
  if (opts.secretFile !== undefined && !opts.resign) {
    throw new UsageError(
      '--secret-file is used only with --resign (the saved signatures are sent as they are)',
    );
  }
  const entries = loadAllSaved(paths);
  const secret = opts.resign ? await signingSecret(ctx, opts.secretFile) : undefined;
  const { output } = await ctx.settings();
  const send = await ctx.http();
  const shownUrl = redactUrl(url);
  const line = (o: Outcome): string => {
    const answer = o.status === null ? `error: ${clean(o.error ?? '')}` : `HTTP ${o.status}`;
    const event = clean(o.event ?? 'unknown');
    return `${o.received_at}  ${event}  ${clean(basename(o.file))} -> ${answer} (${o.duration_ms} ms)`;
  };

  const outcomes: Outcome[] = [];
  async function* deliveries(): AsyncGenerator<Outcome> {
    for (const entry of entries) {
      if (ctx.signal.aborted) throw new InterruptedError();
      // Read again now (checked above): one body in memory at a time.
      let d: LoadedDelivery;
      try {
        d = loadSaved(entry.file);
      } catch (err) {
        // Changed or removed since it was checked: reported on its line, and the rest still go.
        const failed: Outcome = {
          file: entry.file,
          event: null,
          received_at: new Date(entry.receivedAt).toISOString(),
          status: null,
          ok: false,
          duration_ms: 0,
          error: (err as Error).message,
        };
        outcomes.push(failed);
        yield failed;
        continue;
      }
      const name = clean(basename(d.file));
      if (secret === undefined) {
        if (typeof d.saved.headers[SIGNATURE_HEADER] !== 'string') {
          io.warn(
            `${name} has no saved ${SIGNATURE_HEADER} header: sent without one (use --resign to sign it)`,
          );
        } else if (d.saved.body_sha256 !== undefined && d.saved.body_sha256 !== sha256Hex(d.raw)) {
          io.warn(
            `${name}: the body was changed after it was saved, so its saved signature will not match (use --resign)`,
          );
        }
      }
      const saved = d.saved.headers[SIGNATURE_HEADER];
      let signature: string | undefined;
      if (secret !== undefined) {
        signature = sign(secret, d.raw);
        io.addSecret(signature);
      } else if (typeof saved === 'string') signature = saved;
      const started = ctx.clock.now();
      const outcome: Outcome = {
        file: d.file,
        event: d.saved.event ?? null,
        received_at: d.saved.received_at,
        status: null,
        ok: false,
        duration_ms: 0,
      };
      try {
        const res = await send({
          method: 'POST',
          url,
          headers: replayHeaders(d, signature),
          body: d.raw,
          signal: ctx.signal,
        });
        outcome.status = res.status;
        outcome.ok = res.status >= 200 && res.status < 300;
      } catch (err) {
        if (ctx.signal.aborted || err instanceof InterruptedError) throw err;
        outcome.error = (err instanceof Error ? err.message : String(err)).split('\n')[0]!;
      }
      outcome.duration_ms = ctx.clock.now() - started;
      outcomes.push(outcome);
      yield outcome;
    }
  }

  return {
    output: listOutput<Outcome>({
      source: deliveries(),
      format: output === 'json' || output === 'ndjson' ? output : 'table',
      columns: [],
      noun: 'deliveries',
      line,
    }),
    finish: async () => {
      const failed = outcomes.filter((o) => !o.ok).length;
      if (failed > 0)
        return {
          failure: {
            kind: 'refused',
            message: `${failed} of ${outcomes.length} ${outcomes.length === 1 ? 'delivery was' : 'deliveries were'} not answered 2xx by ${shownUrl}`,
          },
        };
      io.notice(
        `Replayed ${outcomes.length} ${outcomes.length === 1 ? 'delivery' : 'deliveries'} to ${shownUrl}.`,
      );
      return {};
    },
  };
}
