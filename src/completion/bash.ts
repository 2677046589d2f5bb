// The bash completion script, generated from the model (see model.ts). Plain data in case statements
// plus one walker: no node start-up on TAB, except to read profile names.
import { allCommands, flagNames, isDynamic, type CommandSpec } from './model.js';
import { HEADER, sq, valueEntries } from './shared.js';

export function bashScript(root: CommandSpec): string {
  const cmds = allCommands(root);
  const key = (c: CommandSpec) => sq(c.path.join(' '));
  const spec = cmds.map((c) => {
    const subs = c.commands.flatMap((s) => [s.name, ...s.aliases]).join(' ');
    const flags = c.flags.flatMap(flagNames).join(' ');
    const vflags = c.flags
      .filter((f) => f.takesValue)
      .flatMap(flagNames)
      .join(' ');
    return `    ${key(c)}) subs=${sq(subs)} flags=${sq(flags)} vflags=${sq(vflags)} ;;`;
  });
  const canon = cmds.flatMap((c) =>
    c.commands.map((s) => {
      const words = [s.name, ...s.aliases].map((w) => sq(`${c.path.join(' ')}|${w}`)).join('|');
      return `    ${words}) canon=${sq(s.name)} ;;`;
    }),
  );
  const values = valueEntries(cmds).map(({ pattern, values: v, list }) =>
    isDynamic(v)
      ? `    ${pattern}) dyn=${v.dynamic}${list ? ' list=1' : ''} ;;`
      : `    ${pattern}) vals=${sq(v.join(' '))}${list ? ' list=1' : ''} ;;`,
  );
  return `# bash completion for ${root.name}. ${HEADER}

__cssctl_spec() {
  case "$1" in
${spec.join('\n')}
    *) subs='' flags='' vflags='' ;;
  esac
}

__cssctl_canon() {
  canon=
  case "$1|$2" in
${canon.join('\n')}
  esac
}

__cssctl_values() {
  vals='' dyn='' list=''
  case "$1" in
${values.join('\n')}
  esac
}

_cssctl() {
  local cur=\${COMP_WORDS[COMP_CWORD]} path=${root.name} npos=0 i w skip=0 flag='' v
  local subs flags vflags canon vals dyn list
  # --profile, --base-url and --workspace as typed, for the values asked of the service
  local -a gopts=()
  COMPREPLY=()
  __cssctl_spec "$path"
  for ((i = 1; i < COMP_CWORD; i++)); do
    w=\${COMP_WORDS[i]}
    if ((skip > 0)); then
      skip=$((skip - 1))
      continue
    fi
    case $w in
      --) break ;;
      -*)
        if [[ " $vflags " == *" $w "* ]]; then
          flag=$w skip=1
          # --flag=value arrives as three words when = is in COMP_WORDBREAKS
          [[ \${COMP_WORDS[i + 1]} == = ]] && skip=2
          case $w in
            --profile | --base-url | --workspace | -w) ((i + skip < COMP_CWORD)) && gopts+=("$w" "\${COMP_WORDS[i + skip]}") ;;
          esac
        fi
        case $w in --profile=?* | --base-url=?* | --workspace=?*) gopts+=("$w") ;; esac
        ;;
      *)
        __cssctl_canon "$path" "$w"
        if [[ -n $canon ]]; then
          path="$path $canon" npos=0
          __cssctl_spec "$path"
        else
          npos=$((npos + 1))
        fi
        ;;
    esac
  done
  ((skip > 0)) || flag=''
  [[ -n $flag && $cur == = ]] && cur=''
  local prefix=''
  if [[ -z $flag && $cur == --*=* && " $vflags " == *" \${cur%%=*} "* ]]; then
    flag=\${cur%%=*} prefix="$flag=" cur=\${cur#*=}
  fi
  if [[ -n $flag ]]; then
    __cssctl_values "$path|$flag"
  elif [[ $cur == -* ]]; then
    COMPREPLY=($(compgen -W "$flags" -- "$cur"))
    return 0
  elif [[ -n $subs ]]; then
    COMPREPLY=($(compgen -W "$subs" -- "$cur"))
    return 0
  else
    __cssctl_values "$path#$npos"
  fi
  [[ -n $dyn ]] && vals=$("\${COMP_WORDS[0]}" __complete "$dyn" "\${gopts[@]}" 2>/dev/null)
  if [[ -n $list && $cur == *,* ]]; then
    # a comma-separated list: complete the item after the last comma, without the values already given
    local given=",\${cur%,*}," rest=''
    for v in $vals; do [[ $given == *",$v,"* ]] || rest="$rest $v"; done
    vals=$rest prefix="$prefix\${cur%,*}," cur=\${cur##*,}
  fi
  if [[ -n $vals ]]; then
    COMPREPLY=($(compgen -P "$prefix" -W "$vals" -- "$cur"))
    [[ -n $list ]] && compopt -o nospace 2>/dev/null
  elif [[ -z $dyn ]]; then
    # a free value: file names; values from the service that did not come: nothing
    compopt -o default 2>/dev/null
  fi
  return 0
}

complete -F _cssctl ${root.name}
`;
}
