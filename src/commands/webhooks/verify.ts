import type { Context } from '../../core/context.js';
import type { Result } from '../../report/result.js';
import { UsageError } from '../../core/errors.js';
import { readUserFile } from '../../core/read-file.js';
import { readAll } from '../../core/stdin.js';
import { signingSecret } from './common.js';
import { explainFailure } from './explain.js';
import type { OptionsOf } from '../shared/define.js';
import type { verifyCommand } from './verify.command.js';

/** What `webhooks verify` takes (verify.command.ts). */
export type VerifyOptions = OptionsOf<typeof verifyCommand>;

const MAX_PAYLOAD = 64 * 1024 * 1024;

/** The raw payload, byte for byte: a file, else standard input (which must not be a terminal). */
async function readPayload(ctx: Context, file: string | undefined): Promise<Buffer> {
  // A FIFO or <(…) is read without blocking the process: Ctrl-C still stops it.
  if (file !== undefined)
    return readUserFile(file, { what: '--payload-file', signal: ctx.signal, maxBytes: MAX_PAYLOAD });
  if (ctx.io.stdin.isTTY) {
    throw new UsageError('no payload: pass --payload-file <path> or pipe the raw body on standard input');
  }
  return readAll(ctx.io.stdin, MAX_PAYLOAD, 'the payload on standard input', ctx.signal);
}

/** Exit 0 when the signature is valid, 1 when it is not — whatever the header holds, nothing throws. */
export async function verify(ctx: Context, opts: VerifyOptions): Promise<Result> {
  const secret = await signingSecret(ctx, opts.secretFile);
  const payload = await readPayload(ctx, opts.payloadFile);
  const { output } = await ctx.settings();
  const why = explainFailure(secret, payload, opts.signature);
  if (why !== undefined)
    return { finish: async () => ({ failure: { kind: 'refused', message: `invalid signature: ${why}` } }) };
  if (output === 'json' || output === 'ndjson')
    return { output: { kind: 'value', value: { valid: true }, format: 'ndjson' } };
  ctx.io.notice(`${ctx.io.errColor.green('✓')} The signature is valid.`);
  return {};
}
