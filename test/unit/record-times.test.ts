// One rule for times in every table view (issue 28 #17): a list table's `time` column and a one-record view
// (scans get/wait, findings get, connections create, webhooks create, auth status) both show local
// `YYYY-MM-DD HH:MM`; json and csv keep the service's text.
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { get as findingsGet } from '../../src/commands/findings/get.js';
import { create as connectionsCreate } from '../../src/commands/connections/create.js';
import { create as webhooksCreate } from '../../src/commands/webhooks/create.js';
import { get as scansGet } from '../../src/commands/scans/get.js';
import { describeExpiry } from '../../src/commands/auth/status.js';
import { compliance } from '../../src/commands/compliance/compliance.js';
import { create as connectionsCreateVerb } from '../../src/commands/connections/create.js';
import { version } from '../../src/commands/version/version.js';
import { json, verbWorld } from '../helpers/verb.js';

const AT = '2026-11-26T16:34:56.301Z';
let tz: string | undefined;
beforeEach(() => {
  tz = process.env.TZ;
  // Not UTC: the shown time is local, not the service's text cut short.
  process.env.TZ = 'Asia/Kolkata';
});
afterEach(() => {
  process.env.TZ = tz;
});
const LOCAL = '2026-11-26 22:04';

describe('a one-record view shows times as a list table does', () => {
  const cases: [
    string,
    () => ReturnType<typeof verbWorld>,
    (w: ReturnType<typeof verbWorld>) => Promise<number>,
  ][] = [
    [
      'scans get',
      () => verbWorld([json({ scan_id: 'scn_1', status: 'completed', created_at: AT, completed_at: AT })]),
      (w) => w.run(scansGet, {}, ['scn_1']),
    ],
    [
      'findings get',
      () => verbWorld([json({ id: 'fnd_1', severity: 'high', title: AT, created_at: AT })]),
      (w) => w.run(findingsGet, {}, ['fnd_1']),
    ],
    [
      'connections create',
      () => verbWorld([json({ id: 'con_1', alias: 'a', provider: 'aws', created_at: AT }, 201)]),
      (w) => w.run(connectionsCreate, { alias: 'a', provider: 'aws', set: [] }),
    ],
    [
      'webhooks create',
      () =>
        verbWorld(
          [json({ id: 'whk_1', url: 'https://x.test/h', events: ['scan.completed'], created_at: AT }, 201)],
          { env: { CSSCTL_WEBHOOK_SECRET: 's' } },
        ),
      (w) => w.run(webhooksCreate, { url: 'https://x.test/h', events: 'scan.completed' }),
    ],
  ];
  for (const [name, world, run] of cases)
    it(name, async () => {
      const w = world();
      expect(await run(w)).toBe(0);
      const created = w.stdout.text.split('\n').find((l) => /^created(_at)?\s/i.test(l));
      expect(created, w.stdout.text).toMatch(new RegExp(`\\s${LOCAL}$`));
    });

  it('a field that is not a time keeps its text; json and csv keep the service text', async () => {
    const w = verbWorld([json({ id: 'fnd_1', severity: 'high', title: AT, created_at: AT })]);
    await w.run(findingsGet, {}, ['fnd_1']);
    expect(w.stdout.text).toMatch(new RegExp(`TITLE\\s+${AT.replace('.', '\\.')}`));
    for (const output of ['json', 'csv']) {
      const o = verbWorld([json({ id: 'fnd_1', severity: 'high', created_at: AT })], { output });
      await o.run(findingsGet, {}, ['fnd_1']);
      expect(o.stdout.text, output).toContain(AT);
    }
  });

  it('compliance: COMPUTED, and any other time the service gives, in local time', async () => {
    const w = verbWorld([json({ score: 90, computed_at: AT, last_run_at: AT, timestamp_note: AT })]);
    expect(await w.run(compliance, {})).toBe(0);
    const lines = w.stdout.text.split('\n');
    expect(lines.find((l) => l.startsWith('COMPUTED '))).toMatch(new RegExp(`^COMPUTED +${LOCAL}$`));
    expect(lines.find((l) => l.startsWith('LAST RUN AT '))).toMatch(new RegExp(`^LAST RUN AT +${LOCAL}$`));
    // Not a time by its name: the service's text.
    expect(lines.find((l) => l.startsWith('TIMESTAMP NOTE '))).toContain(AT);
  });

  it('auth status: the token expiry in local time too', () => {
    const at = Date.parse(AT);
    expect(describeExpiry(at, at - 30 * 60_000)).toBe(`in 30m (${LOCAL})`);
    expect(describeExpiry(at, at + 5 * 60_000)).toBe(`expired 5m ago (${LOCAL})`);
  });
});

describe('one style of key in every key/value table (cli-contract.md §15)', () => {
  const keysOf = (text: string) =>
    text
      .trimEnd()
      .split('\n')
      .map((l) => l.split(/ {2,}/)[0]!);
  it.each([
    [
      'connections create (the service’s own keys)',
      () => verbWorld([json({ id: 'con_1', alias: 'a', provider: 'aws', created_at: AT }, 201)]),
      (w: ReturnType<typeof verbWorld>) =>
        w.run(connectionsCreateVerb, { alias: 'a', provider: 'aws', set: [] }),
      ['ID', 'ALIAS', 'PROVIDER', 'CREATED AT'],
    ],
    [
      'version',
      () => verbWorld([]),
      (w: ReturnType<typeof verbWorld>) => w.run(version, {}),
      ['CSSCTL', 'NODE', 'V8', 'PLATFORM', 'BUILD', 'CREDENTIAL STORE'],
    ],
    [
      'scans get',
      () => verbWorld([json({ scan_id: 'scn_1', status: 'completed', created_at: AT })]),
      (w: ReturnType<typeof verbWorld>) => w.run(scansGet, {}, ['scn_1']),
      ['SCAN', 'STATUS', 'CREATED'],
    ],
  ])('%s: upper case, words apart', async (_name, world, run, keys) => {
    const w = world();
    expect(await run(w)).toBe(0);
    expect(keysOf(w.stdout.text)).toStrictEqual(keys);
  });
});
