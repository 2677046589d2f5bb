import { randomBytes } from 'node:crypto';
import type { Context } from '../../core/context.js';
import { after, record, type Result } from '../../report/result.js';
import { UsageError } from '../../core/errors.js';
import { readSecretLine } from '../../core/stdin.js';
import { createWebhook, withoutSecret, type Webhook } from '../../api/webhooks.js';
import { clean, parseEvents, webhookUrl } from './common.js';
import type { OptionsOf } from '../shared/define.js';
import type { createCommand } from './create.command.js';

/** What `webhooks create` takes (create.command.ts). */
export type CreateOptions = OptionsOf<typeof createCommand>;

const FIELDS: [string, string][] = [
  ['ID', 'id'],
  ['URL', 'url'],
  ['EVENTS', 'events'],
  ['CREATED', 'created_at'],
  ['SECRET', 'secret'],
];

export async function create(ctx: Context, opts: CreateOptions): Promise<Result> {
  const io = ctx.io;
  // Everything the input alone can refuse is refused before the secret is read or a request sent.
  let plainHttp: URL | undefined;
  const url = webhookUrl(opts.url, '--url', (u) => (plainHttp = u));
  const events = parseEvents(opts.events);
  if (opts.secretStdin && io.stdin.isTTY) {
    throw new UsageError('--secret-stdin reads the secret from a pipe', {
      hint: 'e.g. printf \'%s\\n\' "$SECRET" | cssctl webhooks create … --secret-stdin',
    });
  }
  const { output } = await ctx.settings();
  let secret: string;
  let generated = false;
  if (opts.secretStdin) secret = await readSecretLine(io.stdin, 'the secret on standard input', ctx.signal);
  else if (ctx.env.CSSCTL_WEBHOOK_SECRET) secret = ctx.env.CSSCTL_WEBHOOK_SECRET;
  else {
    secret = randomBytes(32).toString('hex');
    generated = true;
  }
  io.addSecret(secret);
  if (plainHttp) {
    io.warn(`${clean(plainHttp.host)} gets deliveries over plain http (allowed for loopback hosts only)`);
  }

  const client = await ctx.api();
  const answer = withoutSecret(await createWebhook(client, { url, events, secret }));
  // The spec does not show the answer: one that is not an object (a list, a string) is no webhook to show.
  const created: Webhook =
    answer !== null && typeof answer === 'object' && !Array.isArray(answer) ? answer : { url, events };
  const id = created.id ? ` ${clean(String(created.id))}` : '';
  io.notice(`${io.errColor.green('✓')} Created webhook${id} for ${clean(String(created.url ?? url))}`);
  const shown: Record<string, unknown> = { ...created, ...(generated ? { secret } : {}) };
  if (output === 'table' || output === 'csv') {
    shown.events = Array.isArray(created.events) ? created.events.join(',') : created.events;
  }
  return {
    ...record(
      shown,
      output,
      output === 'table' || output === 'csv' ? FIELDS.filter(([, k]) => k in shown) : undefined,
    ),
    ...after(() => {
      if (generated)
        io.notice(
          io.errColor.yellow(
            'This signing secret is shown only now: store it (receivers verify with it, e.g. CSSCTL_WEBHOOK_SECRET).',
          ),
        );
    }),
  };
}
