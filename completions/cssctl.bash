# bash completion for cssctl. Generated from the command tree by `cssctl completion`; do not edit (npm run completions regenerates completions/).

__cssctl_spec() {
  case "$1" in
    'cssctl') subs='login logout auth connections scans findings webhooks api config version completion' flags='--version --profile --base-url --workspace -w --output -o --json --no-color --quiet -q --verbose --timeout --max-wait --help -h' vflags='--profile --base-url --workspace -w --output -o --timeout --max-wait' ;;
    'cssctl login') subs='' flags='--email --password-stdin --help -h --version --profile --base-url --workspace -w --output -o --json --no-color --quiet -q --verbose --timeout --max-wait' vflags='--email --profile --base-url --workspace -w --output -o --timeout --max-wait' ;;
    'cssctl logout') subs='' flags='--help -h --version --profile --base-url --workspace -w --output -o --json --no-color --quiet -q --verbose --timeout --max-wait' vflags='--profile --base-url --workspace -w --output -o --timeout --max-wait' ;;
    'cssctl auth') subs='status token refresh' flags='--help -h --version --profile --base-url --workspace -w --output -o --json --no-color --quiet -q --verbose --timeout --max-wait' vflags='--profile --base-url --workspace -w --output -o --timeout --max-wait' ;;
    'cssctl auth status') subs='' flags='--help -h --version --profile --base-url --workspace -w --output -o --json --no-color --quiet -q --verbose --timeout --max-wait' vflags='--profile --base-url --workspace -w --output -o --timeout --max-wait' ;;
    'cssctl auth token') subs='' flags='--help -h --version --profile --base-url --workspace -w --output -o --json --no-color --quiet -q --verbose --timeout --max-wait' vflags='--profile --base-url --workspace -w --output -o --timeout --max-wait' ;;
    'cssctl auth refresh') subs='' flags='--help -h --version --profile --base-url --workspace -w --output -o --json --no-color --quiet -q --verbose --timeout --max-wait' vflags='--profile --base-url --workspace -w --output -o --timeout --max-wait' ;;
    'cssctl connections') subs='list create' flags='--help -h --version --profile --base-url --workspace -w --output -o --json --no-color --quiet -q --verbose --timeout --max-wait' vflags='--profile --base-url --workspace -w --output -o --timeout --max-wait' ;;
    'cssctl connections list') subs='' flags='--limit --offset --all --help -h --version --profile --base-url --workspace -w --output -o --json --no-color --quiet -q --verbose --timeout --max-wait' vflags='--limit --offset --profile --base-url --workspace -w --output -o --timeout --max-wait' ;;
    'cssctl connections create') subs='' flags='--alias --provider --set --help -h --version --profile --base-url --workspace -w --output -o --json --no-color --quiet -q --verbose --timeout --max-wait' vflags='--alias --provider --set --profile --base-url --workspace -w --output -o --timeout --max-wait' ;;
    'cssctl scans') subs='create list get wait' flags='--help -h --version --profile --base-url --workspace -w --output -o --json --no-color --quiet -q --verbose --timeout --max-wait' vflags='--profile --base-url --workspace -w --output -o --timeout --max-wait' ;;
    'cssctl scans create') subs='' flags='--connection --wait --fail-on --wait-timeout --severity --no-step-summary --help -h --version --profile --base-url --workspace -w --output -o --json --no-color --quiet -q --verbose --timeout --max-wait' vflags='--connection --fail-on --wait-timeout --severity --profile --base-url --workspace -w --output -o --timeout --max-wait' ;;
    'cssctl scans list') subs='' flags='--status --limit --offset --all --help -h --version --profile --base-url --workspace -w --output -o --json --no-color --quiet -q --verbose --timeout --max-wait' vflags='--status --limit --offset --profile --base-url --workspace -w --output -o --timeout --max-wait' ;;
    'cssctl scans get') subs='' flags='--help -h --version --profile --base-url --workspace -w --output -o --json --no-color --quiet -q --verbose --timeout --max-wait' vflags='--profile --base-url --workspace -w --output -o --timeout --max-wait' ;;
    'cssctl scans wait') subs='' flags='--fail-on --wait-timeout --severity --no-step-summary --help -h --version --profile --base-url --workspace -w --output -o --json --no-color --quiet -q --verbose --timeout --max-wait' vflags='--fail-on --wait-timeout --severity --profile --base-url --workspace -w --output -o --timeout --max-wait' ;;
    'cssctl findings') subs='list' flags='--help -h --version --profile --base-url --workspace -w --output -o --json --no-color --quiet -q --verbose --timeout --max-wait' vflags='--profile --base-url --workspace -w --output -o --timeout --max-wait' ;;
    'cssctl findings list') subs='' flags='--severity --scan --limit --offset --all --help -h --version --profile --base-url --workspace -w --output -o --json --no-color --quiet -q --verbose --timeout --max-wait' vflags='--severity --scan --limit --offset --profile --base-url --workspace -w --output -o --timeout --max-wait' ;;
    'cssctl webhooks') subs='create list delete verify listen trigger' flags='--help -h --version --profile --base-url --workspace -w --output -o --json --no-color --quiet -q --verbose --timeout --max-wait' vflags='--profile --base-url --workspace -w --output -o --timeout --max-wait' ;;
    'cssctl webhooks create') subs='' flags='--url --events --secret-stdin --help -h --version --profile --base-url --workspace -w --output -o --json --no-color --quiet -q --verbose --timeout --max-wait' vflags='--url --events --profile --base-url --workspace -w --output -o --timeout --max-wait' ;;
    'cssctl webhooks list') subs='' flags='--limit --offset --all --help -h --version --profile --base-url --workspace -w --output -o --json --no-color --quiet -q --verbose --timeout --max-wait' vflags='--limit --offset --profile --base-url --workspace -w --output -o --timeout --max-wait' ;;
    'cssctl webhooks delete') subs='' flags='--help -h --version --profile --base-url --workspace -w --output -o --json --no-color --quiet -q --verbose --timeout --max-wait' vflags='--profile --base-url --workspace -w --output -o --timeout --max-wait' ;;
    'cssctl webhooks verify') subs='' flags='--signature --payload-file --secret-file --help -h --version --profile --base-url --workspace -w --output -o --json --no-color --quiet -q --verbose --timeout --max-wait' vflags='--signature --payload-file --secret-file --profile --base-url --workspace -w --output -o --timeout --max-wait' ;;
    'cssctl webhooks listen') subs='' flags='--host --port --path --forward-to --print-secret --secret-file --help -h --version --profile --base-url --workspace -w --output -o --json --no-color --quiet -q --verbose --timeout --max-wait' vflags='--host --port --path --forward-to --secret-file --profile --base-url --workspace -w --output -o --timeout --max-wait' ;;
    'cssctl webhooks trigger') subs='' flags='--url --secret-file --help -h --version --profile --base-url --workspace -w --output -o --json --no-color --quiet -q --verbose --timeout --max-wait' vflags='--url --secret-file --profile --base-url --workspace -w --output -o --timeout --max-wait' ;;
    'cssctl api') subs='' flags='--method -X --field -f --input --paginate --help -h --version --profile --base-url --workspace -w --output -o --json --no-color --quiet -q --verbose --timeout --max-wait' vflags='--method -X --field -f --input --profile --base-url --workspace -w --output -o --timeout --max-wait' ;;
    'cssctl config') subs='list get set unset path' flags='--help -h --version --profile --base-url --workspace -w --output -o --json --no-color --quiet -q --verbose --timeout --max-wait' vflags='--profile --base-url --workspace -w --output -o --timeout --max-wait' ;;
    'cssctl config list') subs='' flags='--help -h --version --profile --base-url --workspace -w --output -o --json --no-color --quiet -q --verbose --timeout --max-wait' vflags='--profile --base-url --workspace -w --output -o --timeout --max-wait' ;;
    'cssctl config get') subs='' flags='--help -h --version --profile --base-url --workspace -w --output -o --json --no-color --quiet -q --verbose --timeout --max-wait' vflags='--profile --base-url --workspace -w --output -o --timeout --max-wait' ;;
    'cssctl config set') subs='' flags='--help -h --version --profile --base-url --workspace -w --output -o --json --no-color --quiet -q --verbose --timeout --max-wait' vflags='--profile --base-url --workspace -w --output -o --timeout --max-wait' ;;
    'cssctl config unset') subs='' flags='--help -h --version --profile --base-url --workspace -w --output -o --json --no-color --quiet -q --verbose --timeout --max-wait' vflags='--profile --base-url --workspace -w --output -o --timeout --max-wait' ;;
    'cssctl config path') subs='' flags='--help -h --version --profile --base-url --workspace -w --output -o --json --no-color --quiet -q --verbose --timeout --max-wait' vflags='--profile --base-url --workspace -w --output -o --timeout --max-wait' ;;
    'cssctl version') subs='' flags='--help -h --version --profile --base-url --workspace -w --output -o --json --no-color --quiet -q --verbose --timeout --max-wait' vflags='--profile --base-url --workspace -w --output -o --timeout --max-wait' ;;
    'cssctl completion') subs='' flags='--help -h --version --profile --base-url --workspace -w --output -o --json --no-color --quiet -q --verbose --timeout --max-wait' vflags='--profile --base-url --workspace -w --output -o --timeout --max-wait' ;;
    *) subs='' flags='' vflags='' ;;
  esac
}

__cssctl_canon() {
  canon=
  case "$1|$2" in
    'cssctl|login') canon='login' ;;
    'cssctl|logout') canon='logout' ;;
    'cssctl|auth') canon='auth' ;;
    'cssctl|connections') canon='connections' ;;
    'cssctl|scans') canon='scans' ;;
    'cssctl|findings') canon='findings' ;;
    'cssctl|webhooks') canon='webhooks' ;;
    'cssctl|api') canon='api' ;;
    'cssctl|config') canon='config' ;;
    'cssctl|version') canon='version' ;;
    'cssctl|completion') canon='completion' ;;
    'cssctl auth|status') canon='status' ;;
    'cssctl auth|token') canon='token' ;;
    'cssctl auth|refresh') canon='refresh' ;;
    'cssctl connections|list') canon='list' ;;
    'cssctl connections|create') canon='create' ;;
    'cssctl scans|create') canon='create' ;;
    'cssctl scans|list') canon='list' ;;
    'cssctl scans|get') canon='get' ;;
    'cssctl scans|wait') canon='wait' ;;
    'cssctl findings|list') canon='list' ;;
    'cssctl webhooks|create') canon='create' ;;
    'cssctl webhooks|list') canon='list' ;;
    'cssctl webhooks|delete') canon='delete' ;;
    'cssctl webhooks|verify') canon='verify' ;;
    'cssctl webhooks|listen') canon='listen' ;;
    'cssctl webhooks|trigger') canon='trigger' ;;
    'cssctl config|list') canon='list' ;;
    'cssctl config|get') canon='get' ;;
    'cssctl config|set') canon='set' ;;
    'cssctl config|unset') canon='unset' ;;
    'cssctl config|path') canon='path' ;;
  esac
}

__cssctl_values() {
  vals='' dyn='' list=''
  case "$1" in
    'cssctl|--profile') dyn=profiles ;;
    'cssctl|--output'|'cssctl|-o') vals='table json ndjson csv sarif junit github' ;;
    'cssctl login|--profile') dyn=profiles ;;
    'cssctl login|--output'|'cssctl login|-o') vals='table json ndjson csv' ;;
    'cssctl logout|--profile') dyn=profiles ;;
    'cssctl logout|--output'|'cssctl logout|-o') vals='table json ndjson csv' ;;
    'cssctl auth|--profile') dyn=profiles ;;
    'cssctl auth|--output'|'cssctl auth|-o') vals='table json ndjson csv sarif junit github' ;;
    'cssctl auth status|--profile') dyn=profiles ;;
    'cssctl auth status|--output'|'cssctl auth status|-o') vals='table json ndjson csv' ;;
    'cssctl auth token|--profile') dyn=profiles ;;
    'cssctl auth token|--output'|'cssctl auth token|-o') vals='table json ndjson csv' ;;
    'cssctl auth refresh|--profile') dyn=profiles ;;
    'cssctl auth refresh|--output'|'cssctl auth refresh|-o') vals='table json ndjson csv' ;;
    'cssctl connections|--profile') dyn=profiles ;;
    'cssctl connections|--output'|'cssctl connections|-o') vals='table json ndjson csv sarif junit github' ;;
    'cssctl connections list|--profile') dyn=profiles ;;
    'cssctl connections list|--output'|'cssctl connections list|-o') vals='table json ndjson csv' ;;
    'cssctl connections create|--profile') dyn=profiles ;;
    'cssctl connections create|--output'|'cssctl connections create|-o') vals='table json ndjson csv' ;;
    'cssctl scans|--profile') dyn=profiles ;;
    'cssctl scans|--output'|'cssctl scans|-o') vals='table json ndjson csv sarif junit github' ;;
    'cssctl scans create|--fail-on') vals='critical high medium low info' ;;
    'cssctl scans create|--severity') vals='critical high medium low info' list=1 ;;
    'cssctl scans create|--profile') dyn=profiles ;;
    'cssctl scans create|--output'|'cssctl scans create|-o') vals='table json ndjson csv sarif junit github' ;;
    'cssctl scans list|--status') vals='queued running completed failed' ;;
    'cssctl scans list|--profile') dyn=profiles ;;
    'cssctl scans list|--output'|'cssctl scans list|-o') vals='table json ndjson csv' ;;
    'cssctl scans get|--profile') dyn=profiles ;;
    'cssctl scans get|--output'|'cssctl scans get|-o') vals='table json ndjson csv' ;;
    'cssctl scans wait|--fail-on') vals='critical high medium low info' ;;
    'cssctl scans wait|--severity') vals='critical high medium low info' list=1 ;;
    'cssctl scans wait|--profile') dyn=profiles ;;
    'cssctl scans wait|--output'|'cssctl scans wait|-o') vals='table json ndjson csv sarif junit github' ;;
    'cssctl findings|--profile') dyn=profiles ;;
    'cssctl findings|--output'|'cssctl findings|-o') vals='table json ndjson csv sarif junit github' ;;
    'cssctl findings list|--severity') vals='critical high medium low info' list=1 ;;
    'cssctl findings list|--profile') dyn=profiles ;;
    'cssctl findings list|--output'|'cssctl findings list|-o') vals='table json ndjson csv sarif junit github' ;;
    'cssctl webhooks|--profile') dyn=profiles ;;
    'cssctl webhooks|--output'|'cssctl webhooks|-o') vals='table json ndjson csv sarif junit github' ;;
    'cssctl webhooks create|--events') vals='scan.completed scan.failed finding.critical finding.high compliance.score_dropped all' list=1 ;;
    'cssctl webhooks create|--profile') dyn=profiles ;;
    'cssctl webhooks create|--output'|'cssctl webhooks create|-o') vals='table json ndjson csv' ;;
    'cssctl webhooks list|--profile') dyn=profiles ;;
    'cssctl webhooks list|--output'|'cssctl webhooks list|-o') vals='table json ndjson csv' ;;
    'cssctl webhooks delete|--profile') dyn=profiles ;;
    'cssctl webhooks delete|--output'|'cssctl webhooks delete|-o') vals='table json ndjson csv' ;;
    'cssctl webhooks verify|--profile') dyn=profiles ;;
    'cssctl webhooks verify|--output'|'cssctl webhooks verify|-o') vals='table json ndjson csv' ;;
    'cssctl webhooks listen|--profile') dyn=profiles ;;
    'cssctl webhooks listen|--output'|'cssctl webhooks listen|-o') vals='table json ndjson csv' ;;
    'cssctl webhooks trigger|--profile') dyn=profiles ;;
    'cssctl webhooks trigger|--output'|'cssctl webhooks trigger|-o') vals='table json ndjson csv' ;;
    'cssctl webhooks trigger#0') vals='scan.completed scan.failed finding.critical finding.high compliance.score_dropped' ;;
    'cssctl api|--profile') dyn=profiles ;;
    'cssctl api|--output'|'cssctl api|-o') vals='json ndjson' ;;
    'cssctl config|--profile') dyn=profiles ;;
    'cssctl config|--output'|'cssctl config|-o') vals='table json ndjson csv sarif junit github' ;;
    'cssctl config list|--profile') dyn=profiles ;;
    'cssctl config list|--output'|'cssctl config list|-o') vals='table json ndjson csv' ;;
    'cssctl config get|--profile') dyn=profiles ;;
    'cssctl config get|--output'|'cssctl config get|-o') vals='table json ndjson csv' ;;
    'cssctl config get#0') vals='base_url workspace email output' ;;
    'cssctl config set|--profile') dyn=profiles ;;
    'cssctl config set|--output'|'cssctl config set|-o') vals='table json ndjson csv' ;;
    'cssctl config set#0') vals='base_url workspace email output' ;;
    'cssctl config unset|--profile') dyn=profiles ;;
    'cssctl config unset|--output'|'cssctl config unset|-o') vals='table json ndjson csv' ;;
    'cssctl config unset#0') vals='base_url workspace email output' ;;
    'cssctl config path|--profile') dyn=profiles ;;
    'cssctl config path|--output'|'cssctl config path|-o') vals='table json ndjson csv' ;;
    'cssctl version|--profile') dyn=profiles ;;
    'cssctl version|--output'|'cssctl version|-o') vals='table json ndjson csv' ;;
    'cssctl completion|--profile') dyn=profiles ;;
    'cssctl completion|--output'|'cssctl completion|-o') vals='table json ndjson csv' ;;
    'cssctl completion#0') vals='bash zsh fish' ;;
  esac
}

_cssctl() {
  local cur=${COMP_WORDS[COMP_CWORD]} path=cssctl npos=0 i w skip=0 flag=''
  local subs flags vflags canon vals dyn list
  COMPREPLY=()
  __cssctl_spec "$path"
  for ((i = 1; i < COMP_CWORD; i++)); do
    w=${COMP_WORDS[i]}
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
          [[ ${COMP_WORDS[i + 1]} == = ]] && skip=2
        fi
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
  if [[ -z $flag && $cur == --*=* && " $vflags " == *" ${cur%%=*} "* ]]; then
    flag=${cur%%=*} prefix="$flag=" cur=${cur#*=}
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
  [[ -n $dyn ]] && vals=$("${COMP_WORDS[0]}" __complete "$dyn" 2>/dev/null)
  if [[ -n $list && $cur == *,* ]]; then
    # a comma-separated list: complete the item after the last comma
    prefix="$prefix${cur%,*}," cur=${cur##*,}
  fi
  if [[ -n $vals ]]; then
    COMPREPLY=($(compgen -P "$prefix" -W "$vals" -- "$cur"))
    [[ -n $list ]] && compopt -o nospace 2>/dev/null
  else
    compopt -o default 2>/dev/null
  fi
  return 0
}

complete -F _cssctl cssctl
