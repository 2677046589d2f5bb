import { InvalidArgumentError } from 'commander';
import { describe, expect, it } from 'vitest';
import { apiResumeCommand } from '../../src/commands/api/api.js';
import { collectSeverities, parseSeverity } from '../../src/commands/findings/severity.js';
import { gateSeverities } from '../../src/report/gate.js';
import { positiveInt, nonNegativeInt } from '../../src/commands/shared/action.js';
import { resumeCommand, shellQuote } from '../../src/core/resume.js';
import { pollSchedule, waitCommand } from '../../src/commands/scans/wait.js';
import type { Settings } from '../../src/core/context.js';
import { LIST_OFFER, chooseFormat } from '../../src/core/output/index.js';
import { UsageError } from '../../src/core/errors.js';

describe('resume commands', () => {
  it('replaces --offset (both spellings) and adds --all once', () => {
    expect(
      resumeCommand(['findings', 'list', '--offset=5', '-o', 'ndjson'], [['--all'], ['--offset', '40']]),
    ).toBe('cssctl findings list -o ndjson --all --offset 40');
    expect(
      resumeCommand(['findings', 'list', '--all', '--offset', '5'], [['--all'], ['--offset', '40']]),
    ).toBe('cssctl findings list --all --offset 40');
  });

  it('replaces every --severity with the severities still to come', () => {
    expect(
      resumeCommand(
        ['findings', 'list', '--severity', 'low', '--severity=critical,high', '--all'],
        [['--severity', 'high,low'], ['--all'], ['--offset', '7']],
      ),
    ).toBe('cssctl findings list --all --severity high,low --offset 7');
  });

  it('quotes what a shell would change', () => {
    expect(shellQuote("it's")).toBe(`'it'\\''s'`);
    expect(shellQuote('/findings?a=1&b=2')).toBe(`'/findings?a=1&b=2'`);
    expect(shellQuote('plain-word_1.2')).toBe('plain-word_1.2');
    expect(shellQuote('')).toBe(`''`);
  });

  it('api --paginate resumes with the offset in the path, never -f offset (a POST)', () => {
    expect(apiResumeCommand(['api', '/findings?limit=100', '--paginate'], '/findings?limit=100', 180)).toBe(
      "cssctl api '/findings?limit=100&offset=180' --paginate",
    );
    expect(
      apiResumeCommand(['api', '/x?offset=5', '-X', 'GET', '-f', 'offset=5', '--paginate'], '/x?offset=5', 9),
    ).toBe("cssctl api '/x?offset=9' -X GET --paginate");
  });

  it('scans create --wait … resumes as scans wait <id> with the same flags', () => {
    expect(
      waitCommand(
        ['scans', 'create', '--connection', 'prod', '--wait', '--fail-on', 'high', '-o', 'sarif'],
        'scn_1',
      ),
    ).toBe('cssctl scans wait scn_1 --fail-on high -o sarif');
    expect(waitCommand(['-w', 'acme', 'scans', 'wait', 'scn_2', '--connection=x'], 'scn_2')).toBe(
      'cssctl scans wait scn_2 -w acme',
    );
  });
});

describe('severities', () => {
  it('case-insensitive, each once, most severe first', () => {
    expect(collectSeverities('LOW,critical', collectSeverities('High'))).toStrictEqual([
      'critical',
      'high',
      'low',
    ]);
    expect(parseSeverity(' Info ')).toBe('info');
  });

  it('anything else names the five', () => {
    for (const bad of ['urgent', 'high,', '', 'crit']) {
      expect(() => collectSeverities(bad)).toThrow(InvalidArgumentError);
    }
    expect(() => parseSeverity('x')).toThrow('use critical, high, medium, low, info');
  });

  it('at or above a threshold', () => {
    expect(gateSeverities('medium')).toStrictEqual(['critical', 'high', 'medium']);
    expect(gateSeverities('critical')).toStrictEqual(['critical']);
  });
});

describe('numbers (issue 9 #18)', () => {
  it('refuses what cannot be sent exactly', () => {
    expect(() => positiveInt('99999999999999999999999')).toThrow(InvalidArgumentError);
    expect(() => nonNegativeInt('9007199254740993')).toThrow(InvalidArgumentError);
    expect(nonNegativeInt('9007199254740991')).toBe(9007199254740991);
    expect(() => positiveInt('1e3')).toThrow(InvalidArgumentError);
  });
});

describe('chooseFormat', () => {
  const settings = (output: string, source: 'flag' | 'profile' | 'default') =>
    ({ output, sources: { output: source } }) as unknown as Settings;
  const offer = { names: ['json', 'ndjson'], default: 'json' };

  it('a flag must be offered; a profile value falls back to the default; no value is the default', () => {
    expect(() => chooseFormat(settings('table', 'flag'), offer, 'api')).toThrow(UsageError);
    expect(chooseFormat(settings('table', 'profile'), offer, 'api')).toBe('json');
    expect(chooseFormat(settings('table', 'default'), offer, 'api')).toBe('json');
    expect(chooseFormat(settings('ndjson', 'profile'), offer, 'api')).toBe('ndjson');
    expect(chooseFormat(settings('sarif', 'profile'), LIST_OFFER, 'connections list')).toBe('table');
  });
});

describe('polling', () => {
  it('2 s growing to 15 s by default; CSSCTL_POLL_BASE_MS scales it', () => {
    expect(pollSchedule({})).toStrictEqual({ baseMs: 2000, maxMs: 15000 });
    expect(pollSchedule({ CSSCTL_POLL_BASE_MS: '40' })).toStrictEqual({ baseMs: 40, maxMs: 300 });
    expect(pollSchedule({ CSSCTL_POLL_BASE_MS: 'x' }).baseMs).toBe(2000);
  });
});
