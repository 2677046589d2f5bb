import type { Context } from '../../core/context.js';
import type { Outcome, Result } from '../../report/result.js';
import { redactUrl } from '../../core/http/log.js';
import { SIGNATURE_HEADER, sign } from '../../core/webhook-signature.js';
import { clean, parseEvent, signingSecret, webhookUrl } from './common.js';
import { sampleDelivery } from './samples.js';
import type { ArgsOf, OptionsOf } from '../shared/define.js';
import type { triggerCommand } from './trigger.command.js';

/** What `webhooks trigger` takes (trigger.command.ts). */
export type TriggerOptions = OptionsOf<typeof triggerCommand>;

/** Sends one correctly signed sample delivery and reports the receiver's answer; non-2xx is exit 1. */
export async function trigger(
  ctx: Context,
  opts: TriggerOptions,
  [name]: ArgsOf<typeof triggerCommand>,
): Promise<Result> {
  const event = parseEvent(name ?? '');
  const url = webhookUrl(opts.url, '--url');
  const secret = await signingSecret(ctx, opts.secretFile);
  const { output, workspace } = await ctx.settings();
  const send = await ctx.http();

  const delivery = sampleDelivery(event, workspace ?? 'example', new Date(ctx.clock.now()));
  const body = JSON.stringify(delivery);
  const signature = sign(secret, body);
  ctx.io.addSecret(signature);
  const started = ctx.clock.now();
  const res = await send({
    method: 'POST',
    url,
    headers: { 'content-type': 'application/json', [SIGNATURE_HEADER]: signature },
    body,
    signal: ctx.signal,
  });
  const ms = ctx.clock.now() - started;
  const ok = res.status >= 200 && res.status < 300;
  const shownUrl = redactUrl(url);
  const said = clean(res.body.trim()).slice(0, 200);
  const outcome: Outcome = ok
    ? {}
    : {
        failure: {
          kind: 'refused',
          message: `the receiver answered HTTP ${res.status}${said ? `: ${said}` : ''}`,
        },
      };
  const value = { event, url: shownUrl, status: res.status, ok, duration_ms: ms, delivery };
  return {
    output:
      output === 'json' || output === 'ndjson'
        ? { kind: 'value', value, format: output }
        : { kind: 'text', text: `${event} -> ${shownUrl}: HTTP ${res.status} (${ms} ms)\n` },
    finish: async () => outcome,
  };
}
