// The fish completion script: one walker function finds the command path, and `complete` entries are
// conditioned on it. Flags that are the same everywhere (the global ones) are declared once.
import { allCommands, flagNames, isDynamic, type CommandSpec, type FlagSpec } from './model.js';
import { HEADER } from './shared.js';

/** Single-quoted for fish. */
function fq(s: string): string {
  return `'${s.replace(/\\/g, '\\\\').replace(/'/g, "\\'")}'`;
}

function oneLine(s: string): string {
  return s.replace(/\s+/g, ' ').trim();
}

/**
 * The flag's lines: one that declares it with its description, and, for a flag with values, one that gives
 * the values without it (fish shows a line's description beside each of its candidates: the flag's long
 * description would be repeated on every value).
 */
function flagLines(name: string, f: FlagSpec, condition?: string): string[] {
  const head = [`complete -c ${name}`];
  if (condition) head.push(`-n ${fq(condition)}`);
  if (f.long) head.push(`-l ${f.long.slice(2)}`);
  if (f.short) head.push(`-s ${f.short.slice(1)}`);
  const decl = [...head];
  if (f.takesValue) decl.push(f.values ? '-x' : '-r -F');
  if (f.description) decl.push(`-d ${fq(oneLine(f.description))}`);
  if (!f.takesValue || !f.values) return [decl.join(' ')];
  const values = isDynamic(f.values)
    ? f.list
      ? `(__cssctl_list (__cssctl_dyn ${f.values.dynamic}))`
      : `(__cssctl_dyn ${f.values.dynamic})`
    : f.list
      ? `(__cssctl_list ${f.values.join(' ')})`
      : f.values.join(' ');
  // The values first: of two lines for one flag, fish shows the flag with the description of the last.
  return [[...head, '-x', '-a', fq(values)].join(' '), decl.join(' ')];
}

export function fishScript(root: CommandSpec): string {
  const name = root.name;
  const cmds = allCommands(root);
  const at = (c: CommandSpec, pos?: string) =>
    `__cssctl_at ${fq(c.path.join(' '))}${pos === undefined ? '' : ` ${pos}`}`;
  // A flag declared identically at every path is declared once, without a condition.
  const signature = (f: FlagSpec) => JSON.stringify(f);
  const everywhere = new Set(
    root.flags.map(signature).filter((s) => cmds.every((c) => c.flags.some((f) => signature(f) === s))),
  );
  const lines: string[] = [];
  for (const f of root.flags) if (everywhere.has(signature(f))) lines.push(...flagLines(name, f));
  for (const c of cmds) {
    for (const s of c.commands)
      for (const n of [s.name, ...s.aliases])
        lines.push(`complete -c ${name} -n ${fq(at(c))} -a ${fq(n)} -d ${fq(oneLine(s.description))}`);
    for (const f of c.flags) if (!everywhere.has(signature(f))) lines.push(...flagLines(name, f, at(c)));
    c.args.forEach((a, i) => {
      if (!a.values) return;
      const pos = a.variadic ? `${i}+` : `${i}`;
      const values = isDynamic(a.values) ? `(__cssctl_dyn ${a.values.dynamic})` : a.values.join(' ');
      lines.push(`complete -c ${name} -n ${fq(at(c, pos))} -a ${fq(values)}`);
    });
  }
  const vflags = cmds.map((c) => {
    const names = c.flags.filter((f) => f.takesValue).flatMap(flagNames);
    return `        case ${fq(c.path.join(' '))}\n            printf '%s\\n' ${names.map(fq).join(' ')}`;
  });
  const canon = cmds.flatMap((c) =>
    c.commands.map((s) => {
      const words = [s.name, ...s.aliases].map((w) => fq(`${c.path.join(' ')}|${w}`)).join(' ');
      return `        case ${words}\n            echo ${fq(s.name)}`;
    }),
  );
  return `# fish completion for ${name}. ${HEADER}

function __cssctl_vflags
    switch $argv[1]
${vflags.join('\n')}
    end
end

function __cssctl_canon
    switch "$argv[1]|$argv[2]"
${canon.join('\n')}
    end
end

# Prints the command path of the words before the cursor, then how many positional arguments it has.
function __cssctl_state
    set -l words (commandline -opc)
    set -e words[1]
    set -l p ${fq(name)}
    set -l npos 0
    set -l skip 0
    set -l vf (__cssctl_vflags $p)
    for w in $words
        if test $skip -gt 0
            set skip (math $skip - 1)
            continue
        end
        switch $w
            case --
                break
            case '-*'
                if contains -- $w $vf
                    set skip 1
                end
            case '*'
                set -l c (__cssctl_canon $p $w)
                if test -n "$c"
                    set p "$p $c"
                    set npos 0
                    set vf (__cssctl_vflags $p)
                else
                    set npos (math $npos + 1)
                end
        end
    end
    echo $p
    echo $npos
end

# True when the cursor is at that command path (and, if given, at that positional index; N+ for N or later).
function __cssctl_at
    set -l s (__cssctl_state)
    test "$s[1]" = "$argv[1]"; or return 1
    set -q argv[2]; or return 0
    if string match -q -- '*+' $argv[2]
        test $s[2] -ge (string trim -r -c + -- $argv[2])
    else
        test $s[2] = $argv[2]
    end
end

# A comma-separated list: the current token's items so far, then each value not already given.
function __cssctl_list
    set -l token (commandline -ct)
    set -l head (string replace -r -- '^-[^=]*=' '' $token)
    set -l given
    if string match -q -- '*,*' $head
        set head (string replace -r -- ',[^,]*$' ',' $head)
        set given (string split , -- $head)
    else
        set head ''
    end
    for v in $argv
        contains -- $v $given; or printf '%s\n' $head$v
    end
end

# Values asked of cssctl at TAB time, with the --profile, --base-url and --workspace typed on the line.
function __cssctl_dyn
    set -l words (commandline -opc)
    set -l gopts
    set -l n (count $words)
    for i in (seq 2 $n)
        switch $words[$i]
            case --profile --base-url --workspace -w
                test $i -lt $n; and set -a gopts $words[$i] $words[(math $i + 1)]
            case '--profile=?*' '--base-url=?*' '--workspace=?*'
                set -a gopts $words[$i]
        end
    end
    ${name} __complete $argv[1] $gopts 2>/dev/null
end

complete -c ${name} -f
${lines.join('\n')}
`;
}
