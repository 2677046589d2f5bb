// Types of bin/argv.cjs (the global options and the tokenizer the launcher and the CLI share).
export interface GlobalOption {
  flags: string;
  description: string;
  arity?: 2;
}
export declare const GLOBAL_OPTIONS: readonly GlobalOption[];
export declare const PAIR_SEP: string;
export interface Tokens {
  /** Long name (`output`, `no-color`, or a subcommand's own, taken as a switch) → the values it was given. */
  flags: Map<string, string[]>;
  /** The arguments that are neither options nor their values, in order, with their index in argv. */
  words: { word: string; index: number }[];
  /** Two-value options missing a value. */
  short: string[];
}
export declare function tokenize(argv: readonly string[]): Tokens;
export declare function joinPairs(
  argv: readonly string[],
): { argv: string[]; missing?: undefined } | { missing: string; argv?: undefined };
