// jq's own tests/jq.test (test/fixtures/jq): parsing it, and comparing cssctl's output with its expectations.
import { readFileSync } from 'node:fs';

export interface Case {
  line: number;
  program: string;
  input: string;
  expected: string[];
}
export interface Failure {
  line: number;
  program: string;
  message?: string;
}

/** tests/jq.test: program, input, expected outputs, separated by blank lines; %%FAIL blocks: program, error. */
export function parseSuite(text: string): { cases: Case[]; failures: Failure[] } {
  const lines = text.split('\n');
  const cases: Case[] = [];
  const failures: Failure[] = [];
  let i = 0;
  const skip = () => {
    while (i < lines.length && (lines[i]!.trim() === '' || lines[i]!.startsWith('#'))) i++;
  };
  for (skip(); i < lines.length; skip()) {
    if (lines[i]!.startsWith('%%FAIL')) {
      const ignoreMsg = lines[i]!.includes('IGNORE MSG');
      const line = i + 2;
      const program = lines[++i]!;
      const message = lines[++i];
      while (i < lines.length && lines[i]!.trim() !== '') i++;
      failures.push({ line, program, message: ignoreMsg ? undefined : message });
      continue;
    }
    const line = i + 1;
    const program = lines[i++]!;
    const input = lines[i++]!;
    const expected: string[] = [];
    for (; i < lines.length && lines[i]!.trim() !== ''; i++)
      if (!lines[i]!.startsWith('#')) expected.push(lines[i]!);
    cases.push({ line, program, input, expected });
  }
  return { cases, failures };
}

/** Compares cssctl's output with jq's expected values: strings raw (as cssctl prints them), others by value. */
export function matches(out: string, expected: string[]): boolean {
  let rest = out;
  for (const e of expected) {
    let want: unknown;
    try {
      want = JSON.parse(e);
    } catch {
      return false; // an expected value JSON.parse cannot read (jq's own literals, nan…): not comparable
    }
    if (typeof want === 'string') {
      if (!rest.startsWith(`${want}\n`)) return false;
      rest = rest.slice(want.length + 1);
      continue;
    }
    const nl = rest.indexOf('\n');
    if (nl < 0) return false;
    try {
      // By value, as jq's harness compares: keys in any order, -0 equal to 0.
      if (canonical(JSON.parse(rest.slice(0, nl))) !== canonical(want)) return false;
    } catch {
      return false;
    }
    rest = rest.slice(nl + 1);
  }
  return rest === '';
}

function canonical(v: unknown): string {
  if (Array.isArray(v)) return `[${v.map(canonical).join(',')}]`;
  if (v && typeof v === 'object') {
    const o = v as Record<string, unknown>;
    return `{${Object.keys(o)
      .sort()
      .map((k) => `${JSON.stringify(k)}:${canonical(o[k])}`)
      .join(',')}}`;
  }
  return JSON.stringify(v);
}

export const suite = parseSuite(readFileSync(new URL('../fixtures/jq/jq.test', import.meta.url), 'utf8'));
/** The cases whose input is an object or an array: the ones a cssctl command could print. */
export const objectOrArray = suite.cases.filter((c) => /^\s*[[{]/.test(c.input));
