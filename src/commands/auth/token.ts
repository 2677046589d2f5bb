import type { Context } from '../../core/context.js';

/** For `curl -H "Authorization: Bearer $(cssctl auth token)"`: the token alone on stdout. */
export async function token(ctx: Context): Promise<void> {
  const session = await ctx.session();
  ctx.io.out(`${await session.accessToken()}\n`);
}
