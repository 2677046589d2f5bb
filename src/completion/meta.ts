// Completion metadata: how a command, option or argument says which values `cssctl completion` offers.
// Kept tiny and free of imports, because the command tree (loaded on every run) may import it.
//
// THE CONVENTION (for whoever adds a command):
//   - Nothing to do for the common cases. Commands, subcommands and flags are read from the commander tree
//     at run time, and values are found by name (src/completion/values.ts): --severity and --fail-on offer
//     the severities, --status the scan statuses, --events and an <event> argument the webhook event
//     types, -o/--output the output formats, --profile the profiles of config.json, a <key> argument the
//     config keys, --connection the connection aliases and a <scan_id> argument the recent scan ids (both
//     asked of the service at TAB time, src/completion/remote.ts).
//     A flag whose placeholder shows a list (`<s[,s...]>`, `<alias[,alias...]>`) or --events takes comma-separated
//     values (isListOption in values.ts): after a comma the values come again, from the service too.
//   - An option or argument with a fixed set of values may use commander's own `.choices([...])`: the
//     generator reads them (commander then also rejects other values).
//   - Otherwise attach them without changing parsing:
//       completeWith(new Option('--region <r>', '…'), ['eu', 'us'])        // fixed values
//       completeWith(new Argument('<profile>'), { dynamic: 'profiles' })    // read at TAB time
//   - -o completes to the standard formats (LIST_OFFER, what the wire offers by default). A command whose
//     addVerb() gets another Offer declares the same names for completion, in its definition (<verb>.command.ts):
//       completeWith(cmd, { outputs: FINDINGS_OFFER.names })
//   After changing the tree, `npm run docs` regenerates completions/, docs/commands.md and package.json `man`
//   (`npm run completions` the first only; tests fail until then).

/** A value source read when TAB is pressed, through the hidden `cssctl __complete <source>`. */
export interface DynamicValues {
  dynamic: 'profiles' | 'connections' | 'scans';
}
export type CompletionValues = readonly string[] | DynamicValues;

export interface CommandCompletion {
  /** The -o/--output formats this command (and its subcommands) offer. */
  outputs: readonly string[];
}

const KEY = Symbol.for('cssctl.completion');

type Carrier = { [KEY]?: unknown };

/** Attaches completion values to an option or argument, or output formats to a command; returns it. */
export function completeWith<T extends object>(target: T, values: CompletionValues | CommandCompletion): T {
  (target as Carrier)[KEY] = values;
  return target;
}

/** What completeWith() attached, if anything. */
export function completionOf(target: object): CompletionValues | CommandCompletion | undefined {
  return (target as Carrier)[KEY] as CompletionValues | CommandCompletion | undefined;
}
