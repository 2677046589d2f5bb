// The zsh completion script: the same walker as bash, with descriptions (_describe). Works both from a
// folder on $fpath (autoloaded as _cssctl) and with `source <(cssctl completion zsh)` after compinit.
import { allCommands, flagNames, isDynamic, type CommandSpec } from './model.js';
import { HEADER, sq, valueEntries } from './shared.js';

/** A `name:description` entry for _describe (a colon in the name is escaped). */
function entry(name: string, description: string): string {
  return sq(`${name.replace(/:/g, '\\:')}:${description.replace(/\s+/g, ' ').trim()}`);
}

export function zshScript(root: CommandSpec): string {
  const cmds = allCommands(root);
  const spec = cmds.map((c) => {
    const subs = c.commands.flatMap((s) => [s.name, ...s.aliases].map((n) => entry(n, s.description)));
    const flags = c.flags.flatMap((f) => flagNames(f).map((n) => entry(n, f.description)));
    const vflags = c.flags.filter((f) => f.takesValue).flatMap(flagNames);
    return [
      `    (${sq(c.path.join(' '))})`,
      `      subs=(${subs.join(' ')})`,
      `      flags=(${flags.join(' ')})`,
      `      vflags=(${vflags.join(' ')}) ;;`,
    ].join('\n');
  });
  const canon = cmds.flatMap((c) =>
    c.commands.map((s) => {
      const words = [s.name, ...s.aliases].map((w) => sq(`${c.path.join(' ')}|${w}`)).join('|');
      return `    (${words}) canon=${sq(s.name)} ;;`;
    }),
  );
  const values = valueEntries(cmds).map(({ pattern, values: v, list }) =>
    isDynamic(v)
      ? `    (${pattern}) dyn=${v.dynamic}${list ? ' list=1' : ''} ;;`
      : `    (${pattern}) vals=(${v.map(sq).join(' ')})${list ? ' list=1' : ''} ;;`,
  );
  return `#compdef ${root.name}
# zsh completion for ${root.name}. ${HEADER}

__cssctl_spec() {
  case $1 in
${spec.join('\n')}
    (*) subs=() flags=() vflags=() ;;
  esac
}

__cssctl_canon() {
  canon=
  case "$1|$2" in
${canon.join('\n')}
  esac
}

__cssctl_values() {
  vals=() dyn= list=
  case $1 in
${values.join('\n')}
  esac
}

_cssctl() {
  local cmdpath=${root.name} cur=\${words[CURRENT]} w flag= canon= dyn= list=
  local -i i npos=0 skip=0
  local -a subs flags vflags vals given
  # --profile, --base-url and --workspace as typed, for the values asked of the service
  local -a gopts
  __cssctl_spec $cmdpath
  for (( i = 2; i < CURRENT; i++ )); do
    w=\${words[i]}
    if (( skip > 0 )); then
      skip=$(( skip - 1 ))
      continue
    fi
    case $w in
      (--) break ;;
      (-*)
        if (( \${vflags[(Ie)$w]} )); then
          flag=$w skip=1
          case $w in
            (--profile|--base-url|--workspace|-w) (( i + 1 < CURRENT )) && gopts+=($w \${words[i+1]}) ;;
          esac
        fi
        case $w in (--profile=?*|--base-url=?*|--workspace=?*) gopts+=($w) ;; esac
        ;;
      (*)
        __cssctl_canon $cmdpath $w
        if [[ -n $canon ]]; then
          cmdpath="$cmdpath $canon" npos=0
          __cssctl_spec $cmdpath
        else
          npos=$(( npos + 1 ))
        fi
        ;;
    esac
  done
  (( skip > 0 )) || flag=
  if [[ -z $flag && $cur == --*=* ]] && (( \${vflags[(Ie)\${cur%%=*}]} )); then
    flag=\${cur%%=*}
    compset -P '*='
  fi
  if [[ -n $flag ]]; then
    __cssctl_values "$cmdpath|$flag"
  elif [[ $cur == -* ]]; then
    _describe -t options 'option' flags
    return
  elif (( $#subs )); then
    _describe -t commands 'command' subs
    return
  else
    __cssctl_values "$cmdpath#$npos"
  fi
  [[ -n $dyn ]] && vals=(\${(f)"$(\${words[1]} __complete $dyn $gopts 2>/dev/null)"})
  if (( $#vals )) && [[ -n $list ]]; then
    # a comma-separated list: complete the item after the last comma, without the values already given; a
    # comma follows, removed on space
    if [[ $PREFIX == *,* ]]; then
      given=(\${(s:,:)\${PREFIX%,*}})
      vals=(\${vals:|given})
    fi
    compset -P '*,'
    (( $#vals )) && compadd -qS, -a vals
  elif (( $#vals )); then
    compadd -a vals
  elif [[ -z $dyn ]]; then
    # a free value: file names; values from the service that did not come: nothing
    _default
  fi
}

if [[ \${funcstack[1]} == _cssctl ]]; then
  # autoloaded from $fpath: this file is the body of _cssctl, which the line above has just redefined
  _cssctl "$@"
else
  # sourced: bind the completer (compinit must have run)
  compdef _cssctl ${root.name}
fi
`;
}
