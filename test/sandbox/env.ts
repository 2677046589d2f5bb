// Settings of `npm run sandbox` from the environment, and the start-up banner.
import { FAULT_SYNTAX, parseFaults } from './faults.js';
import type { DemoCredential, RefreshField, SandboxOptions } from './types.js';

function int(
  env: NodeJS.ProcessEnv,
  name: string,
  min: number,
  max = Number.MAX_SAFE_INTEGER,
): number | undefined {
  const raw = env[name]?.trim();
  if (raw === undefined || raw === '') return undefined;
  if (!/^-?\d+$/.test(raw) || Number(raw) < min || Number(raw) > max) {
    throw new Error(`${name} must be an integer from ${min} to ${max}, got "${raw}"`);
  }
  return Number(raw);
}

/** `on` or `off` (any case); undefined when not set. */
function onOff(env: NodeJS.ProcessEnv, name: string): boolean | undefined {
  const raw = env[name]?.trim().toLowerCase();
  if (raw === undefined || raw === '') return undefined;
  if (raw !== 'on' && raw !== 'off') throw new Error(`${name} must be on or off, got "${env[name]}"`);
  return raw === 'on';
}

const REFRESH_FIELDS: RefreshField[] = ['refresh_token', 'expires_in'];

function refreshOmit(raw: string | undefined): RefreshField[] | undefined {
  if (raw === undefined || raw.trim() === '') return undefined;
  return raw.split(',').map((part) => {
    const field = REFRESH_FIELDS.find((f) => f === part.trim());
    if (!field)
      throw new Error(`SANDBOX_REFRESH_OMIT takes ${REFRESH_FIELDS.join(', ')}; got "${part.trim()}"`);
    return field;
  });
}

/** Only the settings present in `env`; throws a one-line Error naming the variable on a bad value. */
export function optionsFromEnv(env: NodeJS.ProcessEnv): Partial<SandboxOptions> {
  const entries: [keyof SandboxOptions, unknown][] = [
    ['host', env.HOST?.trim() || undefined],
    ['port', int(env, 'PORT', 0, 65535) ?? 8787],
    ['tokenTtlSeconds', int(env, 'SANDBOX_TOKEN_TTL', 1)],
    ['rateLimit', int(env, 'SANDBOX_RATE_LIMIT', 1)],
    ['scanRateLimit', int(env, 'SANDBOX_SCAN_RATE_LIMIT', 1)],
    ['loginRateLimit', int(env, 'SANDBOX_LOGIN_RATE_LIMIT', 1)],
    ['rateWindowSeconds', int(env, 'SANDBOX_RATE_WINDOW', 1)],
    ['maxPageSize', int(env, 'SANDBOX_MAX_PAGE_SIZE', 1)],
    ['scanStepMs', int(env, 'SANDBOX_SCAN_STEP_MS', 0)],
    ['findingsPerWorkspace', int(env, 'SANDBOX_FINDINGS', 0, 1_000_000)],
    ['refreshOmit', refreshOmit(env.SANDBOX_REFRESH_OMIT)],
    ['seed', int(env, 'SANDBOX_SEED', 0, 2 ** 32 - 1)],
    ['faultSeed', int(env, 'SANDBOX_FAULT_SEED', 0, 2 ** 32 - 1)],
    ['webhookAttempts', int(env, 'SANDBOX_WEBHOOK_ATTEMPTS', 1, 100)],
    ['webhookRetryMs', int(env, 'SANDBOX_WEBHOOK_RETRY_MS', 0)],
    ['complianceThreshold', int(env, 'SANDBOX_COMPLIANCE_THRESHOLD', 0, 100)],
    ['complianceEndpoint', onOff(env, 'SANDBOX_COMPLIANCE')],
    ['clockSkewSeconds', int(env, 'SANDBOX_CLOCK_SKEW_S', -366 * 86400, 366 * 86400)],
  ];
  const faults = env.SANDBOX_FAULTS?.trim();
  if (faults) {
    try {
      entries.push(['faults', parseFaults(faults)]);
    } catch (err) {
      throw new Error(`SANDBOX_FAULTS: ${(err as Error).message}`, { cause: err });
    }
  }
  const options = Object.fromEntries(entries.filter(([, v]) => v !== undefined)) as Partial<SandboxOptions>;
  // The default page size may not exceed a smaller maximum.
  if (options.maxPageSize !== undefined) options.defaultPageSize = Math.min(50, options.maxPageSize);
  return options;
}

export const ENV_HELP = `Environment: HOST, PORT (8787), SANDBOX_TOKEN_TTL, SANDBOX_RATE_LIMIT, SANDBOX_SCAN_RATE_LIMIT,
SANDBOX_LOGIN_RATE_LIMIT, SANDBOX_RATE_WINDOW, SANDBOX_MAX_PAGE_SIZE, SANDBOX_SCAN_STEP_MS, SANDBOX_FINDINGS,
SANDBOX_REFRESH_OMIT (refresh_token,expires_in), SANDBOX_SEED, SANDBOX_FAULT_SEED, SANDBOX_FAULTS (${FAULT_SYNTAX}),
SANDBOX_WEBHOOK_ATTEMPTS (5), SANDBOX_WEBHOOK_RETRY_MS (1000, doubling), SANDBOX_COMPLIANCE_THRESHOLD (70),
SANDBOX_COMPLIANCE (on; off: GET /compliance is a 404), SANDBOX_CLOCK_SKEW_S (0: seconds added to every answer's
Date header, negative for behind)`;

export function banner(url: string, credentials: readonly DemoCredential[], queuedFaults: number): string {
  const rows = [
    ['workspace', 'role', 'email', 'password'],
    ...credentials.map((c) => [c.workspace, c.role, c.email, c.password]),
  ];
  const widths = [0, 1, 2, 3].map((i) => Math.max(...rows.map((r) => (r[i] ?? '').length)));
  const table = rows.map(
    (r) =>
      '  ' +
      r
        .map((cell, i) => cell.padEnd(widths[i] ?? 0))
        .join('  ')
        .trimEnd(),
  );
  const first = credentials[0];
  const lines = [
    `cssctl sandbox listening on ${url} (API base ${url}/api/v1)`,
    '',
    'Demo credentials:',
    ...table,
    '',
    ...(first
      ? [
          'Log in with:',
          `  cssctl login --base-url ${url} -w ${first.workspace} --email ${first.email} --password-stdin <<< '${first.password}'`,
          '',
        ]
      : []),
    ...(queuedFaults > 0 ? [`Faults queued from SANDBOX_FAULTS: ${queuedFaults}`, ''] : []),
    'Press Ctrl-C to stop.',
  ];
  return `${lines.join('\n')}\n`;
}
