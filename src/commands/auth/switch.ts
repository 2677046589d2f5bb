import type { Context } from '../../core/context.js';
import { after, sentence, type Result } from '../../report/result.js';
import { validateProfileName } from '../../core/config.js';
import { UsageError } from '../../core/errors.js';
import type { ArgsOf } from '../shared/define.js';
import type { switchCommand } from './switch.command.js';

/**
 * Makes a profile of config.json the default for later commands (`default_profile`, written under the config
 * lock). `--profile` and `CSSCTL_PROFILE` still win over it; this command says so when one is set.
 */
export async function authSwitch(
  ctx: Context,
  _opts: unknown,
  [profile]: ArgsOf<typeof switchCommand>,
): Promise<Result> {
  const name = validateProfileName(profile ?? '');
  const store = await ctx.config();
  // `default` always exists (the built-in choice): switching to it is the way back.
  if (name !== 'default' && !store.hasProfile(name)) {
    throw new UsageError(`no profile named "${name}" in ${store.path}`, {
      hint: `cssctl config profiles lists the profiles; cssctl login --profile ${name} creates it`,
    });
  }
  await store.setDefaultProfile(name);
  const output = ctx.outputLenient('table');
  return {
    output: sentence({ default_profile: name }, output, `Profile ${name} is now the default`),
    ...after(() => {
      if (ctx.globals.profile !== undefined)
        ctx.io.warn(`--profile ${ctx.globals.profile} is given: this command line still uses it`);
      else if (ctx.env.CSSCTL_PROFILE)
        ctx.io.warn(`CSSCTL_PROFILE=${ctx.env.CSSCTL_PROFILE} is set: it still wins until you unset it`);
    }),
  };
}
