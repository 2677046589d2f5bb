// `-o csv` for spreadsheets and terminals (issue 20 #7): formula-looking text cells get a leading `'`
// (OWASP), numbers stay numbers, and on a terminal cells are neutralised as table cells are.
import { describe, expect, it } from 'vitest';
import { csvCell } from '../../src/core/output/cells.js';
import { writeList, writeObject, type Column } from '../../src/core/output/index.js';
import { IO } from '../../src/core/io.js';
import { Collect } from '../helpers/streams.js';

function makeIO(stdoutTTY: boolean) {
  const stdout = new Collect(stdoutTTY);
  const stderr = new Collect(false);
  const io = new IO({ stdin: process.stdin, stdout, stderr }, { env: {} });
  return { io, stdout };
}

// eslint-disable-next-line no-control-regex
const UNSAFE = /[\u0000-\u0009\u000b-\u001f\u007f-\u009f\u202a-\u202e\u2066-\u2069]/;

describe('csvCell: formula injection (OWASP)', () => {
  it.each([
    ["=cmd|' /C calc'!A0", "'=cmd|' /C calc'!A0"],
    ['+SUM(A1:A9)', "'+SUM(A1:A9)"],
    ['+SUM(1,2)', `"'+SUM(1,2)"`],
    ['@prod', "'@prod"],
    ['-open', "'-open"],
    ['\tx', "'\tx"],
    ['\rx', `"'\rx"`],
    ['=HYPERLINK("http://evil","click")', `"'=HYPERLINK(""http://evil"",""click"")"`],
  ])('the text cell %j is written %s', (value, written) => {
    expect(csvCell(value, false)).toBe(written);
  });

  it('text cells that only contain such a character later are left alone', () => {
    for (const v of ['a=b', 'prod-1', 'x@y.z', 'a+b', ' =not a formula start', "'=already quoted"])
      expect(csvCell(v, false)).toBe(v);
  });

  it('numbers are left as they are; the string "-1" is text, and prefixed (the rule is on text cells)', () => {
    expect(csvCell(-1, false)).toBe('-1');
    expect(csvCell(-0.5, false)).toBe('-0.5');
    expect(csvCell(42, false)).toBe('42');
    expect(csvCell('-1', false)).toBe("'-1");
    expect(csvCell(true, false)).toBe('true');
    expect(csvCell(undefined, false)).toBe('');
    expect(csvCell(null, false)).toBe('');
    expect(csvCell({ a: -1 }, false)).toBe('"{""a"":-1}"');
  });
});

describe('csvCell on a terminal', () => {
  const hostile = [
    '\u001b]8;;https://evil.example/\u0007click me\u001b]8;;\u0007',
    '\u001b[2J\u001b[Hcleared',
    'c1\u009b31mred\u0085',
    'bidi\u202egnp.exe\u2066x\u2069',
    'del\u007fbell\u0007',
    'two\nlines',
  ];

  it('escape sequences, C0/C1, DEL and bidi controls never reach the terminal', () => {
    const cells = hostile.map((v) => csvCell(v, true));
    for (const c of cells) expect(c).not.toMatch(UNSAFE);
    expect(cells).toEqual(['click me', 'cleared', 'c1red', 'bidignp.exex', 'delbell', 'two lines']);
  });

  it('off a terminal the text is kept as the service gave it (quoted where RFC 4180 says)', () => {
    expect(csvCell(hostile[0], false)).toBe(hostile[0]);
    expect(csvCell('two\nlines', false)).toBe('"two\nlines"');
  });

  it('a formula hidden behind an escape sequence is prefixed on a terminal; a leading tab too', () => {
    expect(csvCell('\u001b[31m=1+1', true)).toBe("'=1+1");
    expect(csvCell('\t=1+1', true)).toBe("' =1+1");
    expect(csvCell('\u001b[31m=1+1', false)).toBe('\u001b[31m=1+1');
  });
});

interface Row {
  title: unknown;
  count: unknown;
}
const columns: Column<Row>[] = [
  { header: 'TITLE', value: (r) => r.title },
  { header: 'COUNT', value: (r) => r.count },
];

describe('the csv format and csv records', () => {
  it('writeList: formulas prefixed, numbers untouched, piped text kept whole', async () => {
    const { io, stdout } = makeIO(false);
    await writeList(
      io,
      [
        { title: '=1+1', count: -1 },
        { title: '\u001b[2Jx', count: '-1' },
      ],
      { format: 'csv', columns, noun: 'rows' },
    );
    await io.finishOutput();
    expect(stdout.text).toBe("title,count\n'=1+1,-1\n\u001b[2Jx,'-1\n");
  });

  it('writeList on a terminal: cells neutralised as the table neutralises them', async () => {
    const { io, stdout } = makeIO(true);
    await writeList(io, [{ title: '\u001b]8;;https://evil/\u0007=x\u001b]8;;\u0007', count: 3 }], {
      format: 'csv',
      columns,
      noun: 'rows',
    });
    await io.finishOutput();
    expect(stdout.text).toBe("title,count\n'=x,3\n");
  });

  it('writeObject: keys and values from the service follow the same rules', async () => {
    const { io, stdout } = makeIO(true);
    await writeObject(io, 'csv', { '@key\u001b[31m': '+v', critical_count: -1, risk: '-1' });
    await io.finishOutput();
    expect(stdout.text).toBe("'@key,critical_count,risk\n'+v,-1,'-1\n");
  });
});
