/** Quotes an argument for a POSIX shell when it needs it. */
export function shellQuote(arg: string): string {
  if (arg !== '' && /^[\w@%+=:,./-]+$/.test(arg)) return arg;
  return `'${arg.replace(/'/g, `'\\''`)}'`;
}

/**
 * The command line the user ran with some flags set anew: each `[flag, value]` of `set` replaces every
 * `flag value` / `flag=value` in argv (a `[flag]` alone is a switch, added when missing), and `drop` flags
 * (with their values) are removed. The result is the exact command that resumes an interrupted listing.
 */
export function resumeCommand(
  argv: readonly string[],
  set: readonly (readonly [string, string?])[],
  drop: readonly string[] = [],
): string {
  const valued = [...set.filter((s) => s.length === 2).map(([f]) => f), ...drop];
  const out: string[] = [];
  let i = 0;
  for (; i < argv.length; i++) {
    const a = argv[i]!;
    if (a === '--') break;
    if (valued.includes(a)) {
      i++; // and its value
      continue;
    }
    if (valued.some((d) => a.startsWith(`${d}=`))) continue;
    out.push(a);
  }
  for (const [flag, value] of set) {
    if (value !== undefined) out.push(flag, value);
    else if (!out.includes(flag)) out.push(flag);
  }
  out.push(...argv.slice(i));
  return ['cssctl', ...out].map(shellQuote).join(' ');
}
