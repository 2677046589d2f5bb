# fish completion for cssctl. Generated from the command tree by `cssctl completion`; do not edit (npm run completions regenerates completions/).

function __cssctl_vflags
    switch $argv[1]
        case 'cssctl'
            printf '%s\n' '--profile' '--base-url' '--workspace' '-w' '--output' '-o' '--timeout' '--max-wait'
        case 'cssctl login'
            printf '%s\n' '--email' '--profile' '--base-url' '--workspace' '-w' '--output' '-o' '--timeout' '--max-wait'
        case 'cssctl logout'
            printf '%s\n' '--profile' '--base-url' '--workspace' '-w' '--output' '-o' '--timeout' '--max-wait'
        case 'cssctl auth'
            printf '%s\n' '--profile' '--base-url' '--workspace' '-w' '--output' '-o' '--timeout' '--max-wait'
        case 'cssctl auth status'
            printf '%s\n' '--profile' '--base-url' '--workspace' '-w' '--output' '-o' '--timeout' '--max-wait'
        case 'cssctl auth token'
            printf '%s\n' '--profile' '--base-url' '--workspace' '-w' '--output' '-o' '--timeout' '--max-wait'
        case 'cssctl auth refresh'
            printf '%s\n' '--profile' '--base-url' '--workspace' '-w' '--output' '-o' '--timeout' '--max-wait'
        case 'cssctl connections'
            printf '%s\n' '--profile' '--base-url' '--workspace' '-w' '--output' '-o' '--timeout' '--max-wait'
        case 'cssctl connections list'
            printf '%s\n' '--limit' '--offset' '--profile' '--base-url' '--workspace' '-w' '--output' '-o' '--timeout' '--max-wait'
        case 'cssctl connections create'
            printf '%s\n' '--alias' '--provider' '--set' '--profile' '--base-url' '--workspace' '-w' '--output' '-o' '--timeout' '--max-wait'
        case 'cssctl scans'
            printf '%s\n' '--profile' '--base-url' '--workspace' '-w' '--output' '-o' '--timeout' '--max-wait'
        case 'cssctl scans create'
            printf '%s\n' '--connection' '--fail-on' '--wait-timeout' '--severity' '--profile' '--base-url' '--workspace' '-w' '--output' '-o' '--timeout' '--max-wait'
        case 'cssctl scans list'
            printf '%s\n' '--status' '--limit' '--offset' '--profile' '--base-url' '--workspace' '-w' '--output' '-o' '--timeout' '--max-wait'
        case 'cssctl scans get'
            printf '%s\n' '--profile' '--base-url' '--workspace' '-w' '--output' '-o' '--timeout' '--max-wait'
        case 'cssctl scans wait'
            printf '%s\n' '--fail-on' '--wait-timeout' '--severity' '--profile' '--base-url' '--workspace' '-w' '--output' '-o' '--timeout' '--max-wait'
        case 'cssctl findings'
            printf '%s\n' '--profile' '--base-url' '--workspace' '-w' '--output' '-o' '--timeout' '--max-wait'
        case 'cssctl findings list'
            printf '%s\n' '--severity' '--scan' '--limit' '--offset' '--profile' '--base-url' '--workspace' '-w' '--output' '-o' '--timeout' '--max-wait'
        case 'cssctl webhooks'
            printf '%s\n' '--profile' '--base-url' '--workspace' '-w' '--output' '-o' '--timeout' '--max-wait'
        case 'cssctl webhooks create'
            printf '%s\n' '--url' '--events' '--profile' '--base-url' '--workspace' '-w' '--output' '-o' '--timeout' '--max-wait'
        case 'cssctl webhooks list'
            printf '%s\n' '--limit' '--offset' '--profile' '--base-url' '--workspace' '-w' '--output' '-o' '--timeout' '--max-wait'
        case 'cssctl webhooks delete'
            printf '%s\n' '--profile' '--base-url' '--workspace' '-w' '--output' '-o' '--timeout' '--max-wait'
        case 'cssctl webhooks verify'
            printf '%s\n' '--signature' '--payload-file' '--secret-file' '--profile' '--base-url' '--workspace' '-w' '--output' '-o' '--timeout' '--max-wait'
        case 'cssctl webhooks listen'
            printf '%s\n' '--host' '--port' '--path' '--forward-to' '--secret-file' '--profile' '--base-url' '--workspace' '-w' '--output' '-o' '--timeout' '--max-wait'
        case 'cssctl webhooks trigger'
            printf '%s\n' '--url' '--secret-file' '--profile' '--base-url' '--workspace' '-w' '--output' '-o' '--timeout' '--max-wait'
        case 'cssctl api'
            printf '%s\n' '--method' '-X' '--field' '-f' '--input' '--profile' '--base-url' '--workspace' '-w' '--output' '-o' '--timeout' '--max-wait'
        case 'cssctl config'
            printf '%s\n' '--profile' '--base-url' '--workspace' '-w' '--output' '-o' '--timeout' '--max-wait'
        case 'cssctl config list'
            printf '%s\n' '--profile' '--base-url' '--workspace' '-w' '--output' '-o' '--timeout' '--max-wait'
        case 'cssctl config get'
            printf '%s\n' '--profile' '--base-url' '--workspace' '-w' '--output' '-o' '--timeout' '--max-wait'
        case 'cssctl config set'
            printf '%s\n' '--profile' '--base-url' '--workspace' '-w' '--output' '-o' '--timeout' '--max-wait'
        case 'cssctl config unset'
            printf '%s\n' '--profile' '--base-url' '--workspace' '-w' '--output' '-o' '--timeout' '--max-wait'
        case 'cssctl config path'
            printf '%s\n' '--profile' '--base-url' '--workspace' '-w' '--output' '-o' '--timeout' '--max-wait'
        case 'cssctl version'
            printf '%s\n' '--profile' '--base-url' '--workspace' '-w' '--output' '-o' '--timeout' '--max-wait'
        case 'cssctl completion'
            printf '%s\n' '--profile' '--base-url' '--workspace' '-w' '--output' '-o' '--timeout' '--max-wait'
    end
end

function __cssctl_canon
    switch "$argv[1]|$argv[2]"
        case 'cssctl|login'
            echo 'login'
        case 'cssctl|logout'
            echo 'logout'
        case 'cssctl|auth'
            echo 'auth'
        case 'cssctl|connections'
            echo 'connections'
        case 'cssctl|scans'
            echo 'scans'
        case 'cssctl|findings'
            echo 'findings'
        case 'cssctl|webhooks'
            echo 'webhooks'
        case 'cssctl|api'
            echo 'api'
        case 'cssctl|config'
            echo 'config'
        case 'cssctl|version'
            echo 'version'
        case 'cssctl|completion'
            echo 'completion'
        case 'cssctl auth|status'
            echo 'status'
        case 'cssctl auth|token'
            echo 'token'
        case 'cssctl auth|refresh'
            echo 'refresh'
        case 'cssctl connections|list'
            echo 'list'
        case 'cssctl connections|create'
            echo 'create'
        case 'cssctl scans|create'
            echo 'create'
        case 'cssctl scans|list'
            echo 'list'
        case 'cssctl scans|get'
            echo 'get'
        case 'cssctl scans|wait'
            echo 'wait'
        case 'cssctl findings|list'
            echo 'list'
        case 'cssctl webhooks|create'
            echo 'create'
        case 'cssctl webhooks|list'
            echo 'list'
        case 'cssctl webhooks|delete'
            echo 'delete'
        case 'cssctl webhooks|verify'
            echo 'verify'
        case 'cssctl webhooks|listen'
            echo 'listen'
        case 'cssctl webhooks|trigger'
            echo 'trigger'
        case 'cssctl config|list'
            echo 'list'
        case 'cssctl config|get'
            echo 'get'
        case 'cssctl config|set'
            echo 'set'
        case 'cssctl config|unset'
            echo 'unset'
        case 'cssctl config|path'
            echo 'path'
    end
end

# Prints the command path of the words before the cursor, then how many positional arguments it has.
function __cssctl_state
    set -l words (commandline -opc)
    set -e words[1]
    set -l p 'cssctl'
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

# A comma-separated list: the current token's items so far, then each value.
function __cssctl_list
    set -l token (commandline -ct)
    set -l head (string replace -r -- '^-[^=]*=' '' $token)
    if string match -q -- '*,*' $head
        set head (string replace -r -- ',[^,]*$' ',' $head)
    else
        set head ''
    end
    printf '%s
' $head$argv
end

complete -c cssctl -f
complete -c cssctl -l version -d 'print the version'
complete -c cssctl -l profile -x -a '(cssctl __complete profiles 2>/dev/null)' -d 'saved profile to use (env: CSSCTL_PROFILE)'
complete -c cssctl -l base-url -r -F -d 'service address (env: CSSCTL_BASE_URL)'
complete -c cssctl -l workspace -s w -r -F -d 'workspace slug, sent as X-Tenant-Slug (env: CSSCTL_WORKSPACE)'
complete -c cssctl -l json -d 'same as -o json'
complete -c cssctl -l no-color -d 'no ANSI colour (env: NO_COLOR)'
complete -c cssctl -l quiet -s q -d 'no spinners, notices or hints on stderr'
complete -c cssctl -l verbose -d 'log each HTTP exchange to stderr, secrets redacted (env: CSSCTL_DEBUG=1)'
complete -c cssctl -l timeout -r -F -d 'per-request timeout'
complete -c cssctl -l max-wait -r -F -d 'longest total wait on rate limits for one command'
complete -c cssctl -l help -s h -d 'show help'
complete -c cssctl -n '__cssctl_at \'cssctl\'' -a 'login' -d 'log in and store the session (password prompt on a terminal)'
complete -c cssctl -n '__cssctl_at \'cssctl\'' -a 'logout' -d 'remove the profile\'s tokens from every credential store'
complete -c cssctl -n '__cssctl_at \'cssctl\'' -a 'auth' -d 'inspect and manage the session'
complete -c cssctl -n '__cssctl_at \'cssctl\'' -a 'connections' -d 'cloud provider connections'
complete -c cssctl -n '__cssctl_at \'cssctl\'' -a 'scans' -d 'scans of connections, and waiting for them'
complete -c cssctl -n '__cssctl_at \'cssctl\'' -a 'findings' -d 'security findings of the workspace'
complete -c cssctl -n '__cssctl_at \'cssctl\'' -a 'webhooks' -d 'register, receive, verify, forward and trigger signed event deliveries'
complete -c cssctl -n '__cssctl_at \'cssctl\'' -a 'api' -d 'make an authenticated request to /api/v1<path> and print the JSON answer'
complete -c cssctl -n '__cssctl_at \'cssctl\'' -a 'config' -d 'read and write the active profile (base_url, workspace, email, output)'
complete -c cssctl -n '__cssctl_at \'cssctl\'' -a 'version' -d 'print the version, the Node, the platform and the credential store that would be used'
complete -c cssctl -n '__cssctl_at \'cssctl\'' -a 'completion' -d 'print the shell completion script (bash, zsh or fish)'
complete -c cssctl -n '__cssctl_at \'cssctl\'' -l output -s o -x -a 'table json ndjson csv sarif junit github' -d 'output format: table, json, ndjson, csv; findings and scan reports also sarif, junit, github'
complete -c cssctl -n '__cssctl_at \'cssctl login\'' -l email -r -F -d 'account email (env: CSSCTL_EMAIL)'
complete -c cssctl -n '__cssctl_at \'cssctl login\'' -l password-stdin -d 'read the password from standard input'
complete -c cssctl -n '__cssctl_at \'cssctl login\'' -l output -s o -x -a 'table json ndjson csv' -d 'output format: table, json, ndjson, csv; findings and scan reports also sarif, junit, github'
complete -c cssctl -n '__cssctl_at \'cssctl logout\'' -l output -s o -x -a 'table json ndjson csv' -d 'output format: table, json, ndjson, csv; findings and scan reports also sarif, junit, github'
complete -c cssctl -n '__cssctl_at \'cssctl auth\'' -a 'status' -d 'show who and where you are logged in, and when the token expires'
complete -c cssctl -n '__cssctl_at \'cssctl auth\'' -a 'token' -d 'print a valid access token (refreshing first when needed)'
complete -c cssctl -n '__cssctl_at \'cssctl auth\'' -a 'refresh' -d 'refresh the access token now'
complete -c cssctl -n '__cssctl_at \'cssctl auth\'' -l output -s o -x -a 'table json ndjson csv sarif junit github' -d 'output format: table, json, ndjson, csv; findings and scan reports also sarif, junit, github'
complete -c cssctl -n '__cssctl_at \'cssctl auth status\'' -l output -s o -x -a 'table json ndjson csv' -d 'output format: table, json, ndjson, csv; findings and scan reports also sarif, junit, github'
complete -c cssctl -n '__cssctl_at \'cssctl auth token\'' -l output -s o -x -a 'table json ndjson csv' -d 'output format: table, json, ndjson, csv; findings and scan reports also sarif, junit, github'
complete -c cssctl -n '__cssctl_at \'cssctl auth refresh\'' -l output -s o -x -a 'table json ndjson csv' -d 'output format: table, json, ndjson, csv; findings and scan reports also sarif, junit, github'
complete -c cssctl -n '__cssctl_at \'cssctl connections\'' -a 'list' -d 'list connections'
complete -c cssctl -n '__cssctl_at \'cssctl connections\'' -a 'create' -d 'connect a cloud account'
complete -c cssctl -n '__cssctl_at \'cssctl connections\'' -l output -s o -x -a 'table json ndjson csv sarif junit github' -d 'output format: table, json, ndjson, csv; findings and scan reports also sarif, junit, github'
complete -c cssctl -n '__cssctl_at \'cssctl connections list\'' -l limit -r -F -d 'items per page'
complete -c cssctl -n '__cssctl_at \'cssctl connections list\'' -l offset -r -F -d 'start at this item'
complete -c cssctl -n '__cssctl_at \'cssctl connections list\'' -l all -d 'follow every page (streams; memory stays flat)'
complete -c cssctl -n '__cssctl_at \'cssctl connections list\'' -l output -s o -x -a 'table json ndjson csv' -d 'output format: table, json, ndjson, csv; findings and scan reports also sarif, junit, github'
complete -c cssctl -n '__cssctl_at \'cssctl connections create\'' -l alias -r -F -d 'unique name in the workspace'
complete -c cssctl -n '__cssctl_at \'cssctl connections create\'' -l provider -r -F -d 'cloud provider, e.g. aws, gcp, azure'
complete -c cssctl -n '__cssctl_at \'cssctl connections create\'' -l set -r -F -d 'another field (repeatable; key:=<json> for a non-string value)'
complete -c cssctl -n '__cssctl_at \'cssctl connections create\'' -l output -s o -x -a 'table json ndjson csv' -d 'output format: table, json, ndjson, csv; findings and scan reports also sarif, junit, github'
complete -c cssctl -n '__cssctl_at \'cssctl scans\'' -a 'create' -d 'start a scan of a connection; with --wait, wait for it and report'
complete -c cssctl -n '__cssctl_at \'cssctl scans\'' -a 'list' -d 'list scans, newest first'
complete -c cssctl -n '__cssctl_at \'cssctl scans\'' -a 'get' -d 'show one scan'
complete -c cssctl -n '__cssctl_at \'cssctl scans\'' -a 'wait' -d 'wait until a scan is final, then print its summary or its findings report'
complete -c cssctl -n '__cssctl_at \'cssctl scans\'' -l output -s o -x -a 'table json ndjson csv sarif junit github' -d 'output format: table, json, ndjson, csv; findings and scan reports also sarif, junit, github'
complete -c cssctl -n '__cssctl_at \'cssctl scans create\'' -l connection -r -F -d 'the connection to scan'
complete -c cssctl -n '__cssctl_at \'cssctl scans create\'' -l wait -d 'wait until the scan is final, then report'
complete -c cssctl -n '__cssctl_at \'cssctl scans create\'' -l fail-on -x -a 'critical high medium low info' -d 'exit 10 if the scan has a finding at or above this severity'
complete -c cssctl -n '__cssctl_at \'cssctl scans create\'' -l wait-timeout -r -F -d 'give up waiting after this long (exit 9)'
complete -c cssctl -n '__cssctl_at \'cssctl scans create\'' -l severity -x -a '(__cssctl_list critical high medium low info)' -d 'narrow the findings report (sarif, junit, github) to these severities; never the gate'
complete -c cssctl -n '__cssctl_at \'cssctl scans create\'' -l no-step-summary -d 'do not append a summary to $GITHUB_STEP_SUMMARY'
complete -c cssctl -n '__cssctl_at \'cssctl scans create\'' -l output -s o -x -a 'table json ndjson csv sarif junit github' -d 'output format: table, json, ndjson, csv; findings and scan reports also sarif, junit, github'
complete -c cssctl -n '__cssctl_at \'cssctl scans list\'' -l status -x -a 'queued running completed failed' -d 'only scans with this status (e.g. queued, running, completed, failed)'
complete -c cssctl -n '__cssctl_at \'cssctl scans list\'' -l limit -r -F -d 'items per page'
complete -c cssctl -n '__cssctl_at \'cssctl scans list\'' -l offset -r -F -d 'start at this item'
complete -c cssctl -n '__cssctl_at \'cssctl scans list\'' -l all -d 'follow every page (streams; memory stays flat)'
complete -c cssctl -n '__cssctl_at \'cssctl scans list\'' -l output -s o -x -a 'table json ndjson csv' -d 'output format: table, json, ndjson, csv; findings and scan reports also sarif, junit, github'
complete -c cssctl -n '__cssctl_at \'cssctl scans get\'' -l output -s o -x -a 'table json ndjson csv' -d 'output format: table, json, ndjson, csv; findings and scan reports also sarif, junit, github'
complete -c cssctl -n '__cssctl_at \'cssctl scans wait\'' -l fail-on -x -a 'critical high medium low info' -d 'exit 10 if the scan has a finding at or above this severity'
complete -c cssctl -n '__cssctl_at \'cssctl scans wait\'' -l wait-timeout -r -F -d 'give up waiting after this long (exit 9)'
complete -c cssctl -n '__cssctl_at \'cssctl scans wait\'' -l severity -x -a '(__cssctl_list critical high medium low info)' -d 'narrow the findings report (sarif, junit, github) to these severities; never the gate'
complete -c cssctl -n '__cssctl_at \'cssctl scans wait\'' -l no-step-summary -d 'do not append a summary to $GITHUB_STEP_SUMMARY'
complete -c cssctl -n '__cssctl_at \'cssctl scans wait\'' -l output -s o -x -a 'table json ndjson csv sarif junit github' -d 'output format: table, json, ndjson, csv; findings and scan reports also sarif, junit, github'
complete -c cssctl -n '__cssctl_at \'cssctl findings\'' -a 'list' -d 'list findings, most severe first when several severities are asked for'
complete -c cssctl -n '__cssctl_at \'cssctl findings\'' -l output -s o -x -a 'table json ndjson csv sarif junit github' -d 'output format: table, json, ndjson, csv; findings and scan reports also sarif, junit, github'
complete -c cssctl -n '__cssctl_at \'cssctl findings list\'' -l severity -x -a '(__cssctl_list critical high medium low info)' -d 'only these severities: critical, high, medium, low, info (repeatable)'
complete -c cssctl -n '__cssctl_at \'cssctl findings list\'' -l scan -r -F -d 'only the findings of this scan'
complete -c cssctl -n '__cssctl_at \'cssctl findings list\'' -l limit -r -F -d 'items per page'
complete -c cssctl -n '__cssctl_at \'cssctl findings list\'' -l offset -r -F -d 'start at this item'
complete -c cssctl -n '__cssctl_at \'cssctl findings list\'' -l all -d 'follow every page (streams; memory stays flat)'
complete -c cssctl -n '__cssctl_at \'cssctl findings list\'' -l output -s o -x -a 'table json ndjson csv sarif junit github' -d 'output format: table, json, ndjson, csv; findings and scan reports also sarif, junit, github'
complete -c cssctl -n '__cssctl_at \'cssctl webhooks\'' -a 'create' -d 'register a receiver URL for events'
complete -c cssctl -n '__cssctl_at \'cssctl webhooks\'' -a 'list' -d 'list registered webhooks (secrets are never shown)'
complete -c cssctl -n '__cssctl_at \'cssctl webhooks\'' -a 'delete' -d 'delete a webhook'
complete -c cssctl -n '__cssctl_at \'cssctl webhooks\'' -a 'verify' -d 'check an X-Service-Signature value against a raw payload (exit 0 valid, 1 invalid)'
complete -c cssctl -n '__cssctl_at \'cssctl webhooks\'' -a 'listen' -d 'receive deliveries locally: verify, print, and optionally forward them'
complete -c cssctl -n '__cssctl_at \'cssctl webhooks\'' -a 'trigger' -d 'send a correctly signed sample delivery to a receiver, to test it'
complete -c cssctl -n '__cssctl_at \'cssctl webhooks\'' -l output -s o -x -a 'table json ndjson csv sarif junit github' -d 'output format: table, json, ndjson, csv; findings and scan reports also sarif, junit, github'
complete -c cssctl -n '__cssctl_at \'cssctl webhooks create\'' -l url -r -F -d 'https:// receiver (http:// only for loopback hosts)'
complete -c cssctl -n '__cssctl_at \'cssctl webhooks create\'' -l events -x -a '(__cssctl_list scan.completed scan.failed finding.critical finding.high compliance.score_dropped all)' -d 'comma-separated: scan.completed, scan.failed, finding.critical, finding.high, compliance.score_dropped, or all'
complete -c cssctl -n '__cssctl_at \'cssctl webhooks create\'' -l secret-stdin -d 'read the signing secret from standard input (else CSSCTL_WEBHOOK_SECRET, else generated)'
complete -c cssctl -n '__cssctl_at \'cssctl webhooks create\'' -l output -s o -x -a 'table json ndjson csv' -d 'output format: table, json, ndjson, csv; findings and scan reports also sarif, junit, github'
complete -c cssctl -n '__cssctl_at \'cssctl webhooks list\'' -l limit -r -F -d 'items per page'
complete -c cssctl -n '__cssctl_at \'cssctl webhooks list\'' -l offset -r -F -d 'start at this item'
complete -c cssctl -n '__cssctl_at \'cssctl webhooks list\'' -l all -d 'follow every page (streams; memory stays flat)'
complete -c cssctl -n '__cssctl_at \'cssctl webhooks list\'' -l output -s o -x -a 'table json ndjson csv' -d 'output format: table, json, ndjson, csv; findings and scan reports also sarif, junit, github'
complete -c cssctl -n '__cssctl_at \'cssctl webhooks delete\'' -l output -s o -x -a 'table json ndjson csv' -d 'output format: table, json, ndjson, csv; findings and scan reports also sarif, junit, github'
complete -c cssctl -n '__cssctl_at \'cssctl webhooks verify\'' -l signature -r -F -d 'the X-Service-Signature header value, sha256=<hex>'
complete -c cssctl -n '__cssctl_at \'cssctl webhooks verify\'' -l payload-file -r -F -d 'the raw payload (default: standard input)'
complete -c cssctl -n '__cssctl_at \'cssctl webhooks verify\'' -l secret-file -r -F -d 'file holding the signing secret (default: CSSCTL_WEBHOOK_SECRET)'
complete -c cssctl -n '__cssctl_at \'cssctl webhooks verify\'' -l output -s o -x -a 'table json ndjson csv' -d 'output format: table, json, ndjson, csv; findings and scan reports also sarif, junit, github'
complete -c cssctl -n '__cssctl_at \'cssctl webhooks listen\'' -l host -r -F -d 'address to listen on'
complete -c cssctl -n '__cssctl_at \'cssctl webhooks listen\'' -l port -r -F -d 'port to listen on (0: any free port)'
complete -c cssctl -n '__cssctl_at \'cssctl webhooks listen\'' -l path -r -F -d 'path deliveries are posted to'
complete -c cssctl -n '__cssctl_at \'cssctl webhooks listen\'' -l forward-to -r -F -d 'relay each verified delivery, untouched, to this URL'
complete -c cssctl -n '__cssctl_at \'cssctl webhooks listen\'' -l print-secret -d 'print the signing secret in use and exit'
complete -c cssctl -n '__cssctl_at \'cssctl webhooks listen\'' -l secret-file -r -F -d 'file holding the signing secret (default: CSSCTL_WEBHOOK_SECRET)'
complete -c cssctl -n '__cssctl_at \'cssctl webhooks listen\'' -l output -s o -x -a 'table json ndjson csv' -d 'output format: table, json, ndjson, csv; findings and scan reports also sarif, junit, github'
complete -c cssctl -n '__cssctl_at \'cssctl webhooks trigger\'' -l url -r -F -d 'the receiver (https://, or http:// for loopback hosts)'
complete -c cssctl -n '__cssctl_at \'cssctl webhooks trigger\'' -l secret-file -r -F -d 'file holding the signing secret (default: CSSCTL_WEBHOOK_SECRET)'
complete -c cssctl -n '__cssctl_at \'cssctl webhooks trigger\'' -l output -s o -x -a 'table json ndjson csv' -d 'output format: table, json, ndjson, csv; findings and scan reports also sarif, junit, github'
complete -c cssctl -n '__cssctl_at \'cssctl webhooks trigger\' 0' -a 'scan.completed scan.failed finding.critical finding.high compliance.score_dropped'
complete -c cssctl -n '__cssctl_at \'cssctl api\'' -l method -s X -r -F -d 'HTTP method (default GET, or POST with -f/--input)'
complete -c cssctl -n '__cssctl_at \'cssctl api\'' -l field -s f -r -F -d 'a query parameter (GET) or body field (repeatable; key:=<json> for a non-string)'
complete -c cssctl -n '__cssctl_at \'cssctl api\'' -l input -r -F -d 'request body from a JSON file (\'-\' for stdin)'
complete -c cssctl -n '__cssctl_at \'cssctl api\'' -l paginate -d 'follow limit/offset pages and print every item as one array'
complete -c cssctl -n '__cssctl_at \'cssctl api\'' -l output -s o -x -a 'json ndjson' -d 'output format: table, json, ndjson, csv; findings and scan reports also sarif, junit, github'
complete -c cssctl -n '__cssctl_at \'cssctl config\'' -a 'list' -d 'show every setting, its value and where it comes from'
complete -c cssctl -n '__cssctl_at \'cssctl config\'' -a 'get' -d 'print one setting'
complete -c cssctl -n '__cssctl_at \'cssctl config\'' -a 'set' -d 'save a setting in the profile'
complete -c cssctl -n '__cssctl_at \'cssctl config\'' -a 'unset' -d 'remove a setting from the profile'
complete -c cssctl -n '__cssctl_at \'cssctl config\'' -a 'path' -d 'print the path of config.json'
complete -c cssctl -n '__cssctl_at \'cssctl config\'' -l output -s o -x -a 'table json ndjson csv sarif junit github' -d 'output format: table, json, ndjson, csv; findings and scan reports also sarif, junit, github'
complete -c cssctl -n '__cssctl_at \'cssctl config list\'' -l output -s o -x -a 'table json ndjson csv' -d 'output format: table, json, ndjson, csv; findings and scan reports also sarif, junit, github'
complete -c cssctl -n '__cssctl_at \'cssctl config get\'' -l output -s o -x -a 'table json ndjson csv' -d 'output format: table, json, ndjson, csv; findings and scan reports also sarif, junit, github'
complete -c cssctl -n '__cssctl_at \'cssctl config get\' 0' -a 'base_url workspace email output'
complete -c cssctl -n '__cssctl_at \'cssctl config set\'' -l output -s o -x -a 'table json ndjson csv' -d 'output format: table, json, ndjson, csv; findings and scan reports also sarif, junit, github'
complete -c cssctl -n '__cssctl_at \'cssctl config set\' 0' -a 'base_url workspace email output'
complete -c cssctl -n '__cssctl_at \'cssctl config unset\'' -l output -s o -x -a 'table json ndjson csv' -d 'output format: table, json, ndjson, csv; findings and scan reports also sarif, junit, github'
complete -c cssctl -n '__cssctl_at \'cssctl config unset\' 0' -a 'base_url workspace email output'
complete -c cssctl -n '__cssctl_at \'cssctl config path\'' -l output -s o -x -a 'table json ndjson csv' -d 'output format: table, json, ndjson, csv; findings and scan reports also sarif, junit, github'
complete -c cssctl -n '__cssctl_at \'cssctl version\'' -l output -s o -x -a 'table json ndjson csv' -d 'output format: table, json, ndjson, csv; findings and scan reports also sarif, junit, github'
complete -c cssctl -n '__cssctl_at \'cssctl completion\'' -l output -s o -x -a 'table json ndjson csv' -d 'output format: table, json, ndjson, csv; findings and scan reports also sarif, junit, github'
complete -c cssctl -n '__cssctl_at \'cssctl completion\' 0' -a 'bash zsh fish'
