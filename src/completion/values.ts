// The enumerated values completion offers by name (see meta.ts for the convention). Loaded only when a
// completion script is generated, never at start-up.
import { SCAN_STATUSES, SEVERITIES } from '../api/findings-types.js';
import { EVENT_TYPES } from '../api/webhooks.js';
import { CONFIG_KEYS, OUTPUT_FORMATS } from '../core/config.js';
import { LIST_OFFER } from '../core/output/offer.js';
import type { CompletionValues } from './meta.js';

export { SCAN_STATUSES };

/** Every output format: what -o completes before a command is named. */
export const ALL_OUTPUTS: readonly string[] = OUTPUT_FORMATS;

/** What a command offers unless it declares otherwise with completeWith(cmd, { outputs }): lazy()'s default. */
export const DEFAULT_OUTPUTS: readonly string[] = LIST_OFFER.names;

/** Values of an option, by its long flag, wherever it is registered. */
export const VALUES_BY_FLAG: Readonly<Record<string, CompletionValues>> = {
  '--severity': SEVERITIES,
  '--fail-on': SEVERITIES,
  '--status': SCAN_STATUSES,
  '--events': [...EVENT_TYPES, 'all'],
  '--profile': { dynamic: 'profiles' },
  '--connection': { dynamic: 'connections' },
};

/**
 * Whether an option's value is a comma-separated list of its values (`--severity high,medium`,
 * `--connection prod,staging`): its placeholder says so (`<s[,s...]>`, `<alias[,alias...]>`), or it is one of
 * LIST_FLAGS, whose placeholder does not.
 */
export function isListOption(long: string | undefined, flags: string): boolean {
  return /<[^>]*\[,[^\]]*\.\.\.\]>/.test(flags) || (long !== undefined && LIST_FLAGS.has(long));
}

/** List flags whose placeholder does not show it (`--events <events>`). */
const LIST_FLAGS: ReadonlySet<string> = new Set(['--events']);

/** Values of a positional argument, by its name (`<event>`, `<key>`). */
export const VALUES_BY_ARGUMENT: Readonly<Record<string, CompletionValues>> = {
  event: EVENT_TYPES,
  key: CONFIG_KEYS,
  profile: { dynamic: 'profiles' },
  scan_id: { dynamic: 'scans' },
};
