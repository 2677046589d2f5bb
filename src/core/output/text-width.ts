// How many columns text takes on a terminal, and how to cut it to a width, as cssctl's tables, key/value views and
// summaries measure it: East Asian wide characters and most emoji take two columns, ANSI colour codes none.
//
// The one module that reaches into a library's internals, and why: no dependency of cssctl offers this as a
// public API. cli-table3 measures cells this way (src/utils.js, over the string-width package) but exports only
// its Table; string-width itself is not a direct dependency (only cli-table3's). Everything else imports this
// file, so replacing cli-table3's helpers (for string-width declared in package.json) is a change here alone.
// Loaded on first use: a command that prints no table does not pay for it.

export interface TextWidth {
  /** The columns `s` takes (its widest line). */
  width(s: string): number;
  /** `s` cut to at most `w` columns, ending in `…` when cut. */
  cut(s: string, w: number): string;
}

let loaded: Promise<TextWidth> | undefined;

/** The measure (cli-table3's strlen and truncate), loaded once. */
export function loadTextWidth(): Promise<TextWidth> {
  loaded ??= import('cli-table3/src/utils.js').then(({ default: utils }) => ({
    width: (s: string) => utils.strlen(s),
    cut: (s: string, w: number) => utils.truncate(s, w),
  }));
  return loaded;
}
