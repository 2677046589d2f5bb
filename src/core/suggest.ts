// "Did you mean …?" for a word the user typed (an ignore-file key, a --columns name): one place for the rule.

/** Levenshtein distance between two strings. */
export function editDistance(a: string, b: string): number {
  const d = Array.from({ length: b.length + 1 }, (_, i) => i);
  for (let i = 1; i <= a.length; i++) {
    let prev = d[0]!;
    d[0] = i;
    for (let j = 1; j <= b.length; j++) {
      const tmp = d[j]!;
      d[j] = Math.min(d[j]! + 1, d[j - 1]! + 1, prev + (a[i - 1] === b[j - 1] ? 0 : 1));
      prev = tmp;
    }
  }
  return d[b.length]!;
}

/**
 * The option closest to `word` (compared in lower case), when it is close enough to be a typo of it: at most
 * 2 edits, or a third of the word's length for longer words. Undefined when none is.
 */
export function closest(word: string, options: Iterable<string>): string | undefined {
  let best: string | undefined;
  let bestD = Infinity;
  const w = word.toLowerCase();
  for (const o of options) {
    const dd = editDistance(w, o.toLowerCase());
    if (dd < bestD) {
      best = o;
      bestD = dd;
    }
  }
  return best !== undefined && bestD <= Math.max(2, Math.floor(word.length / 3)) ? best : undefined;
}
