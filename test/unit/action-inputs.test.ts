// The Action's inputs (src/action/inputs.ts): each checked before any request, a bad one named as the workflow
// names it (exit 2), and the cssctl command line they amount to.
import { describe, expect, it } from 'vitest';
import { commandLine, equivalentArgv, passwordInput, readInputs } from '../../src/action/inputs.js';
import { UsageError, exitCodeFor } from '../../src/core/errors.js';

const base = {
  'INPUT_BASE-URL': 'http://127.0.0.1:8787',
  INPUT_WORKSPACE: 'acme',
  INPUT_EMAIL: 'ci@acme.test',
  INPUT_PASSWORD: 'hunter2',
  INPUT_CONNECTION: 'prod',
};

function problem(env: NodeJS.ProcessEnv): string {
  try {
    readInputs(env);
  } catch (err) {
    expect(err).toBeInstanceOf(UsageError);
    expect(exitCodeFor(err)).toBe(2);
    return (err as Error).message;
  }
  throw new Error('no problem found');
}

describe('readInputs', () => {
  it('reads every input the workflow gives', () => {
    const inputs = readInputs({
      ...base,
      'INPUT_BASE-URL': 'http://127.0.0.1:8787/api/v1',
      'INPUT_FAIL-ON': 'High',
      INPUT_BASELINE: 'latest',
      'INPUT_WAIT-TIMEOUT': '1800',
      'INPUT_MAX-WAIT': '0',
      INPUT_SARIF: 'results.sarif',
      INPUT_JUNIT: 'junit.xml',
      INPUT_HTML: 'report.html',
    });
    expect(inputs).toEqual({
      baseUrl: 'http://127.0.0.1:8787',
      workspace: 'acme',
      email: 'ci@acme.test',
      password: 'hunter2',
      connection: 'prod',
      scanId: undefined,
      failOn: 'high',
      baseline: 'latest',
      waitTimeout: 1800,
      maxWait: '0',
      reports: [
        { format: 'sarif', path: 'results.sarif' },
        { format: 'junit', path: 'junit.xml' },
        { format: 'html', path: 'report.html' },
      ],
      ignoreFile: undefined,
      args: { words: [], extra: {} },
      prComment: undefined,
    });
  });

  it('names the input that is missing or wrong', () => {
    expect(problem({ ...base, 'INPUT_BASE-URL': '' })).toBe('input base-url: required, and not given');
    expect(problem({ ...base, 'INPUT_BASE-URL': 'http://scanner.example.com' })).toMatch(
      /^input base-url: .*https/,
    );
    expect(problem({ ...base, INPUT_WORKSPACE: 'a b' })).toMatch(/^input workspace: invalid workspace slug/);
    expect(problem({ ...base, INPUT_EMAIL: 'nobody' })).toMatch(/^input email: invalid email address/);
    expect(problem({ ...base, INPUT_PASSWORD: '' })).toBe('input password: required, and not given');
    expect(problem({ ...base, INPUT_PASSWORD: '   \n' })).toBe('input password: required, and not given');
    expect(problem({ ...base, 'INPUT_FAIL-ON': 'severe' })).toBe(
      'input fail-on: unknown severity "severe": use critical, high, medium, low, info',
    );
    expect(problem({ ...base, 'INPUT_WAIT-TIMEOUT': '0' })).toMatch(
      /^input wait-timeout: "0" is not a number/,
    );
    expect(problem({ ...base, 'INPUT_WAIT-TIMEOUT': '10m' })).toMatch(/^input wait-timeout:/);
    expect(problem({ ...base, 'INPUT_MAX-WAIT': '-1' })).toMatch(/^input max-wait:/);
    expect(problem({ ...base, INPUT_SARIF: 'a\nb' })).toMatch(/^input sarif:/);
  });

  it('takes exactly one of connection and scan-id', () => {
    expect(problem({ ...base, 'INPUT_SCAN-ID': 'scn_1' })).toMatch(/give one, not both/);
    expect(problem({ ...base, INPUT_CONNECTION: ' ' })).toMatch(/inputs connection and scan-id: give one/);
    expect(readInputs({ ...base, INPUT_CONNECTION: '', 'INPUT_SCAN-ID': 'scn_1' }).scanId).toBe('scn_1');
  });

  it('takes ocsf as a --report ocsf=<path>, as the other reports', () => {
    const env = { ...base, INPUT_OCSF: 'findings.ocsf.jsonl' };
    expect(readInputs(env).reports).toEqual([{ format: 'ocsf', path: 'findings.ocsf.jsonl' }]);
  });

  it('keeps the password as given, but for the line end a block scalar adds', () => {
    expect(passwordInput({ INPUT_PASSWORD: ' pass word \n' })).toBe(' pass word ');
    expect(passwordInput({ INPUT_PASSWORD: 'a\r\n' })).toBe('a');
    expect(passwordInput({})).toBe('');
  });
});

describe('equivalentArgv', () => {
  it('is the cssctl command line the inputs amount to, never with the password', () => {
    const create = equivalentArgv(
      readInputs({
        ...base,
        'INPUT_FAIL-ON': 'high',
        INPUT_BASELINE: 'latest',
        INPUT_SARIF: 'my results.sarif',
      }),
    );
    expect(commandLine(create)).toBe(
      "cssctl scans create --connection prod --wait --fail-on high --baseline latest -o github --report 'sarif=my results.sarif'",
    );
    const wait = equivalentArgv(
      readInputs({ ...base, INPUT_CONNECTION: '', 'INPUT_SCAN-ID': 'scn_1', 'INPUT_WAIT-TIMEOUT': '60' }),
    );
    expect(commandLine(wait)).toBe('cssctl scans wait scn_1 --wait-timeout 60 -o github');
    expect([...create, ...wait].join(' ')).not.toContain('hunter2');
  });
});
