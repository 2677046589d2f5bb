// A hand-edited `default_profile` that chooses no profile (it names none of config.json, or it is not a name: an
// array, a number). Every command that needs the profile is exit 2 with the problem and its fix; `config list`
// and `logout` still work (cli-contract.md §6) and say the same in a warning.
import type { Context } from '../../core/context.js';
import { UsageError } from '../../core/errors.js';
import { resolveSettings, type Settings } from '../../core/settings.js';

/**
 * What is wrong with `default_profile` when it is what chooses the profile (no --profile, no CSSCTL_PROFILE);
 * undefined when nothing is.
 */
export function defaultProfileProblem(ctx: Context): UsageError | undefined {
  try {
    const { source } = ctx.activeProfile();
    if (source === 'flag' || source === 'env') return undefined;
    ctx.requireProfile();
    return undefined;
  } catch (err) {
    if (err instanceof UsageError) return err;
    throw err;
  }
}

/** The problem and how to fix it, in one line (`… : choose one with cssctl auth switch <profile>`). */
export function withFix(problem: UsageError): string {
  return problem.hint ? `${problem.message}: ${problem.hint}` : problem.message;
}

/**
 * The settings for `config list`: with a `default_profile` that chooses no profile, what flags, environment and
 * defaults give, every key the profile would have given marked invalid with the problem and its fix.
 */
export function settingsLenient(ctx: Context): Settings {
  const problem = defaultProfileProblem(ctx);
  if (!problem) return ctx.settingsSync();
  return resolveSettings(ctx.globals, ctx.env, {}, '(none)', {
    file: ctx.configSync().path,
    profileError: new UsageError(withFix(problem)),
  });
}
