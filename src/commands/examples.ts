// Two or three examples at the end of each command's --help (as gh does). Keyed by the command's path;
// cli.ts attaches them to the tree. A command added to the tree gets its examples here (a test checks that
// every command has some). --help itself is answered from dist/help.json, so this text costs no start-up.
import type { Command } from 'commander';
import { keepExamples } from '../help/examples.js';

export const EXAMPLES: Readonly<Record<string, readonly string[]>> = {
  '': [
    'cssctl login --base-url https://scanner.example.com -w acme --email me@example.com',
    'cssctl scans create --connection prod --wait --fail-on high',
    'cssctl findings list --severity critical,high',
  ],
  login: [
    'cssctl login --base-url https://scanner.example.com -w acme --email me@example.com',
    'printf "%s\\n" "$CSSCTL_PASSWORD" | cssctl login --email ci@example.com --password-stdin',
    'cssctl login --profile staging --base-url https://staging.example.com -w acme',
  ],
  logout: ['cssctl logout', 'cssctl logout --profile staging'],
  auth: [
    'cssctl auth status',
    'curl -H "Authorization: Bearer $(cssctl auth token)" "$URL/api/v1/connections"',
  ],
  'auth status': ['cssctl auth status', 'cssctl auth status --json'],
  'auth token': [
    'curl -H "Authorization: Bearer $(cssctl auth token)" "$URL/api/v1/connections"',
    'cssctl auth token --profile staging',
  ],
  'auth refresh': ['cssctl auth refresh', 'cssctl auth refresh --profile staging'],
  connections: ['cssctl connections list', 'cssctl connections create --alias payments --provider aws'],
  'connections list': [
    'cssctl connections list',
    'cssctl connections list --all --json',
    'cssctl connections list -o csv',
  ],
  'connections create': [
    'cssctl connections create --alias payments --provider aws',
    'cssctl connections create --alias eu --provider gcp --set region=europe-west1',
  ],
  scans: ['cssctl scans create --connection prod --wait', 'cssctl scans list --status running'],
  'scans create': [
    'cssctl scans create --connection prod',
    'cssctl scans create --connection prod --wait --fail-on high',
    'cssctl scans create --connection prod --wait -o sarif > cssctl.sarif',
  ],
  compliance: ['cssctl compliance', 'cssctl compliance --fail-under 80', 'cssctl compliance --json'],
  'scans list': [
    'cssctl scans list',
    'cssctl scans list --status failed --json',
    'cssctl scans list -o wide',
  ],
  'scans get': ['cssctl scans get scn_0123456789abcdef', 'cssctl scans get scn_0123456789abcdef --json'],
  'scans wait': [
    'cssctl scans wait scn_0123456789abcdef --fail-on critical --wait-timeout 600',
    'cssctl scans wait scn_0123456789abcdef -o junit > cssctl.xml',
    'cssctl scans wait scn_0123456789abcdef --report ocsf=findings.ocsf.ndjson',
  ],
  findings: [
    'cssctl findings list --severity critical,high',
    'cssctl findings list --all -o csv > findings.csv',
  ],
  'findings list': [
    'cssctl findings list --severity critical,high',
    'cssctl findings list --all -o csv --columns id,severity,scan_id,created_at > findings.csv',
    'cssctl findings list --all -o ocsf > findings.ocsf.ndjson',
  ],
  webhooks: ['cssctl webhooks list', 'cssctl webhooks listen --forward-to http://127.0.0.1:3000/hook'],
  'webhooks create': [
    'cssctl webhooks create --url https://hooks.example.com/cssctl --events all',
    'cssctl webhooks create --url https://hooks.example.com/cssctl --events scan.failed,finding.critical --secret-stdin < secret.txt',
  ],
  'webhooks list': ['cssctl webhooks list', 'cssctl webhooks list --json'],
  'webhooks delete': ['cssctl webhooks delete whk_0123456789abcdef'],
  'webhooks verify': [
    'cssctl webhooks verify --signature "$SIGNATURE_HEADER" --payload-file body.json',
    'cssctl webhooks verify --signature "$SIGNATURE_HEADER" --secret-file secret.txt < body.json',
  ],
  'webhooks listen': [
    'cssctl webhooks listen',
    'cssctl webhooks listen --port 9000 --forward-to http://127.0.0.1:3000/hook',
    'cssctl webhooks listen -o json',
  ],
  'webhooks trigger': [
    'cssctl webhooks trigger scan.completed --url http://127.0.0.1:8088/',
    'cssctl webhooks trigger finding.critical --url https://hooks.example.com/cssctl',
  ],
  api: [
    'cssctl api /connections',
    'cssctl api --paginate /findings -f severity=critical',
    'cssctl api -X POST /connections -f alias=qa -f provider=aws',
  ],
  config: ['cssctl config list', 'cssctl config set output json'],
  'auth switch': ['cssctl auth switch staging', 'cssctl auth switch default'],
  'config profiles': ['cssctl config profiles', 'cssctl config profiles --json'],
  'findings get': ['cssctl findings get fnd_123', 'cssctl findings get fnd_123 --json'],
  'findings diff': [
    'cssctl findings diff --base latest --head scn_123',
    'cssctl findings diff --base ./baseline.json --head scn_123 --state new --fail-on high',
    'cssctl findings diff --base latest --head scn_123 -o ocsf > changes.ocsf.ndjson',
  ],
  'findings ignore': [
    'cssctl findings ignore fnd_123 --reason "public by design (SEC-1234)" --expires 2027-03-31',
    'cssctl findings ignore fnd_1 fnd_2 --reason "reviewed quarterly" --expires 90d',
  ],
  'findings summary': [
    'cssctl findings summary',
    'cssctl findings summary --by connection',
    'cssctl findings summary --by rule --scan scn_123 -o json',
  ],
  'webhooks replay': [
    'cssctl webhooks replay ./deliveries --to http://127.0.0.1:3000/hooks',
    'cssctl webhooks replay ./deliveries/20261125T084100.123Z-scan.completed-4aecf01f.json --to http://127.0.0.1:3000/hooks --resign',
  ],
  mcp: ['cssctl mcp config --client claude', 'cssctl mcp', 'cssctl mcp --allow-write --profile prod'],
  'mcp config': [
    'cssctl mcp config --client claude',
    'cssctl mcp config --client vscode --profile prod',
    'cssctl mcp config --client cursor --allow-write',
  ],
  version: ['cssctl version', 'cssctl version --json'],
  doctor: [
    'cssctl doctor',
    'cssctl doctor --profile staging',
    'cssctl doctor --json --jq \'.checks[] | select(.status != "ok")\'',
  ],
  'config list': ['cssctl config list', 'cssctl config list --profile staging'],
  'config get': ['cssctl config get workspace', 'cssctl config get base_url --profile staging'],
  'config set': ['cssctl config set workspace acme', 'cssctl config set output wide'],
  'config unset': ['cssctl config unset output'],
  'config path': ['cssctl config path'],
  completion: [
    "echo 'source <(cssctl completion bash)' >> ~/.bashrc",
    'mkdir -p ~/.zfunc && cssctl completion zsh > ~/.zfunc/_cssctl',
    'mkdir -p ~/.config/fish/completions && cssctl completion fish > ~/.config/fish/completions/cssctl.fish',
  ],
};

/** The path of a command below the program: "" for the program, "scans create" for a verb. */
function pathOf(cmd: Command): string {
  const names: string[] = [];
  for (let c: Command | null = cmd; c?.parent; c = c.parent) names.unshift(c.name());
  return names.join(' ');
}

/** Appends the command's examples to its --help, and keeps them on the command for the reference pages. */
export function addExamples(cmd: Command): void {
  const examples = EXAMPLES[pathOf(cmd)];
  if (examples?.length) {
    keepExamples(cmd, examples);
    cmd.addHelpText('after', `\nExamples:\n${examples.map((e) => `  $ ${e}`).join('\n')}\n`);
  }
}
