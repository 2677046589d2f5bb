// How deep JSON may nest in what cssctl reads (cli-contract.md §3, §8). V8's JSON.parse takes any depth, but
// writing it back does not: JSON.stringify (json, ndjson, csv cells), jq and the report formats recurse, and
// V8's stack runs out past ~4,000 levels — a finding nested 200,000 levels deep printed a closed `[]` and then
// failed. No record of the service or of a file cssctl wrote comes near this; past it the input is refused
// where it enters (exit 1 for an answer of the service, exit 2 naming the file for a file).

/** The deepest nesting read: objects and arrays inside each other. */
export const MAX_JSON_DEPTH = 1000;

/**
 * Whether a JSON text nests objects and arrays more than `max` levels deep (brackets inside strings do not
 * count). A text of at most 2 × max characters cannot, so short texts cost nothing.
 */
export function nestsDeeperThan(text: string, max = MAX_JSON_DEPTH): boolean {
  if (text.length <= 2 * max) return false;
  let depth = 0;
  let inString = false;
  let escaped = false;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (inString) {
      if (escaped) escaped = false;
      else if (c === 0x5c) escaped = true;
      else if (c === 0x22) inString = false;
      continue;
    }
    if (c === 0x22) inString = true;
    else if (c === 0x7b || c === 0x5b) {
      if (++depth > max) return true;
    } else if (c === 0x7d || c === 0x5d) depth--;
  }
  return false;
}

/** The line of an error about nesting, for people: `nests more than 1,000 levels deep`. */
export function tooDeep(max = MAX_JSON_DEPTH): string {
  return `nests more than ${max.toLocaleString('en-US')} levels deep (cssctl reads at most ${max.toLocaleString('en-US')})`;
}
