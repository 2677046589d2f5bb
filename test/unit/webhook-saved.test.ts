// Saved deliveries (listen --save, replay), durations (--tolerance) and verify's one-line explanations.
// Expected signatures are made here with node:crypto directly.
import { createHash, createHmac } from 'node:crypto';
import { mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync, mkdirSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { parseDuration } from '../../src/commands/webhooks/common.js';
import { explainFailure } from '../../src/commands/webhooks/explain.js';
import { SeenBodies, timestampProblem } from '../../src/commands/webhooks/receiver.js';
import { replayHeaders } from '../../src/commands/webhooks/replay.js';
import {
  SAVED_FORMAT,
  loadAllSaved,
  loadSaved,
  saveDelivery,
  savedFileName,
  toSaved,
  utf8Exact,
} from '../../src/commands/webhooks/saved.js';
import { fsOps } from '../../src/core/files.js';

const sig = (secret: string, body: string | Buffer) =>
  `sha256=${createHmac('sha256', secret).update(body).digest('hex')}`;

let dir: string;
const realOps = { ...fsOps };
beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'cssctl-saved-'));
});
afterEach(() => {
  Object.assign(fsOps, realOps);
  rmSync(dir, { recursive: true, force: true });
});

const AT = new Date('2026-11-25T08:41:00.123Z');
const BODY = Buffer.from(
  '{"event":"scan.completed","timestamp":"2026-11-25T08:41:00Z","workspace":"acme","data":{}}',
);

describe('saved delivery files', () => {
  it('are named <UTC time>-<event>-<first 8 hex of SHA-256>.json, sortable and free of colons', () => {
    const hex = createHash('sha256').update(BODY).digest('hex');
    expect(savedFileName(AT, 'scan.completed', BODY)).toBe(
      `20261125T084100.123Z-scan.completed-${hex.slice(0, 8)}.json`,
    );
    // An event from the payload cannot reach outside the folder or into the name's other parts.
    expect(savedFileName(AT, '../../etc/passwd', BODY)).toMatch(
      /^20261125T084100\.123Z-__\.\._etc_passwd-[0-9a-f]{8}\.json$/,
    );
    expect(savedFileName(AT, undefined, BODY)).toContain('-unknown-');
    expect(savedFileName(AT, '', BODY)).toContain('-unknown-');
    const later = savedFileName(new Date('2026-11-25T10:00:00.000Z'), 'a', BODY);
    expect([later, savedFileName(AT, 'z', BODY)].sort()[0]).not.toBe(later);
  });

  it('keep UTF-8 bodies as text and any other bytes as base64, both byte-exact', () => {
    const utf8 = Buffer.from('{"a":"é ✓ 🎉","b":"\\u00e9"}\n');
    expect(toSaved(AT, 'x', {}, utf8)).toMatchObject({ body_encoding: 'utf8', body: utf8.toString() });
    const bom = Buffer.concat([Buffer.from([0xef, 0xbb, 0xbf]), BODY]);
    expect(utf8Exact(bom)).toBeDefined();
    const latin1 = Buffer.from([0x7b, 0x22, 0x61, 0x22, 0x3a, 0x22, 0xe9, 0x22, 0x7d]); // {"a":"é"} in Latin-1
    const lone = Buffer.from([0x7b, 0xed, 0xa0, 0x80, 0x7d]); // an encoded lone surrogate
    for (const raw of [latin1, lone, Buffer.from([0xff, 0xfe, 0x00])]) {
      expect(utf8Exact(raw)).toBeUndefined();
      expect(toSaved(AT, 'x', {}, raw)).toMatchObject({
        body_encoding: 'base64',
        body: raw.toString('base64'),
      });
    }
    for (const raw of [utf8, bom, latin1, lone, BODY, Buffer.alloc(0)]) {
      const path = saveDelivery(dir, AT, 'x', { 'x-service-signature': sig('k', raw) }, raw);
      expect(loadSaved(path).raw.equals(raw)).toBe(true);
      rmSync(path);
    }
  });

  it('are written mode 0600 with the time, the headers and the body’s digest, and nothing else in the folder', () => {
    const path = saveDelivery(
      dir,
      AT,
      'scan.completed',
      { 'content-type': 'application/json', 'x-multi': ['a', 'b'], gone: undefined },
      BODY,
    );
    expect(statSync(path).mode & 0o777).toBe(0o600);
    expect(readdirSync(dir)).toEqual([path.slice(dir.length + 1)]);
    const saved = JSON.parse(readFileSync(path, 'utf8'));
    expect(saved).toEqual({
      format: SAVED_FORMAT,
      received_at: '2026-11-25T08:41:00.123Z',
      event: 'scan.completed',
      headers: { 'content-type': 'application/json', 'x-multi': ['a', 'b'] },
      body_encoding: 'utf8',
      body: BODY.toString(),
      body_sha256: createHash('sha256').update(BODY).digest('hex'),
    });
  });

  it.each(['ENOSPC', 'EIO'])('a write that fails (%s) throws one line and leaves nothing behind', (code) => {
    fsOps.writeSync = (() => {
      throw Object.assign(new Error(`${code}: simulated`), { code });
    }) as never;
    expect(() => saveDelivery(dir, AT, 'scan.completed', {}, BODY)).toThrow(
      code === 'ENOSPC' ? /^cannot write .*\.json: no space left on the device$/ : /input\/output error/,
    );
    expect(readdirSync(dir)).toEqual([]);
  });

  it('a write cut short by a full disk part-way through leaves nothing behind either', () => {
    let calls = 0;
    fsOps.writeSync = ((fd: number, buf: Buffer, off: number) => {
      if (calls++ === 0) return realOps.writeSync(fd, buf, off, 10);
      throw Object.assign(new Error('ENOSPC'), { code: 'ENOSPC' });
    }) as never;
    expect(() => saveDelivery(dir, AT, 'scan.completed', {}, BODY)).toThrow(/no space left/);
    expect(calls).toBe(2);
    expect(readdirSync(dir)).toEqual([]);
  });
});

describe('loading saved deliveries', () => {
  function write(name: string, content: unknown): string {
    const path = join(dir, name);
    writeFileSync(path, typeof content === 'string' ? content : JSON.stringify(content));
    return path;
  }
  const good = (at: string, body = BODY) =>
    toSaved(new Date(at), 'scan.completed', { 'x-service-signature': sig('k', body) }, body);

  it('takes files and folders, every one checked, oldest first by the time received', () => {
    const sub = join(dir, 'sub');
    mkdirSync(sub);
    const c = write('c.json', good('2026-11-25T08:00:03.000Z'));
    write('sub/a.json', good('2026-11-25T08:00:01.000Z'));
    write('sub/b.json', good('2026-11-25T08:00:02.000Z'));
    write('sub/.partial.json.1.tmp', 'half');
    write('sub/notes.txt', 'not json');
    const all = loadAllSaved([c, sub, join(sub, 'a.json')]);
    expect(all.map((d) => d.file)).toEqual([join(sub, 'a.json'), join(sub, 'b.json'), c]);
  });

  it.each([
    ['not JSON', '{', /not JSON/],
    ['an array', [], /not a JSON object/],
    ['another JSON file', { name: 'package' }, /no "format"/],
    ['a bad time', { ...good('2026-11-25T08:00:00Z'), received_at: 'yesterday' }, /received_at/],
    ['a local time', { ...good('2026-11-25T08:00:00Z'), received_at: '2026-11-25T08:00:00' }, /received_at/],
    ['no body', { ...good('2026-11-25T08:00:00Z'), body: undefined }, /"body" is not a string/],
    ['bad base64', { ...good('2026-11-25T08:00:00Z'), body_encoding: 'base64', body: 'a b' }, /not base64/],
    ['an unknown encoding', { ...good('2026-11-25T08:00:00Z'), body_encoding: 'hex' }, /body_encoding/],
    [
      'a header with a line break',
      { ...good('2026-11-25T08:00:00Z'), headers: { a: 'x\r\nhost: evil' } },
      /single-line/,
    ],
    ['a bad header name', { ...good('2026-11-25T08:00:00Z'), headers: { 'a b': 'x' } }, /not a header name/],
  ])('refuses %s, naming the file (exit 2)', (_what, content, why) => {
    const path = write('bad.json', content);
    let err: unknown;
    try {
      loadAllSaved([write('ok.json', good('2026-11-25T08:00:00Z')), path]);
    } catch (e) {
      err = e;
    }
    expect((err as Error).constructor.name).toBe('UsageError');
    expect((err as Error).message).toContain(`${path} is not a saved delivery`);
    expect((err as Error).message).toMatch(why);
  });

  it('a missing path or an empty folder is exit 2 too', () => {
    expect(() => loadAllSaved([join(dir, 'nope.json')])).toThrow(/cannot read .*nope\.json: ENOENT/);
    expect(() => loadAllSaved([dir])).toThrow(/holds no saved deliveries/);
  });

  it('replays the saved headers but not those of the connection, with the signature given', () => {
    const d = loadSaved(
      write(
        'h.json',
        toSaved(
          AT,
          'x',
          {
            host: 'a:1',
            'content-length': '3',
            connection: 'keep-alive',
            'user-agent': 'svc/1',
            'x-service-signature': 'sha256=old',
            'x-multi': ['a', 'b'],
          },
          BODY,
        ),
      ),
    );
    expect(replayHeaders(d, 'sha256=new')).toEqual({
      'user-agent': 'svc/1',
      'x-multi': 'a, b',
      'content-type': 'application/json',
      'x-service-signature': 'sha256=new',
    });
  });
});

describe('parseDuration', () => {
  it.each([
    ['30s', 30_000],
    ['5m', 300_000],
    ['1h30m', 5_400_000],
    ['500ms', 500],
    [' 2M ', 120_000],
    ['1m30s250ms', 90_250],
  ])('%j is %d ms', (raw, ms) => expect(parseDuration(raw, '--tolerance')).toBe(ms));

  it.each(['', '30', 's', '-5s', '1.5m', '5 m', '30s5m', '1m1m', '0s', '5d', '169h', '1e3s', 'NaNs'])(
    'refuses %j',
    (raw) => {
      expect(() => parseDuration(raw, '--tolerance')).toThrow(/^invalid --tolerance/);
    },
  );
});

describe('timestampProblem', () => {
  const now = Date.parse('2026-11-25T08:41:00Z');
  it('passes a time within the tolerance either way, and refuses one outside it or none', () => {
    expect(timestampProblem('2026-11-25T08:40:31Z', now, 30_000)).toBeUndefined();
    expect(timestampProblem('2026-11-25T08:41:30.000Z', now, 30_000)).toBeUndefined();
    expect(timestampProblem('2026-11-25T09:41:00+01:00', now, 30_000)).toBeUndefined();
    expect(timestampProblem('2026-11-25T08:40:29Z', now, 30_000)).toMatch(/31 s old/);
    expect(timestampProblem('2026-11-25T08:41:31Z', now, 30_000)).toMatch(/31 s in the future/);
    for (const t of [undefined, 42, '', 'yesterday', '2026-11-25', '1764060060']) {
      expect(timestampProblem(t, now, 30_000)).toMatch(/no ISO 8601 timestamp/);
    }
  });
});

describe('SeenBodies', () => {
  it('remembers at most its limit, forgetting the oldest first', () => {
    const seen = new SeenBodies(3);
    for (const d of ['a', 'b', 'c']) seen.add(d);
    seen.add('a'); // seen again: now the newest
    seen.add('d');
    expect(seen.size).toBe(3);
    expect(['a', 'b', 'c', 'd'].map((d) => seen.has(d))).toEqual([true, false, true, true]);
  });
});

describe('explainFailure (webhooks verify)', () => {
  const secret = 'whsec-test';
  const signed = JSON.stringify({ event: 'scan.completed', data: { z: 1, a: 'é/✓' }, workspace: 'acme' });
  const header = sig(secret, signed);
  const value = JSON.parse(signed);

  it('is undefined for a valid signature', () => {
    expect(explainFailure(secret, Buffer.from(signed), header)).toBeUndefined();
  });

  it.each([
    [undefined, /malformed: no signature given/],
    ['sha256=abc', /malformed: expected sha256=<64 lowercase hex digits>/],
    [header.toUpperCase(), /malformed: the prefix must be sha256= and the hex digits lowercase/],
    [header.slice(7), /malformed: the sha256= prefix is missing/],
    [` ${header}\n`, /malformed: it has spaces or a line break around it/],
  ])('names a malformed header %j', (h, why) => {
    expect(explainFailure(secret, Buffer.from(signed), h)).toMatch(why);
  });

  it.each([
    [JSON.stringify(value, null, 2), /re-serialised: the signature matches compact JSON \(JSON\.stringify\)/],
    [`${signed}\n`, /re-serialised: it ends with a line ending/],
    [JSON.stringify(value, null, '\t'), /re-serialised: the signature matches compact JSON/],
  ])('sees that %j is the signed JSON in other bytes', (body, why) => {
    expect(explainFailure(secret, Buffer.from(body), header)).toMatch(why);
  });

  it('recognises the signed bytes as what Python’s json.dumps or sorted keys would write', () => {
    const py = '{"event": "scan.completed", "data": {"z": 1, "a": "\\u00e9/\\u2713"}, "workspace": "acme"}';
    expect(explainFailure(secret, Buffer.from(signed), sig(secret, py))).toMatch(
      /matches Python's json\.dumps,/,
    );
    const sorted = '{"data":{"a":"é/✓","z":1},"event":"scan.completed","workspace":"acme"}';
    expect(explainFailure(secret, Buffer.from(signed), sig(secret, sorted))).toMatch(
      /matches compact JSON with sorted keys,/,
    );
    const php = '{"event":"scan.completed","data":{"z":1,"a":"\\u00e9\\/\\u2713"},"workspace":"acme"}';
    expect(explainFailure(secret, Buffer.from(signed), sig(secret, php))).toMatch(/PHP's json_encode/);
  });

  it('says the secret is wrong when no re-serialisation matches', () => {
    expect(explainFailure('another', Buffer.from(signed), header)).toMatch(
      /^the secret is wrong for this body \(no common/,
    );
    expect(explainFailure(secret, Buffer.from(`${signed}x`), header)).toMatch(
      /^the secret is wrong for this body, or these are not the bytes/,
    );
    // A changed value is not a re-serialisation.
    expect(explainFailure(secret, Buffer.from(signed.replace('acme', 'acmf')), header)).toMatch(
      /secret is wrong/,
    );
  });
});
