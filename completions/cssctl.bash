# bash completion for cssctl. Generated from the command tree by `cssctl completion`; do not edit (npm run completions regenerates completions/).

__cssctl_spec() {
  case "$1" in
    'cssctl') subs='login logout auth connections scans findings compliance webhooks api config mcp version doctor completion help' flags='--version --profile --base-url --workspace -w --output -o --json --no-color --quiet -q --verbose --timeout --max-wait --jq --arg --argjson --jq-exit-status --help -h' vflags='--profile --base-url --workspace -w --output -o --timeout --max-wait --jq --arg --argjson' ;;
    'cssctl login') subs='' flags='--email --password-stdin --help -h --version --profile --base-url --workspace -w --output -o --json --no-color --quiet -q --verbose --timeout --max-wait --jq --arg --argjson --jq-exit-status' vflags='--email --profile --base-url --workspace -w --output -o --timeout --max-wait --jq --arg --argjson' ;;
    'cssctl logout') subs='' flags='--help -h --version --profile --base-url --workspace -w --output -o --json --no-color --quiet -q --verbose --timeout --max-wait --jq --arg --argjson --jq-exit-status' vflags='--profile --base-url --workspace -w --output -o --timeout --max-wait --jq --arg --argjson' ;;
    'cssctl auth') subs='status token switch refresh' flags='--help -h --version --profile --base-url --workspace -w --output -o --json --no-color --quiet -q --verbose --timeout --max-wait --jq --arg --argjson --jq-exit-status' vflags='--profile --base-url --workspace -w --output -o --timeout --max-wait --jq --arg --argjson' ;;
    'cssctl auth status') subs='' flags='--help -h --version --profile --base-url --workspace -w --output -o --json --no-color --quiet -q --verbose --timeout --max-wait --jq --arg --argjson --jq-exit-status' vflags='--profile --base-url --workspace -w --output -o --timeout --max-wait --jq --arg --argjson' ;;
    'cssctl auth token') subs='' flags='--help -h --version --profile --base-url --workspace -w --output -o --json --no-color --quiet -q --verbose --timeout --max-wait --jq --arg --argjson --jq-exit-status' vflags='--profile --base-url --workspace -w --output -o --timeout --max-wait --jq --arg --argjson' ;;
    'cssctl auth switch') subs='' flags='--help -h --version --profile --base-url --workspace -w --output -o --json --no-color --quiet -q --verbose --timeout --max-wait --jq --arg --argjson --jq-exit-status' vflags='--profile --base-url --workspace -w --output -o --timeout --max-wait --jq --arg --argjson' ;;
    'cssctl auth refresh') subs='' flags='--help -h --version --profile --base-url --workspace -w --output -o --json --no-color --quiet -q --verbose --timeout --max-wait --jq --arg --argjson --jq-exit-status' vflags='--profile --base-url --workspace -w --output -o --timeout --max-wait --jq --arg --argjson' ;;
    'cssctl connections') subs='list create' flags='--help -h --version --profile --base-url --workspace -w --output -o --json --no-color --quiet -q --verbose --timeout --max-wait --jq --arg --argjson --jq-exit-status' vflags='--profile --base-url --workspace -w --output -o --timeout --max-wait --jq --arg --argjson' ;;
    'cssctl connections list') subs='' flags='--limit --offset --all --columns --help -h --version --profile --base-url --workspace -w --output -o --json --no-color --quiet -q --verbose --timeout --max-wait --jq --arg --argjson --jq-exit-status' vflags='--limit --offset --columns --profile --base-url --workspace -w --output -o --timeout --max-wait --jq --arg --argjson' ;;
    'cssctl connections create') subs='' flags='--alias --provider --set --help -h --version --profile --base-url --workspace -w --output -o --json --no-color --quiet -q --verbose --timeout --max-wait --jq --arg --argjson --jq-exit-status' vflags='--alias --provider --set --profile --base-url --workspace -w --output -o --timeout --max-wait --jq --arg --argjson' ;;
    'cssctl scans') subs='create list get wait' flags='--help -h --version --profile --base-url --workspace -w --output -o --json --no-color --quiet -q --verbose --timeout --max-wait --jq --arg --argjson --jq-exit-status' vflags='--profile --base-url --workspace -w --output -o --timeout --max-wait --jq --arg --argjson' ;;
    'cssctl scans create') subs='' flags='--connection --wait --ignore-file --no-ignore --show-ignored --output-file --report --fail-on --wait-timeout --severity --no-step-summary --baseline --help -h --version --profile --base-url --workspace -w --output -o --json --no-color --quiet -q --verbose --timeout --max-wait --jq --arg --argjson --jq-exit-status' vflags='--connection --ignore-file --output-file --report --fail-on --wait-timeout --severity --baseline --profile --base-url --workspace -w --output -o --timeout --max-wait --jq --arg --argjson' ;;
    'cssctl scans list') subs='' flags='--connection --status --limit --offset --all --columns --help -h --version --profile --base-url --workspace -w --output -o --json --no-color --quiet -q --verbose --timeout --max-wait --jq --arg --argjson --jq-exit-status' vflags='--connection --status --limit --offset --columns --profile --base-url --workspace -w --output -o --timeout --max-wait --jq --arg --argjson' ;;
    'cssctl scans get') subs='' flags='--help -h --version --profile --base-url --workspace -w --output -o --json --no-color --quiet -q --verbose --timeout --max-wait --jq --arg --argjson --jq-exit-status' vflags='--profile --base-url --workspace -w --output -o --timeout --max-wait --jq --arg --argjson' ;;
    'cssctl scans wait') subs='' flags='--ignore-file --no-ignore --show-ignored --output-file --report --fail-on --wait-timeout --severity --no-step-summary --baseline --help -h --version --profile --base-url --workspace -w --output -o --json --no-color --quiet -q --verbose --timeout --max-wait --jq --arg --argjson --jq-exit-status' vflags='--ignore-file --output-file --report --fail-on --wait-timeout --severity --baseline --profile --base-url --workspace -w --output -o --timeout --max-wait --jq --arg --argjson' ;;
    'cssctl findings') subs='list summary diff ignore get' flags='--help -h --version --profile --base-url --workspace -w --output -o --json --no-color --quiet -q --verbose --timeout --max-wait --jq --arg --argjson --jq-exit-status' vflags='--profile --base-url --workspace -w --output -o --timeout --max-wait --jq --arg --argjson' ;;
    'cssctl findings list') subs='' flags='--ignore-file --no-ignore --show-ignored --output-file --report --connection --status --severity --scan --limit --offset --all --columns --help -h --version --profile --base-url --workspace -w --output -o --json --no-color --quiet -q --verbose --timeout --max-wait --jq --arg --argjson --jq-exit-status' vflags='--ignore-file --output-file --report --connection --status --severity --scan --limit --offset --columns --profile --base-url --workspace -w --output -o --timeout --max-wait --jq --arg --argjson' ;;
    'cssctl findings summary') subs='' flags='--connection --status --by --scan --severity --ignore-file --no-ignore --help -h --version --profile --base-url --workspace -w --output -o --json --no-color --quiet -q --verbose --timeout --max-wait --jq --arg --argjson --jq-exit-status' vflags='--connection --status --by --scan --severity --ignore-file --profile --base-url --workspace -w --output -o --timeout --max-wait --jq --arg --argjson' ;;
    'cssctl findings diff') subs='' flags='--ignore-file --no-ignore --show-ignored --output-file --report --connection --status --base --head --severity --state --fail-on --help -h --version --profile --base-url --workspace -w --output -o --json --no-color --quiet -q --verbose --timeout --max-wait --jq --arg --argjson --jq-exit-status' vflags='--ignore-file --output-file --report --connection --status --base --head --severity --state --fail-on --profile --base-url --workspace -w --output -o --timeout --max-wait --jq --arg --argjson' ;;
    'cssctl findings ignore') subs='' flags='--reason --expires --ignore-file --help -h --version --profile --base-url --workspace -w --output -o --json --no-color --quiet -q --verbose --timeout --max-wait --jq --arg --argjson --jq-exit-status' vflags='--reason --expires --ignore-file --profile --base-url --workspace -w --output -o --timeout --max-wait --jq --arg --argjson' ;;
    'cssctl findings get') subs='' flags='--help -h --version --profile --base-url --workspace -w --output -o --json --no-color --quiet -q --verbose --timeout --max-wait --jq --arg --argjson --jq-exit-status' vflags='--profile --base-url --workspace -w --output -o --timeout --max-wait --jq --arg --argjson' ;;
    'cssctl compliance') subs='' flags='--fail-under --no-step-summary --help -h --version --profile --base-url --workspace -w --output -o --json --no-color --quiet -q --verbose --timeout --max-wait --jq --arg --argjson --jq-exit-status' vflags='--fail-under --profile --base-url --workspace -w --output -o --timeout --max-wait --jq --arg --argjson' ;;
    'cssctl webhooks') subs='create list delete verify listen replay trigger' flags='--help -h --version --profile --base-url --workspace -w --output -o --json --no-color --quiet -q --verbose --timeout --max-wait --jq --arg --argjson --jq-exit-status' vflags='--profile --base-url --workspace -w --output -o --timeout --max-wait --jq --arg --argjson' ;;
    'cssctl webhooks create') subs='' flags='--url --events --secret-stdin --help -h --version --profile --base-url --workspace -w --output -o --json --no-color --quiet -q --verbose --timeout --max-wait --jq --arg --argjson --jq-exit-status' vflags='--url --events --profile --base-url --workspace -w --output -o --timeout --max-wait --jq --arg --argjson' ;;
    'cssctl webhooks list') subs='' flags='--limit --offset --all --columns --help -h --version --profile --base-url --workspace -w --output -o --json --no-color --quiet -q --verbose --timeout --max-wait --jq --arg --argjson --jq-exit-status' vflags='--limit --offset --columns --profile --base-url --workspace -w --output -o --timeout --max-wait --jq --arg --argjson' ;;
    'cssctl webhooks delete') subs='' flags='--help -h --version --profile --base-url --workspace -w --output -o --json --no-color --quiet -q --verbose --timeout --max-wait --jq --arg --argjson --jq-exit-status' vflags='--profile --base-url --workspace -w --output -o --timeout --max-wait --jq --arg --argjson' ;;
    'cssctl webhooks verify') subs='' flags='--signature --payload-file --secret-file --help -h --version --profile --base-url --workspace -w --output -o --json --no-color --quiet -q --verbose --timeout --max-wait --jq --arg --argjson --jq-exit-status' vflags='--signature --payload-file --secret-file --profile --base-url --workspace -w --output -o --timeout --max-wait --jq --arg --argjson' ;;
    'cssctl webhooks listen') subs='' flags='--host --port --path --forward-to --events --save --tolerance --forward-duplicates --print-secret --secret-file --help -h --version --profile --base-url --workspace -w --output -o --json --no-color --quiet -q --verbose --timeout --max-wait --jq --arg --argjson --jq-exit-status' vflags='--host --port --path --forward-to --events --save --tolerance --secret-file --profile --base-url --workspace -w --output -o --timeout --max-wait --jq --arg --argjson' ;;
    'cssctl webhooks replay') subs='' flags='--to --resign --secret-file --help -h --version --profile --base-url --workspace -w --output -o --json --no-color --quiet -q --verbose --timeout --max-wait --jq --arg --argjson --jq-exit-status' vflags='--to --secret-file --profile --base-url --workspace -w --output -o --timeout --max-wait --jq --arg --argjson' ;;
    'cssctl webhooks trigger') subs='' flags='--url --secret-file --help -h --version --profile --base-url --workspace -w --output -o --json --no-color --quiet -q --verbose --timeout --max-wait --jq --arg --argjson --jq-exit-status' vflags='--url --secret-file --profile --base-url --workspace -w --output -o --timeout --max-wait --jq --arg --argjson' ;;
    'cssctl api') subs='' flags='--method -X --field -f --input --paginate --help -h --version --profile --base-url --workspace -w --output -o --json --no-color --quiet -q --verbose --timeout --max-wait --jq --arg --argjson --jq-exit-status' vflags='--method -X --field -f --input --profile --base-url --workspace -w --output -o --timeout --max-wait --jq --arg --argjson' ;;
    'cssctl config') subs='list get set unset profiles path' flags='--help -h --version --profile --base-url --workspace -w --output -o --json --no-color --quiet -q --verbose --timeout --max-wait --jq --arg --argjson --jq-exit-status' vflags='--profile --base-url --workspace -w --output -o --timeout --max-wait --jq --arg --argjson' ;;
    'cssctl config list') subs='' flags='--help -h --version --profile --base-url --workspace -w --output -o --json --no-color --quiet -q --verbose --timeout --max-wait --jq --arg --argjson --jq-exit-status' vflags='--profile --base-url --workspace -w --output -o --timeout --max-wait --jq --arg --argjson' ;;
    'cssctl config get') subs='' flags='--help -h --version --profile --base-url --workspace -w --output -o --json --no-color --quiet -q --verbose --timeout --max-wait --jq --arg --argjson --jq-exit-status' vflags='--profile --base-url --workspace -w --output -o --timeout --max-wait --jq --arg --argjson' ;;
    'cssctl config set') subs='' flags='--help -h --version --profile --base-url --workspace -w --output -o --json --no-color --quiet -q --verbose --timeout --max-wait --jq --arg --argjson --jq-exit-status' vflags='--profile --base-url --workspace -w --output -o --timeout --max-wait --jq --arg --argjson' ;;
    'cssctl config unset') subs='' flags='--help -h --version --profile --base-url --workspace -w --output -o --json --no-color --quiet -q --verbose --timeout --max-wait --jq --arg --argjson --jq-exit-status' vflags='--profile --base-url --workspace -w --output -o --timeout --max-wait --jq --arg --argjson' ;;
    'cssctl config profiles') subs='' flags='--help -h --version --profile --base-url --workspace -w --output -o --json --no-color --quiet -q --verbose --timeout --max-wait --jq --arg --argjson --jq-exit-status' vflags='--profile --base-url --workspace -w --output -o --timeout --max-wait --jq --arg --argjson' ;;
    'cssctl config path') subs='' flags='--help -h --version --profile --base-url --workspace -w --output -o --json --no-color --quiet -q --verbose --timeout --max-wait --jq --arg --argjson --jq-exit-status' vflags='--profile --base-url --workspace -w --output -o --timeout --max-wait --jq --arg --argjson' ;;
    'cssctl mcp') subs='config' flags='--allow-write --toolsets --tools --help -h --version --profile --base-url --workspace -w --output -o --json --no-color --quiet -q --verbose --timeout --max-wait --jq --arg --argjson --jq-exit-status' vflags='--toolsets --tools --profile --base-url --workspace -w --output -o --timeout --max-wait --jq --arg --argjson' ;;
    'cssctl mcp config') subs='' flags='--client --allow-write --toolsets --tools --help -h --version --profile --base-url --workspace -w --output -o --json --no-color --quiet -q --verbose --timeout --max-wait --jq --arg --argjson --jq-exit-status' vflags='--client --toolsets --tools --profile --base-url --workspace -w --output -o --timeout --max-wait --jq --arg --argjson' ;;
    'cssctl version') subs='' flags='--help -h --version --profile --base-url --workspace -w --output -o --json --no-color --quiet -q --verbose --timeout --max-wait --jq --arg --argjson --jq-exit-status' vflags='--profile --base-url --workspace -w --output -o --timeout --max-wait --jq --arg --argjson' ;;
    'cssctl doctor') subs='' flags='--help -h --version --profile --base-url --workspace -w --output -o --json --no-color --quiet -q --verbose --timeout --max-wait --jq --arg --argjson --jq-exit-status' vflags='--profile --base-url --workspace -w --output -o --timeout --max-wait --jq --arg --argjson' ;;
    'cssctl completion') subs='' flags='--help -h --version --profile --base-url --workspace -w --output -o --json --no-color --quiet -q --verbose --timeout --max-wait --jq --arg --argjson --jq-exit-status' vflags='--profile --base-url --workspace -w --output -o --timeout --max-wait --jq --arg --argjson' ;;
    'cssctl help') subs='login logout auth connections scans findings compliance webhooks api config mcp version doctor completion exit-codes environment formats ignore-file ocsf csv' flags='--version --profile --base-url --workspace -w --output -o --json --no-color --quiet -q --verbose --timeout --max-wait --jq --arg --argjson --jq-exit-status --help -h' vflags='--profile --base-url --workspace -w --output -o --timeout --max-wait --jq --arg --argjson' ;;
    'cssctl help login') subs='' flags='--version --profile --base-url --workspace -w --output -o --json --no-color --quiet -q --verbose --timeout --max-wait --jq --arg --argjson --jq-exit-status --help -h' vflags='--profile --base-url --workspace -w --output -o --timeout --max-wait --jq --arg --argjson' ;;
    'cssctl help logout') subs='' flags='--version --profile --base-url --workspace -w --output -o --json --no-color --quiet -q --verbose --timeout --max-wait --jq --arg --argjson --jq-exit-status --help -h' vflags='--profile --base-url --workspace -w --output -o --timeout --max-wait --jq --arg --argjson' ;;
    'cssctl help auth') subs='status token switch refresh' flags='--version --profile --base-url --workspace -w --output -o --json --no-color --quiet -q --verbose --timeout --max-wait --jq --arg --argjson --jq-exit-status --help -h' vflags='--profile --base-url --workspace -w --output -o --timeout --max-wait --jq --arg --argjson' ;;
    'cssctl help auth status') subs='' flags='--version --profile --base-url --workspace -w --output -o --json --no-color --quiet -q --verbose --timeout --max-wait --jq --arg --argjson --jq-exit-status --help -h' vflags='--profile --base-url --workspace -w --output -o --timeout --max-wait --jq --arg --argjson' ;;
    'cssctl help auth token') subs='' flags='--version --profile --base-url --workspace -w --output -o --json --no-color --quiet -q --verbose --timeout --max-wait --jq --arg --argjson --jq-exit-status --help -h' vflags='--profile --base-url --workspace -w --output -o --timeout --max-wait --jq --arg --argjson' ;;
    'cssctl help auth switch') subs='' flags='--version --profile --base-url --workspace -w --output -o --json --no-color --quiet -q --verbose --timeout --max-wait --jq --arg --argjson --jq-exit-status --help -h' vflags='--profile --base-url --workspace -w --output -o --timeout --max-wait --jq --arg --argjson' ;;
    'cssctl help auth refresh') subs='' flags='--version --profile --base-url --workspace -w --output -o --json --no-color --quiet -q --verbose --timeout --max-wait --jq --arg --argjson --jq-exit-status --help -h' vflags='--profile --base-url --workspace -w --output -o --timeout --max-wait --jq --arg --argjson' ;;
    'cssctl help connections') subs='list create' flags='--version --profile --base-url --workspace -w --output -o --json --no-color --quiet -q --verbose --timeout --max-wait --jq --arg --argjson --jq-exit-status --help -h' vflags='--profile --base-url --workspace -w --output -o --timeout --max-wait --jq --arg --argjson' ;;
    'cssctl help connections list') subs='' flags='--version --profile --base-url --workspace -w --output -o --json --no-color --quiet -q --verbose --timeout --max-wait --jq --arg --argjson --jq-exit-status --help -h' vflags='--profile --base-url --workspace -w --output -o --timeout --max-wait --jq --arg --argjson' ;;
    'cssctl help connections create') subs='' flags='--version --profile --base-url --workspace -w --output -o --json --no-color --quiet -q --verbose --timeout --max-wait --jq --arg --argjson --jq-exit-status --help -h' vflags='--profile --base-url --workspace -w --output -o --timeout --max-wait --jq --arg --argjson' ;;
    'cssctl help scans') subs='create list get wait' flags='--version --profile --base-url --workspace -w --output -o --json --no-color --quiet -q --verbose --timeout --max-wait --jq --arg --argjson --jq-exit-status --help -h' vflags='--profile --base-url --workspace -w --output -o --timeout --max-wait --jq --arg --argjson' ;;
    'cssctl help scans create') subs='' flags='--version --profile --base-url --workspace -w --output -o --json --no-color --quiet -q --verbose --timeout --max-wait --jq --arg --argjson --jq-exit-status --help -h' vflags='--profile --base-url --workspace -w --output -o --timeout --max-wait --jq --arg --argjson' ;;
    'cssctl help scans list') subs='' flags='--version --profile --base-url --workspace -w --output -o --json --no-color --quiet -q --verbose --timeout --max-wait --jq --arg --argjson --jq-exit-status --help -h' vflags='--profile --base-url --workspace -w --output -o --timeout --max-wait --jq --arg --argjson' ;;
    'cssctl help scans get') subs='' flags='--version --profile --base-url --workspace -w --output -o --json --no-color --quiet -q --verbose --timeout --max-wait --jq --arg --argjson --jq-exit-status --help -h' vflags='--profile --base-url --workspace -w --output -o --timeout --max-wait --jq --arg --argjson' ;;
    'cssctl help scans wait') subs='' flags='--version --profile --base-url --workspace -w --output -o --json --no-color --quiet -q --verbose --timeout --max-wait --jq --arg --argjson --jq-exit-status --help -h' vflags='--profile --base-url --workspace -w --output -o --timeout --max-wait --jq --arg --argjson' ;;
    'cssctl help findings') subs='list summary diff ignore get' flags='--version --profile --base-url --workspace -w --output -o --json --no-color --quiet -q --verbose --timeout --max-wait --jq --arg --argjson --jq-exit-status --help -h' vflags='--profile --base-url --workspace -w --output -o --timeout --max-wait --jq --arg --argjson' ;;
    'cssctl help findings list') subs='' flags='--version --profile --base-url --workspace -w --output -o --json --no-color --quiet -q --verbose --timeout --max-wait --jq --arg --argjson --jq-exit-status --help -h' vflags='--profile --base-url --workspace -w --output -o --timeout --max-wait --jq --arg --argjson' ;;
    'cssctl help findings summary') subs='' flags='--version --profile --base-url --workspace -w --output -o --json --no-color --quiet -q --verbose --timeout --max-wait --jq --arg --argjson --jq-exit-status --help -h' vflags='--profile --base-url --workspace -w --output -o --timeout --max-wait --jq --arg --argjson' ;;
    'cssctl help findings diff') subs='' flags='--version --profile --base-url --workspace -w --output -o --json --no-color --quiet -q --verbose --timeout --max-wait --jq --arg --argjson --jq-exit-status --help -h' vflags='--profile --base-url --workspace -w --output -o --timeout --max-wait --jq --arg --argjson' ;;
    'cssctl help findings ignore') subs='' flags='--version --profile --base-url --workspace -w --output -o --json --no-color --quiet -q --verbose --timeout --max-wait --jq --arg --argjson --jq-exit-status --help -h' vflags='--profile --base-url --workspace -w --output -o --timeout --max-wait --jq --arg --argjson' ;;
    'cssctl help findings get') subs='' flags='--version --profile --base-url --workspace -w --output -o --json --no-color --quiet -q --verbose --timeout --max-wait --jq --arg --argjson --jq-exit-status --help -h' vflags='--profile --base-url --workspace -w --output -o --timeout --max-wait --jq --arg --argjson' ;;
    'cssctl help compliance') subs='' flags='--version --profile --base-url --workspace -w --output -o --json --no-color --quiet -q --verbose --timeout --max-wait --jq --arg --argjson --jq-exit-status --help -h' vflags='--profile --base-url --workspace -w --output -o --timeout --max-wait --jq --arg --argjson' ;;
    'cssctl help webhooks') subs='create list delete verify listen replay trigger' flags='--version --profile --base-url --workspace -w --output -o --json --no-color --quiet -q --verbose --timeout --max-wait --jq --arg --argjson --jq-exit-status --help -h' vflags='--profile --base-url --workspace -w --output -o --timeout --max-wait --jq --arg --argjson' ;;
    'cssctl help webhooks create') subs='' flags='--version --profile --base-url --workspace -w --output -o --json --no-color --quiet -q --verbose --timeout --max-wait --jq --arg --argjson --jq-exit-status --help -h' vflags='--profile --base-url --workspace -w --output -o --timeout --max-wait --jq --arg --argjson' ;;
    'cssctl help webhooks list') subs='' flags='--version --profile --base-url --workspace -w --output -o --json --no-color --quiet -q --verbose --timeout --max-wait --jq --arg --argjson --jq-exit-status --help -h' vflags='--profile --base-url --workspace -w --output -o --timeout --max-wait --jq --arg --argjson' ;;
    'cssctl help webhooks delete') subs='' flags='--version --profile --base-url --workspace -w --output -o --json --no-color --quiet -q --verbose --timeout --max-wait --jq --arg --argjson --jq-exit-status --help -h' vflags='--profile --base-url --workspace -w --output -o --timeout --max-wait --jq --arg --argjson' ;;
    'cssctl help webhooks verify') subs='' flags='--version --profile --base-url --workspace -w --output -o --json --no-color --quiet -q --verbose --timeout --max-wait --jq --arg --argjson --jq-exit-status --help -h' vflags='--profile --base-url --workspace -w --output -o --timeout --max-wait --jq --arg --argjson' ;;
    'cssctl help webhooks listen') subs='' flags='--version --profile --base-url --workspace -w --output -o --json --no-color --quiet -q --verbose --timeout --max-wait --jq --arg --argjson --jq-exit-status --help -h' vflags='--profile --base-url --workspace -w --output -o --timeout --max-wait --jq --arg --argjson' ;;
    'cssctl help webhooks replay') subs='' flags='--version --profile --base-url --workspace -w --output -o --json --no-color --quiet -q --verbose --timeout --max-wait --jq --arg --argjson --jq-exit-status --help -h' vflags='--profile --base-url --workspace -w --output -o --timeout --max-wait --jq --arg --argjson' ;;
    'cssctl help webhooks trigger') subs='' flags='--version --profile --base-url --workspace -w --output -o --json --no-color --quiet -q --verbose --timeout --max-wait --jq --arg --argjson --jq-exit-status --help -h' vflags='--profile --base-url --workspace -w --output -o --timeout --max-wait --jq --arg --argjson' ;;
    'cssctl help api') subs='' flags='--version --profile --base-url --workspace -w --output -o --json --no-color --quiet -q --verbose --timeout --max-wait --jq --arg --argjson --jq-exit-status --help -h' vflags='--profile --base-url --workspace -w --output -o --timeout --max-wait --jq --arg --argjson' ;;
    'cssctl help config') subs='list get set unset profiles path' flags='--version --profile --base-url --workspace -w --output -o --json --no-color --quiet -q --verbose --timeout --max-wait --jq --arg --argjson --jq-exit-status --help -h' vflags='--profile --base-url --workspace -w --output -o --timeout --max-wait --jq --arg --argjson' ;;
    'cssctl help config list') subs='' flags='--version --profile --base-url --workspace -w --output -o --json --no-color --quiet -q --verbose --timeout --max-wait --jq --arg --argjson --jq-exit-status --help -h' vflags='--profile --base-url --workspace -w --output -o --timeout --max-wait --jq --arg --argjson' ;;
    'cssctl help config get') subs='' flags='--version --profile --base-url --workspace -w --output -o --json --no-color --quiet -q --verbose --timeout --max-wait --jq --arg --argjson --jq-exit-status --help -h' vflags='--profile --base-url --workspace -w --output -o --timeout --max-wait --jq --arg --argjson' ;;
    'cssctl help config set') subs='' flags='--version --profile --base-url --workspace -w --output -o --json --no-color --quiet -q --verbose --timeout --max-wait --jq --arg --argjson --jq-exit-status --help -h' vflags='--profile --base-url --workspace -w --output -o --timeout --max-wait --jq --arg --argjson' ;;
    'cssctl help config unset') subs='' flags='--version --profile --base-url --workspace -w --output -o --json --no-color --quiet -q --verbose --timeout --max-wait --jq --arg --argjson --jq-exit-status --help -h' vflags='--profile --base-url --workspace -w --output -o --timeout --max-wait --jq --arg --argjson' ;;
    'cssctl help config profiles') subs='' flags='--version --profile --base-url --workspace -w --output -o --json --no-color --quiet -q --verbose --timeout --max-wait --jq --arg --argjson --jq-exit-status --help -h' vflags='--profile --base-url --workspace -w --output -o --timeout --max-wait --jq --arg --argjson' ;;
    'cssctl help config path') subs='' flags='--version --profile --base-url --workspace -w --output -o --json --no-color --quiet -q --verbose --timeout --max-wait --jq --arg --argjson --jq-exit-status --help -h' vflags='--profile --base-url --workspace -w --output -o --timeout --max-wait --jq --arg --argjson' ;;
    'cssctl help mcp') subs='config' flags='--version --profile --base-url --workspace -w --output -o --json --no-color --quiet -q --verbose --timeout --max-wait --jq --arg --argjson --jq-exit-status --help -h' vflags='--profile --base-url --workspace -w --output -o --timeout --max-wait --jq --arg --argjson' ;;
    'cssctl help mcp config') subs='' flags='--version --profile --base-url --workspace -w --output -o --json --no-color --quiet -q --verbose --timeout --max-wait --jq --arg --argjson --jq-exit-status --help -h' vflags='--profile --base-url --workspace -w --output -o --timeout --max-wait --jq --arg --argjson' ;;
    'cssctl help version') subs='' flags='--version --profile --base-url --workspace -w --output -o --json --no-color --quiet -q --verbose --timeout --max-wait --jq --arg --argjson --jq-exit-status --help -h' vflags='--profile --base-url --workspace -w --output -o --timeout --max-wait --jq --arg --argjson' ;;
    'cssctl help doctor') subs='' flags='--version --profile --base-url --workspace -w --output -o --json --no-color --quiet -q --verbose --timeout --max-wait --jq --arg --argjson --jq-exit-status --help -h' vflags='--profile --base-url --workspace -w --output -o --timeout --max-wait --jq --arg --argjson' ;;
    'cssctl help completion') subs='' flags='--version --profile --base-url --workspace -w --output -o --json --no-color --quiet -q --verbose --timeout --max-wait --jq --arg --argjson --jq-exit-status --help -h' vflags='--profile --base-url --workspace -w --output -o --timeout --max-wait --jq --arg --argjson' ;;
    'cssctl help exit-codes') subs='' flags='--version --profile --base-url --workspace -w --output -o --json --no-color --quiet -q --verbose --timeout --max-wait --jq --arg --argjson --jq-exit-status --help -h' vflags='--profile --base-url --workspace -w --output -o --timeout --max-wait --jq --arg --argjson' ;;
    'cssctl help environment') subs='' flags='--version --profile --base-url --workspace -w --output -o --json --no-color --quiet -q --verbose --timeout --max-wait --jq --arg --argjson --jq-exit-status --help -h' vflags='--profile --base-url --workspace -w --output -o --timeout --max-wait --jq --arg --argjson' ;;
    'cssctl help formats') subs='' flags='--version --profile --base-url --workspace -w --output -o --json --no-color --quiet -q --verbose --timeout --max-wait --jq --arg --argjson --jq-exit-status --help -h' vflags='--profile --base-url --workspace -w --output -o --timeout --max-wait --jq --arg --argjson' ;;
    'cssctl help ignore-file') subs='' flags='--version --profile --base-url --workspace -w --output -o --json --no-color --quiet -q --verbose --timeout --max-wait --jq --arg --argjson --jq-exit-status --help -h' vflags='--profile --base-url --workspace -w --output -o --timeout --max-wait --jq --arg --argjson' ;;
    'cssctl help ocsf') subs='' flags='--version --profile --base-url --workspace -w --output -o --json --no-color --quiet -q --verbose --timeout --max-wait --jq --arg --argjson --jq-exit-status --help -h' vflags='--profile --base-url --workspace -w --output -o --timeout --max-wait --jq --arg --argjson' ;;
    'cssctl help csv') subs='' flags='--version --profile --base-url --workspace -w --output -o --json --no-color --quiet -q --verbose --timeout --max-wait --jq --arg --argjson --jq-exit-status --help -h' vflags='--profile --base-url --workspace -w --output -o --timeout --max-wait --jq --arg --argjson' ;;
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
    'cssctl|compliance') canon='compliance' ;;
    'cssctl|webhooks') canon='webhooks' ;;
    'cssctl|api') canon='api' ;;
    'cssctl|config') canon='config' ;;
    'cssctl|mcp') canon='mcp' ;;
    'cssctl|version') canon='version' ;;
    'cssctl|doctor') canon='doctor' ;;
    'cssctl|completion') canon='completion' ;;
    'cssctl|help') canon='help' ;;
    'cssctl auth|status') canon='status' ;;
    'cssctl auth|token') canon='token' ;;
    'cssctl auth|switch') canon='switch' ;;
    'cssctl auth|refresh') canon='refresh' ;;
    'cssctl connections|list') canon='list' ;;
    'cssctl connections|create') canon='create' ;;
    'cssctl scans|create') canon='create' ;;
    'cssctl scans|list') canon='list' ;;
    'cssctl scans|get') canon='get' ;;
    'cssctl scans|wait') canon='wait' ;;
    'cssctl findings|list') canon='list' ;;
    'cssctl findings|summary') canon='summary' ;;
    'cssctl findings|diff') canon='diff' ;;
    'cssctl findings|ignore') canon='ignore' ;;
    'cssctl findings|get') canon='get' ;;
    'cssctl webhooks|create') canon='create' ;;
    'cssctl webhooks|list') canon='list' ;;
    'cssctl webhooks|delete') canon='delete' ;;
    'cssctl webhooks|verify') canon='verify' ;;
    'cssctl webhooks|listen') canon='listen' ;;
    'cssctl webhooks|replay') canon='replay' ;;
    'cssctl webhooks|trigger') canon='trigger' ;;
    'cssctl config|list') canon='list' ;;
    'cssctl config|get') canon='get' ;;
    'cssctl config|set') canon='set' ;;
    'cssctl config|unset') canon='unset' ;;
    'cssctl config|profiles') canon='profiles' ;;
    'cssctl config|path') canon='path' ;;
    'cssctl mcp|config') canon='config' ;;
    'cssctl help|login') canon='login' ;;
    'cssctl help|logout') canon='logout' ;;
    'cssctl help|auth') canon='auth' ;;
    'cssctl help|connections') canon='connections' ;;
    'cssctl help|scans') canon='scans' ;;
    'cssctl help|findings') canon='findings' ;;
    'cssctl help|compliance') canon='compliance' ;;
    'cssctl help|webhooks') canon='webhooks' ;;
    'cssctl help|api') canon='api' ;;
    'cssctl help|config') canon='config' ;;
    'cssctl help|mcp') canon='mcp' ;;
    'cssctl help|version') canon='version' ;;
    'cssctl help|doctor') canon='doctor' ;;
    'cssctl help|completion') canon='completion' ;;
    'cssctl help|exit-codes') canon='exit-codes' ;;
    'cssctl help|environment') canon='environment' ;;
    'cssctl help|formats') canon='formats' ;;
    'cssctl help|ignore-file') canon='ignore-file' ;;
    'cssctl help|ocsf') canon='ocsf' ;;
    'cssctl help|csv') canon='csv' ;;
    'cssctl help auth|status') canon='status' ;;
    'cssctl help auth|token') canon='token' ;;
    'cssctl help auth|switch') canon='switch' ;;
    'cssctl help auth|refresh') canon='refresh' ;;
    'cssctl help connections|list') canon='list' ;;
    'cssctl help connections|create') canon='create' ;;
    'cssctl help scans|create') canon='create' ;;
    'cssctl help scans|list') canon='list' ;;
    'cssctl help scans|get') canon='get' ;;
    'cssctl help scans|wait') canon='wait' ;;
    'cssctl help findings|list') canon='list' ;;
    'cssctl help findings|summary') canon='summary' ;;
    'cssctl help findings|diff') canon='diff' ;;
    'cssctl help findings|ignore') canon='ignore' ;;
    'cssctl help findings|get') canon='get' ;;
    'cssctl help webhooks|create') canon='create' ;;
    'cssctl help webhooks|list') canon='list' ;;
    'cssctl help webhooks|delete') canon='delete' ;;
    'cssctl help webhooks|verify') canon='verify' ;;
    'cssctl help webhooks|listen') canon='listen' ;;
    'cssctl help webhooks|replay') canon='replay' ;;
    'cssctl help webhooks|trigger') canon='trigger' ;;
    'cssctl help config|list') canon='list' ;;
    'cssctl help config|get') canon='get' ;;
    'cssctl help config|set') canon='set' ;;
    'cssctl help config|unset') canon='unset' ;;
    'cssctl help config|profiles') canon='profiles' ;;
    'cssctl help config|path') canon='path' ;;
    'cssctl help mcp|config') canon='config' ;;
  esac
}

__cssctl_values() {
  vals='' dyn='' list=''
  case "$1" in
    'cssctl|--profile') dyn=profiles ;;
    'cssctl|--output'|'cssctl|-o') vals='table json ndjson csv wide sarif junit github html ocsf' ;;
    'cssctl login|--profile') dyn=profiles ;;
    'cssctl login|--output'|'cssctl login|-o') vals='table json ndjson csv' ;;
    'cssctl logout|--profile') dyn=profiles ;;
    'cssctl logout|--output'|'cssctl logout|-o') vals='table json ndjson csv' ;;
    'cssctl auth|--profile') dyn=profiles ;;
    'cssctl auth|--output'|'cssctl auth|-o') vals='table json ndjson csv wide sarif junit github html ocsf' ;;
    'cssctl auth status|--profile') dyn=profiles ;;
    'cssctl auth status|--output'|'cssctl auth status|-o') vals='table json ndjson csv' ;;
    'cssctl auth token|--profile') dyn=profiles ;;
    'cssctl auth token|--output'|'cssctl auth token|-o') vals='table json ndjson csv' ;;
    'cssctl auth switch|--profile') dyn=profiles ;;
    'cssctl auth switch|--output'|'cssctl auth switch|-o') vals='table json ndjson csv' ;;
    'cssctl auth switch#0') dyn=profiles ;;
    'cssctl auth refresh|--profile') dyn=profiles ;;
    'cssctl auth refresh|--output'|'cssctl auth refresh|-o') vals='table json ndjson csv' ;;
    'cssctl connections|--profile') dyn=profiles ;;
    'cssctl connections|--output'|'cssctl connections|-o') vals='table json ndjson csv wide sarif junit github html ocsf' ;;
    'cssctl connections list|--profile') dyn=profiles ;;
    'cssctl connections list|--output'|'cssctl connections list|-o') vals='table wide json ndjson csv' ;;
    'cssctl connections create|--profile') dyn=profiles ;;
    'cssctl connections create|--output'|'cssctl connections create|-o') vals='table json ndjson csv' ;;
    'cssctl scans|--profile') dyn=profiles ;;
    'cssctl scans|--output'|'cssctl scans|-o') vals='table json ndjson csv wide sarif junit github html ocsf' ;;
    'cssctl scans create|--connection') dyn=connections ;;
    'cssctl scans create|--fail-on') vals='critical high medium low info' ;;
    'cssctl scans create|--severity') vals='critical high medium low info' list=1 ;;
    'cssctl scans create|--profile') dyn=profiles ;;
    'cssctl scans create|--output'|'cssctl scans create|-o') vals='table json ndjson csv sarif junit github html ocsf' ;;
    'cssctl scans list|--connection') dyn=connections list=1 ;;
    'cssctl scans list|--status') vals='queued running completed failed' ;;
    'cssctl scans list|--profile') dyn=profiles ;;
    'cssctl scans list|--output'|'cssctl scans list|-o') vals='table wide json ndjson csv' ;;
    'cssctl scans get|--profile') dyn=profiles ;;
    'cssctl scans get|--output'|'cssctl scans get|-o') vals='table json ndjson csv' ;;
    'cssctl scans get#0') dyn=scans ;;
    'cssctl scans wait|--fail-on') vals='critical high medium low info' ;;
    'cssctl scans wait|--severity') vals='critical high medium low info' list=1 ;;
    'cssctl scans wait|--profile') dyn=profiles ;;
    'cssctl scans wait|--output'|'cssctl scans wait|-o') vals='table json ndjson csv sarif junit github html ocsf' ;;
    'cssctl scans wait#0') dyn=scans ;;
    'cssctl findings|--profile') dyn=profiles ;;
    'cssctl findings|--output'|'cssctl findings|-o') vals='table json ndjson csv wide sarif junit github html ocsf' ;;
    'cssctl findings list|--connection') dyn=connections list=1 ;;
    'cssctl findings list|--status') vals='' list=1 ;;
    'cssctl findings list|--severity') vals='critical high medium low info' list=1 ;;
    'cssctl findings list|--profile') dyn=profiles ;;
    'cssctl findings list|--output'|'cssctl findings list|-o') vals='table wide json ndjson csv sarif junit github html ocsf' ;;
    'cssctl findings summary|--connection') dyn=connections list=1 ;;
    'cssctl findings summary|--status') vals='' list=1 ;;
    'cssctl findings summary|--by') vals='severity connection rule status' ;;
    'cssctl findings summary|--severity') vals='critical high medium low info' list=1 ;;
    'cssctl findings summary|--profile') dyn=profiles ;;
    'cssctl findings summary|--output'|'cssctl findings summary|-o') vals='table json' ;;
    'cssctl findings diff|--connection') dyn=connections list=1 ;;
    'cssctl findings diff|--status') vals='' list=1 ;;
    'cssctl findings diff|--severity') vals='critical high medium low info' list=1 ;;
    'cssctl findings diff|--fail-on') vals='critical high medium low info' ;;
    'cssctl findings diff|--profile') dyn=profiles ;;
    'cssctl findings diff|--output'|'cssctl findings diff|-o') vals='table wide json ndjson csv sarif junit github html ocsf' ;;
    'cssctl findings ignore|--profile') dyn=profiles ;;
    'cssctl findings ignore|--output'|'cssctl findings ignore|-o') vals='table json ndjson csv' ;;
    'cssctl findings get|--profile') dyn=profiles ;;
    'cssctl findings get|--output'|'cssctl findings get|-o') vals='table json ndjson csv' ;;
    'cssctl compliance|--fail-under') vals='50 60 70 80 90' ;;
    'cssctl compliance|--profile') dyn=profiles ;;
    'cssctl compliance|--output'|'cssctl compliance|-o') vals='table json ndjson csv' ;;
    'cssctl webhooks|--profile') dyn=profiles ;;
    'cssctl webhooks|--output'|'cssctl webhooks|-o') vals='table json ndjson csv wide sarif junit github html ocsf' ;;
    'cssctl webhooks create|--events') vals='scan.completed scan.failed finding.critical finding.high compliance.score_dropped all' list=1 ;;
    'cssctl webhooks create|--profile') dyn=profiles ;;
    'cssctl webhooks create|--output'|'cssctl webhooks create|-o') vals='table json ndjson csv' ;;
    'cssctl webhooks list|--profile') dyn=profiles ;;
    'cssctl webhooks list|--output'|'cssctl webhooks list|-o') vals='table wide json ndjson csv' ;;
    'cssctl webhooks delete|--profile') dyn=profiles ;;
    'cssctl webhooks delete|--output'|'cssctl webhooks delete|-o') vals='table json ndjson csv' ;;
    'cssctl webhooks verify|--profile') dyn=profiles ;;
    'cssctl webhooks verify|--output'|'cssctl webhooks verify|-o') vals='table json ndjson csv' ;;
    'cssctl webhooks listen|--events') vals='scan.completed scan.failed finding.critical finding.high compliance.score_dropped all' list=1 ;;
    'cssctl webhooks listen|--profile') dyn=profiles ;;
    'cssctl webhooks listen|--output'|'cssctl webhooks listen|-o') vals='table json ndjson csv' ;;
    'cssctl webhooks replay|--profile') dyn=profiles ;;
    'cssctl webhooks replay|--output'|'cssctl webhooks replay|-o') vals='table json ndjson' ;;
    'cssctl webhooks trigger|--profile') dyn=profiles ;;
    'cssctl webhooks trigger|--output'|'cssctl webhooks trigger|-o') vals='table json ndjson csv' ;;
    'cssctl webhooks trigger#0') vals='scan.completed scan.failed finding.critical finding.high compliance.score_dropped' ;;
    'cssctl api|--profile') dyn=profiles ;;
    'cssctl api|--output'|'cssctl api|-o') vals='json ndjson' ;;
    'cssctl config|--profile') dyn=profiles ;;
    'cssctl config|--output'|'cssctl config|-o') vals='table json ndjson csv wide sarif junit github html ocsf' ;;
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
    'cssctl config profiles|--profile') dyn=profiles ;;
    'cssctl config profiles|--output'|'cssctl config profiles|-o') vals='table json ndjson csv' ;;
    'cssctl config path|--profile') dyn=profiles ;;
    'cssctl config path|--output'|'cssctl config path|-o') vals='table json ndjson csv' ;;
    'cssctl mcp|--profile') dyn=profiles ;;
    'cssctl mcp|--output'|'cssctl mcp|-o') vals='table json ndjson csv wide sarif junit github html ocsf' ;;
    'cssctl mcp config|--client') vals='claude vscode cursor' ;;
    'cssctl mcp config|--profile') dyn=profiles ;;
    'cssctl mcp config|--output'|'cssctl mcp config|-o') vals='json' ;;
    'cssctl version|--profile') dyn=profiles ;;
    'cssctl version|--output'|'cssctl version|-o') vals='table json ndjson csv' ;;
    'cssctl doctor|--profile') dyn=profiles ;;
    'cssctl doctor|--output'|'cssctl doctor|-o') vals='table json ndjson' ;;
    'cssctl completion|--profile') dyn=profiles ;;
    'cssctl completion|--output'|'cssctl completion|-o') vals='' ;;
    'cssctl completion#0') vals='bash zsh fish' ;;
    'cssctl help|--profile') dyn=profiles ;;
    'cssctl help|--output'|'cssctl help|-o') vals='table json ndjson csv wide sarif junit github html ocsf' ;;
    'cssctl help login|--profile') dyn=profiles ;;
    'cssctl help login|--output'|'cssctl help login|-o') vals='table json ndjson csv wide sarif junit github html ocsf' ;;
    'cssctl help logout|--profile') dyn=profiles ;;
    'cssctl help logout|--output'|'cssctl help logout|-o') vals='table json ndjson csv wide sarif junit github html ocsf' ;;
    'cssctl help auth|--profile') dyn=profiles ;;
    'cssctl help auth|--output'|'cssctl help auth|-o') vals='table json ndjson csv wide sarif junit github html ocsf' ;;
    'cssctl help auth status|--profile') dyn=profiles ;;
    'cssctl help auth status|--output'|'cssctl help auth status|-o') vals='table json ndjson csv wide sarif junit github html ocsf' ;;
    'cssctl help auth token|--profile') dyn=profiles ;;
    'cssctl help auth token|--output'|'cssctl help auth token|-o') vals='table json ndjson csv wide sarif junit github html ocsf' ;;
    'cssctl help auth switch|--profile') dyn=profiles ;;
    'cssctl help auth switch|--output'|'cssctl help auth switch|-o') vals='table json ndjson csv wide sarif junit github html ocsf' ;;
    'cssctl help auth refresh|--profile') dyn=profiles ;;
    'cssctl help auth refresh|--output'|'cssctl help auth refresh|-o') vals='table json ndjson csv wide sarif junit github html ocsf' ;;
    'cssctl help connections|--profile') dyn=profiles ;;
    'cssctl help connections|--output'|'cssctl help connections|-o') vals='table json ndjson csv wide sarif junit github html ocsf' ;;
    'cssctl help connections list|--profile') dyn=profiles ;;
    'cssctl help connections list|--output'|'cssctl help connections list|-o') vals='table json ndjson csv wide sarif junit github html ocsf' ;;
    'cssctl help connections create|--profile') dyn=profiles ;;
    'cssctl help connections create|--output'|'cssctl help connections create|-o') vals='table json ndjson csv wide sarif junit github html ocsf' ;;
    'cssctl help scans|--profile') dyn=profiles ;;
    'cssctl help scans|--output'|'cssctl help scans|-o') vals='table json ndjson csv wide sarif junit github html ocsf' ;;
    'cssctl help scans create|--profile') dyn=profiles ;;
    'cssctl help scans create|--output'|'cssctl help scans create|-o') vals='table json ndjson csv wide sarif junit github html ocsf' ;;
    'cssctl help scans list|--profile') dyn=profiles ;;
    'cssctl help scans list|--output'|'cssctl help scans list|-o') vals='table json ndjson csv wide sarif junit github html ocsf' ;;
    'cssctl help scans get|--profile') dyn=profiles ;;
    'cssctl help scans get|--output'|'cssctl help scans get|-o') vals='table json ndjson csv wide sarif junit github html ocsf' ;;
    'cssctl help scans wait|--profile') dyn=profiles ;;
    'cssctl help scans wait|--output'|'cssctl help scans wait|-o') vals='table json ndjson csv wide sarif junit github html ocsf' ;;
    'cssctl help findings|--profile') dyn=profiles ;;
    'cssctl help findings|--output'|'cssctl help findings|-o') vals='table json ndjson csv wide sarif junit github html ocsf' ;;
    'cssctl help findings list|--profile') dyn=profiles ;;
    'cssctl help findings list|--output'|'cssctl help findings list|-o') vals='table json ndjson csv wide sarif junit github html ocsf' ;;
    'cssctl help findings summary|--profile') dyn=profiles ;;
    'cssctl help findings summary|--output'|'cssctl help findings summary|-o') vals='table json ndjson csv wide sarif junit github html ocsf' ;;
    'cssctl help findings diff|--profile') dyn=profiles ;;
    'cssctl help findings diff|--output'|'cssctl help findings diff|-o') vals='table json ndjson csv wide sarif junit github html ocsf' ;;
    'cssctl help findings ignore|--profile') dyn=profiles ;;
    'cssctl help findings ignore|--output'|'cssctl help findings ignore|-o') vals='table json ndjson csv wide sarif junit github html ocsf' ;;
    'cssctl help findings get|--profile') dyn=profiles ;;
    'cssctl help findings get|--output'|'cssctl help findings get|-o') vals='table json ndjson csv wide sarif junit github html ocsf' ;;
    'cssctl help compliance|--profile') dyn=profiles ;;
    'cssctl help compliance|--output'|'cssctl help compliance|-o') vals='table json ndjson csv wide sarif junit github html ocsf' ;;
    'cssctl help webhooks|--profile') dyn=profiles ;;
    'cssctl help webhooks|--output'|'cssctl help webhooks|-o') vals='table json ndjson csv wide sarif junit github html ocsf' ;;
    'cssctl help webhooks create|--profile') dyn=profiles ;;
    'cssctl help webhooks create|--output'|'cssctl help webhooks create|-o') vals='table json ndjson csv wide sarif junit github html ocsf' ;;
    'cssctl help webhooks list|--profile') dyn=profiles ;;
    'cssctl help webhooks list|--output'|'cssctl help webhooks list|-o') vals='table json ndjson csv wide sarif junit github html ocsf' ;;
    'cssctl help webhooks delete|--profile') dyn=profiles ;;
    'cssctl help webhooks delete|--output'|'cssctl help webhooks delete|-o') vals='table json ndjson csv wide sarif junit github html ocsf' ;;
    'cssctl help webhooks verify|--profile') dyn=profiles ;;
    'cssctl help webhooks verify|--output'|'cssctl help webhooks verify|-o') vals='table json ndjson csv wide sarif junit github html ocsf' ;;
    'cssctl help webhooks listen|--profile') dyn=profiles ;;
    'cssctl help webhooks listen|--output'|'cssctl help webhooks listen|-o') vals='table json ndjson csv wide sarif junit github html ocsf' ;;
    'cssctl help webhooks replay|--profile') dyn=profiles ;;
    'cssctl help webhooks replay|--output'|'cssctl help webhooks replay|-o') vals='table json ndjson csv wide sarif junit github html ocsf' ;;
    'cssctl help webhooks trigger|--profile') dyn=profiles ;;
    'cssctl help webhooks trigger|--output'|'cssctl help webhooks trigger|-o') vals='table json ndjson csv wide sarif junit github html ocsf' ;;
    'cssctl help api|--profile') dyn=profiles ;;
    'cssctl help api|--output'|'cssctl help api|-o') vals='table json ndjson csv wide sarif junit github html ocsf' ;;
    'cssctl help config|--profile') dyn=profiles ;;
    'cssctl help config|--output'|'cssctl help config|-o') vals='table json ndjson csv wide sarif junit github html ocsf' ;;
    'cssctl help config list|--profile') dyn=profiles ;;
    'cssctl help config list|--output'|'cssctl help config list|-o') vals='table json ndjson csv wide sarif junit github html ocsf' ;;
    'cssctl help config get|--profile') dyn=profiles ;;
    'cssctl help config get|--output'|'cssctl help config get|-o') vals='table json ndjson csv wide sarif junit github html ocsf' ;;
    'cssctl help config set|--profile') dyn=profiles ;;
    'cssctl help config set|--output'|'cssctl help config set|-o') vals='table json ndjson csv wide sarif junit github html ocsf' ;;
    'cssctl help config unset|--profile') dyn=profiles ;;
    'cssctl help config unset|--output'|'cssctl help config unset|-o') vals='table json ndjson csv wide sarif junit github html ocsf' ;;
    'cssctl help config profiles|--profile') dyn=profiles ;;
    'cssctl help config profiles|--output'|'cssctl help config profiles|-o') vals='table json ndjson csv wide sarif junit github html ocsf' ;;
    'cssctl help config path|--profile') dyn=profiles ;;
    'cssctl help config path|--output'|'cssctl help config path|-o') vals='table json ndjson csv wide sarif junit github html ocsf' ;;
    'cssctl help mcp|--profile') dyn=profiles ;;
    'cssctl help mcp|--output'|'cssctl help mcp|-o') vals='table json ndjson csv wide sarif junit github html ocsf' ;;
    'cssctl help mcp config|--profile') dyn=profiles ;;
    'cssctl help mcp config|--output'|'cssctl help mcp config|-o') vals='table json ndjson csv wide sarif junit github html ocsf' ;;
    'cssctl help version|--profile') dyn=profiles ;;
    'cssctl help version|--output'|'cssctl help version|-o') vals='table json ndjson csv wide sarif junit github html ocsf' ;;
    'cssctl help doctor|--profile') dyn=profiles ;;
    'cssctl help doctor|--output'|'cssctl help doctor|-o') vals='table json ndjson csv wide sarif junit github html ocsf' ;;
    'cssctl help completion|--profile') dyn=profiles ;;
    'cssctl help completion|--output'|'cssctl help completion|-o') vals='table json ndjson csv wide sarif junit github html ocsf' ;;
    'cssctl help exit-codes|--profile') dyn=profiles ;;
    'cssctl help exit-codes|--output'|'cssctl help exit-codes|-o') vals='table json ndjson csv wide sarif junit github html ocsf' ;;
    'cssctl help environment|--profile') dyn=profiles ;;
    'cssctl help environment|--output'|'cssctl help environment|-o') vals='table json ndjson csv wide sarif junit github html ocsf' ;;
    'cssctl help formats|--profile') dyn=profiles ;;
    'cssctl help formats|--output'|'cssctl help formats|-o') vals='table json ndjson csv wide sarif junit github html ocsf' ;;
    'cssctl help ignore-file|--profile') dyn=profiles ;;
    'cssctl help ignore-file|--output'|'cssctl help ignore-file|-o') vals='table json ndjson csv wide sarif junit github html ocsf' ;;
    'cssctl help ocsf|--profile') dyn=profiles ;;
    'cssctl help ocsf|--output'|'cssctl help ocsf|-o') vals='table json ndjson csv wide sarif junit github html ocsf' ;;
    'cssctl help csv|--profile') dyn=profiles ;;
    'cssctl help csv|--output'|'cssctl help csv|-o') vals='table json ndjson csv wide sarif junit github html ocsf' ;;
  esac
}

_cssctl() {
  local cur=${COMP_WORDS[COMP_CWORD]} path=cssctl npos=0 i w skip=0 flag='' v
  local subs flags vflags canon vals dyn list
  # --profile, --base-url and --workspace as typed, for the values asked of the service
  local -a gopts=()
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
          case $w in
            --profile | --base-url | --workspace | -w) ((i + skip < COMP_CWORD)) && gopts+=("$w" "${COMP_WORDS[i + skip]}") ;;
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
  [[ -n $dyn ]] && vals=$("${COMP_WORDS[0]}" __complete "$dyn" "${gopts[@]}" 2>/dev/null)
  if [[ -n $list && $cur == *,* ]]; then
    # a comma-separated list: complete the item after the last comma, without the values already given
    local given=",${cur%,*}," rest=''
    for v in $vals; do [[ $given == *",$v,"* ]] || rest="$rest $v"; done
    vals=$rest prefix="$prefix${cur%,*}," cur=${cur##*,}
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

complete -F _cssctl cssctl
