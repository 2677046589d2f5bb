import type { Context } from '../../core/context.js';
import type { UsageError } from '../../core/errors.js';
import { after, sentence, type Result } from '../../report/result.js';
import { defaultProfileProblem, withFix } from '../shared/default-profile.js';

export async function logout(ctx: Context): Promise<Result> {
  // A hand-edited default_profile that chooses no profile (cli-contract.md §6: logout always works): the tokens
  // stored under the name it gives, if any store holds some, are removed; a value that is not a name removes
  // nothing. Either way the warning says how to fix it.
  const problem = defaultProfileProblem(ctx);
  if (problem) return logoutWithout(ctx, problem);
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

async function logoutWithout(ctx: Context, problem: UsageError): Promise<Result> {
  ctx.io.warn(withFix(problem));
  let name: string | undefined;
  try {
    name = ctx.profileName;
  } catch {
    // not a name: there is no profile to log out of
  }
  const removed = name === undefined ? [] : await ctx.credentials().remove(name);
  const output = ctx.outputLenient('table');
  const value = { profile: name ?? null, removed_from: removed };
  const who = name === undefined ? 'no profile is active' : `profile ${name}`;
  return {
    output:
      removed.length > 0
        ? sentence(value, output, `Logged out of profile ${name} (removed from ${removed.join(' and ')})`)
        : sentence(value, output, `Not logged in (${who}); nothing to remove`, false),
    ...after(() => {
      if (ctx.env.CSSCTL_TOKEN)
        ctx.io.warn('CSSCTL_TOKEN is still set in the environment and will still be used');
    }),
  };
}
