import type { Context } from '../../core/context.js';
import { sentence, type Result } from '../../report/result.js';

export async function refresh(ctx: Context): Promise<Result> {
  const session = await ctx.session();
  const { output } = await ctx.settings();
  const { tokens, source } = await session.forceRefresh();
  const expiresAt = new Date(tokens.expires_at).toISOString();
  return {
    output: sentence(
      { profile: ctx.profileName, token_source: source, expires_at: expiresAt },
      output,
      `Refreshed the session of profile ${ctx.profileName}; the access token expires at ${expiresAt}`,
    ),
  };
}
