import { UsageError } from '../../core/errors.js';

/**
 * Parses `key=value` (a string) and `key:=json` (any JSON value) pairs, as `--set` and `-f` take them.
 * A value that must stay a string stays one: `account=012345` is "012345", not a number.
 */
export function parseFields(pairs: string[], flag: string): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const pair of pairs) {
    const m = /^([^=:]+?)(:?=)([\s\S]*)$/.exec(pair);
    if (!m || !m[1]!.trim())
      throw new UsageError(`invalid ${flag} "${pair}": expected key=value or key:=<json>`);
    const key = m[1]!.trim();
    if (key in out) throw new UsageError(`${flag} names "${key}" twice`);
    if (m[2] === ':=') {
      try {
        out[key] = JSON.parse(m[3]!);
      } catch {
        throw new UsageError(`invalid ${flag} "${pair}": the value after := must be JSON`);
      }
    } else {
      out[key] = m[3]!;
    }
  }
  return out;
}
