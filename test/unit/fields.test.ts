import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { splitApiPath } from '../../src/commands/api/api.js';
import { parseFields } from '../../src/commands/shared/fields.js';
import { UsageError } from '../../src/core/errors.js';
import { buildUrl } from '../../src/core/url.js';
import { usageError } from '../helpers/assert.js';

describe('parseFields', () => {
  it('k=v gives strings, even when they look like numbers or JSON', () => {
    expect(
      parseFields(['account=012345', 'region=eu-west-1', 'n=42', 'flag=true', 'j={"a":1}'], '--set'),
    ).toStrictEqual({
      account: '012345',
      region: 'eu-west-1',
      n: '42',
      flag: 'true',
      j: '{"a":1}',
    });
  });

  it('a value may contain "=" and ":="', () => {
    expect(parseFields(['token=a=b==', 'expr=x:=y', 'url=https://h/p?a=1&b=2'], '-f')).toStrictEqual({
      token: 'a=b==',
      expr: 'x:=y',
      url: 'https://h/p?a=1&b=2',
    });
  });

  it('an empty value is the empty string', () => {
    expect(parseFields(['note='], '-f')).toStrictEqual({ note: '' });
  });

  it('a value keeps spaces and newlines', () => {
    expect(parseFields(['text= two words\nline '], '-f')).toStrictEqual({ text: ' two words\nline ' });
  });

  it('k:=json gives any JSON value', () => {
    expect(
      parseFields(['n:=42', 'b:=true', 'z:=null', 'arr:=[1,"x"]', 'obj:={"a":{"b":2}}', 's:="012"'], '-f'),
    ).toStrictEqual({ n: 42, b: true, z: null, arr: [1, 'x'], obj: { a: { b: 2 } }, s: '012' });
  });

  it('property: k=v round-trips any value; k:=JSON.stringify(v) round-trips any JSON value', () => {
    const key = fc.stringMatching(/^[a-z_][a-z0-9_.-]{0,10}$/);
    fc.assert(
      fc.property(key, fc.string(), fc.jsonValue(), (k, s, j) => {
        expect(parseFields([`${k}=${s}`], '-f')).toStrictEqual({ [k]: s });
        expect(parseFields([`${k}:=${JSON.stringify(j)}`], '-f')).toStrictEqual({
          [k]: JSON.parse(JSON.stringify(j)),
        });
      }),
    );
  });

  it.each(['n:=', 'n:=nope', 'n:={a:1}', "n:='x'", 'n:=[1,'])(
    'invalid JSON after := is a UsageError: %j',
    (pair) => {
      const e = usageError(() => parseFields([pair], '-f'));
      expect(e.message).toContain('-f');
      expect(e.message).toMatch(/JSON/);
    },
  );

  it('a duplicate key is a UsageError, whatever the form', () => {
    const e = usageError(() => parseFields(['a=1', 'a=2'], '--set'));
    expect(e.message).toContain('"a"');
    expect(e.message).toContain('--set');
    usageError(() => parseFields(['a=1', 'a:=2'], '-f'));
    usageError(() => parseFields(['a=1', ' a =2'], '-f'));
  });

  it.each(['novalue', '', '=v', ' =v', ':=1', 'a:b'])(
    'a pair without key and "=" is a UsageError: %j',
    (pair) => {
      const e = usageError(() => parseFields([pair], '--set'));
      expect(e.message).toContain('--set');
    },
  );

  it('no pairs give an empty object', () => {
    expect(parseFields([], '-f')).toStrictEqual({});
  });

  it('keys are trimmed', () => {
    expect(parseFields([' alias =x'], '--set')).toStrictEqual({ alias: 'x' });
  });

  it('keys named like Object.prototype members are ordinary keys, not duplicates', () => {
    const out = parseFields(['constructor=x', 'toString=y', 'hasOwnProperty:=1'], '-f');
    expect(Object.keys(out).sort()).toStrictEqual(['constructor', 'hasOwnProperty', 'toString']);
    expect(JSON.parse(JSON.stringify(out))).toStrictEqual({
      constructor: 'x',
      toString: 'y',
      hasOwnProperty: 1,
    });
  });

  it('__proto__ is kept as a field of the body and never changes a prototype', () => {
    const out = parseFields(['__proto__:={"polluted":true}'], '-f');
    expect(Object.getPrototypeOf(out)).toBe(Object.prototype);
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
    expect(JSON.stringify(out)).toBe('{"__proto__":{"polluted":true}}');
  });
});

describe('splitApiPath', () => {
  it('keeps a plain path', () => {
    expect(splitApiPath('/connections')).toStrictEqual({ path: '/connections', query: {} });
  });

  it('adds a missing leading slash', () => {
    expect(splitApiPath('findings')).toStrictEqual({ path: '/findings', query: {} });
    expect(splitApiPath('  scans/s1 ')).toStrictEqual({ path: '/scans/s1', query: {} });
  });

  it.each([
    ['/api/v1/findings', '/findings'],
    ['api/v1/findings', '/findings'],
    ['/API/V1/findings', '/findings'],
    ['/api/v1', '/'],
    ['/api/v1/', '/'],
  ])('strips a leading /api/v1: %s -> %s', (raw, path) => {
    expect(splitApiPath(raw).path).toBe(path);
  });

  it('does not strip /api/v1 that is only a prefix of a longer segment', () => {
    expect(splitApiPath('/api/v10/x').path).toBe('/api/v10/x');
  });

  it('splits the query; repeated keys become arrays', () => {
    expect(
      splitApiPath('/findings?severity=high&severity=critical&limit=5&severity=low&q=a%20b'),
    ).toStrictEqual({
      path: '/findings',
      query: { severity: ['high', 'critical', 'low'], limit: '5', q: 'a b' },
    });
  });

  it('a query may contain "?"', () => {
    expect(splitApiPath('/x?q=what?&r=1').query).toStrictEqual({ q: 'what?', r: '1' });
  });

  it.each(['https://evil.example.com/api/v1/findings', 'http://127.0.0.1/x', 'HTTPS://x.example.com/'])(
    'rejects a full URL: %s',
    (raw) => {
      usageError(() => splitApiPath(raw));
    },
  );

  it('rejects an empty path', () => {
    usageError(() => splitApiPath(''));
    usageError(() => splitApiPath('   '));
  });

  it.each(['/../auth/login', '/findings/../../admin', '/api/v1/../x', '..', '/x/..'])(
    'rejects ".." segments: %s',
    (raw) => {
      usageError(() => splitApiPath(raw));
    },
  );

  it.each(['/%2e%2e/admin', '/.%2E/admin', '/%2E./admin', '/..\\admin'])(
    'rejects ".." in disguise (percent-encoded or with a backslash): %s',
    (raw) => {
      usageError(() => splitApiPath(raw));
    },
  );

  it('property: whatever it accepts stays under /api/v1 once joined to the base URL', () => {
    const seg = fc.constantFrom(
      '..',
      '.',
      '%2e%2e',
      '%2E.',
      '.%2e',
      'a',
      'findings',
      '..\\x',
      '%2f',
      'api',
      'v1',
      '',
    );
    fc.assert(
      fc.property(fc.array(seg, { minLength: 1, maxLength: 5 }), (segs) => {
        const raw = `/${segs.join('/')}`;
        let split: { path: string } | undefined;
        try {
          split = splitApiPath(raw);
        } catch (err) {
          expect(err).toBeInstanceOf(UsageError);
          return;
        }
        const url = new URL(buildUrl('https://s.example.com/base', split.path));
        expect(url.pathname.startsWith('/base/api/v1/') || url.pathname === '/base/api/v1').toBe(true);
      }),
      { numRuns: 500 },
    );
  });
});
