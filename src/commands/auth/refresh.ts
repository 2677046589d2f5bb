import type { Context } from '../../core/context.js';
import { writeObject } from '../../core/output.js';

export async function refresh(ctx: Context): Promise<void> {
  const session = await ctx.session();
  const { output } = await ctx.settings();
  const { tokens, source } = await session.forceRefresh();
  const expiresAt = new Date(tokens.expires_at).toISOString();
  if (output === 'table') {
    ctx.io.out(
      `${ctx.io.color.green('✓')} Refreshed the session of profile ${ctx.profileName}; the access token expires at ${expiresAt}\n`,
    );
  } else {
    await writeObject(ctx.io, output, {
      profile: ctx.profileName,
      token_source: source,
      expires_at: expiresAt,
    });
  }
}
