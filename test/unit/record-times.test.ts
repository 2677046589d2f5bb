// One rule for times in every table view (issue 28 #17): a list table's `time` column and a one-record view
// (scans get/wait, findings get, connections create, webhooks create, auth status) both show local
// `YYYY-MM-DD HH:MM`; json and csv keep the service's text.
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { get as findingsGet } from '../../src/commands/findings/get.js';
import { create as connectionsCreate } from '../../src/commands/connections/create.js';
import { create as webhooksCreate } from '../../src/commands/webhooks/create.js';
import { get as scansGet } from '../../src/commands/scans/get.js';
import { describeExpiry } from '../../src/commands/auth/status.js';
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

  it('auth status: the token expiry in local time too', () => {
    const at = Date.parse(AT);
    expect(describeExpiry(at, at - 30 * 60_000)).toBe(`in 30m (${LOCAL})`);
    expect(describeExpiry(at, at + 5 * 60_000)).toBe(`expired 5m ago (${LOCAL})`);
  });
});
