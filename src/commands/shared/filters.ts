// `--connection` and `--status` as filters (cli-contract.md §15), declared once for every command that takes
// them. The service filters only by severity and scan: cssctl applies these while it pages
// (src/report/sources/filter.ts).
import { InvalidArgumentError } from 'commander';
import type { Command as TypedCommand, OptionValues } from '@commander-js/extra-typings';
import { Option } from './define.js';
import { completeWith } from '../../completion/meta.js';

/** What the filter options give a verb (and what the MCP tools pass it). */
export interface FilterOptions {
  /** `--connection a,b`: connection aliases, each once, as given. */
  connection?: string[];
  /** `--status s,t`: the finding's own status values, each once, as given. */
  status?: string[];
}

/** Filter values as every front end takes them: trimmed, each once, and where an empty one stands (-1: none). */
export function cleanValues(values: string[]): { values: string[]; empty: number } {
  const out = values.map((v) => v.trim());
  return { values: [...new Set(out)], empty: out.indexOf('') };
}

/** `--x a,b --x c`: a comma-separated list, repeatable; an empty value is exit 2 naming it. */
export function valueList(what: string): (value: string, previous?: string[]) => string[] {
  return (value, previous = []) => {
    const { values, empty } = cleanValues(value.split(','));
    if (empty >= 0)
      throw new InvalidArgumentError(`empty ${what} in "${value}": give one or more, separated by commas`);
    return [...new Set([...previous, ...values])];
  };
}

/** `--connection <alias[,alias...]>`: only the items of these connections (completion offers the aliases). */
export function withConnectionFilter<A extends unknown[], O extends OptionValues, G extends OptionValues>(
  cmd: TypedCommand<A, O, G>,
  what = 'items',
) {
  return cmd.addOption(
    completeWith(
      new Option(
        '--connection <alias[,alias...]>',
        `only the ${what} of these connections (repeatable; filtered by cssctl)`,
      ).argParser(valueList('connection alias')),
      { dynamic: 'connections' },
    ),
  );
}

/**
 * `--connection` and `--status` for the commands that read findings. A finding's statuses are the service's
 * (it lists none): any value is taken, matched in any case.
 */
export function withFindingFilters<A extends unknown[], O extends OptionValues, G extends OptionValues>(
  cmd: TypedCommand<A, O, G>,
) {
  return withConnectionFilter(cmd, 'findings').addOption(
    completeWith(
      new Option(
        '--status <s[,s...]>',
        'only findings whose own status is one of these, such as open (repeatable; filtered by cssctl)',
      ).argParser(valueList('status')),
      [],
    ),
  );
}
