import type { Context } from '../../core/context.js';
import { after, sentence, type Result } from '../../report/result.js';

export async function logout(ctx: Context): Promise<Result> {
  const removed = await ctx.credentials().remove(ctx.profileName);
  // Tokens of a profile that config.json no longer lists are still removed; a name that is neither there nor
  // in a store is a typo (exit 2 naming it). A config.json that cannot be read is no reason to keep tokens.
  if (removed.length === 0 && !ctx.configSync().fileError) ctx.requireProfile();
  // Works whatever config.json holds (cli-contract.md §2): a file that is not JSON is no reason to keep tokens.
  const output = ctx.outputLenient('table');
  const value = { profile: ctx.profileName, removed_from: removed };
  return {
    output:
      removed.length > 0
        ? sentence(
            value,
            output,
            `Logged out of profile ${ctx.profileName} (removed from ${removed.join(' and ')})`,
          )
        : sentence(value, output, `Not logged in (profile ${ctx.profileName}); nothing to remove`, false),
    ...after(() => {
      if (ctx.env.CSSCTL_TOKEN)
        ctx.io.warn('CSSCTL_TOKEN is still set in the environment and will still be used');
    }),
  };
}
