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
    if (Object.hasOwn(out, key)) throw new UsageError(`${flag} names "${key}" twice`);
    let value: unknown = m[3]!;
    if (m[2] === ':=') {
      try {
        value = JSON.parse(m[3]!);
      } catch {
        throw new UsageError(`invalid ${flag} "${pair}": the value after := must be JSON`);
      }
    }
    // defineProperty: a key such as __proto__ becomes a field, never the object's prototype.
    Object.defineProperty(out, key, { value, enumerable: true, writable: true, configurable: true });
  }
  return out;
}
