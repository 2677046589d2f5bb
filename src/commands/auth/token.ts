import type { Context } from '../../core/context.js';
import { text, type Result } from '../../report/result.js';

/** For `curl -H "Authorization: Bearer $(cssctl auth token)"`: the token alone on stdout. */
export async function token(ctx: Context): Promise<Result> {
  const session = await ctx.session();
  return text(`${await session.accessToken()}\n`);
}
