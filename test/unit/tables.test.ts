// Table layout (issue 21): width spent on the columns people read; --columns; timestamps.
import { describe, expect, it } from 'vitest';
import { layout, shortTime } from '../../src/core/output/table.js';

describe('layout', () => {
  it('fits without cutting when there is room', () => {
    expect(layout([{ natural: 10 }, { natural: 20 }], 80)).toEqual({ shown: [0, 1], widths: [10, 20] });
  });

  it('cuts text columns, widest first, down to their min; keeps ids whole', () => {
    const r = layout(
      [
        { natural: 8, keep: true },
        { natural: 60, min: 20 },
        { natural: 20, keep: true },
      ],
      60,
    );
    expect(r.shown).toEqual([0, 1, 2]);
    expect(r.widths).toEqual([8, 28, 20]);
  });

  it('leaves out the highest drop rank first rather than cutting a text column below its min', () => {
    const cols = [
      { natural: 8, keep: true },
      { natural: 50, min: 30 },
      { natural: 40, min: 24 },
      { natural: 11, drop: 1 },
      { natural: 6, keep: true, drop: 2 },
      { natural: 20, keep: true, drop: 3 },
    ];
    const r = layout(cols, 79);
    expect(r.shown).toEqual([0, 1, 2, 3]);
    expect(r.widths[1]).toBeGreaterThanOrEqual(30);
    expect(r.widths[2]).toBeGreaterThanOrEqual(24);
    expect(r.widths.reduce((a, b) => a + b, 0) + 2 * (r.widths.length - 1)).toBeLessThanOrEqual(79);
    // Wide enough: nothing is left out.
    expect(layout(cols, 200).shown).toEqual([0, 1, 2, 3, 4, 5]);
  });

  it('with nothing left to drop, cuts text to 6 and then the kept columns, to fit', () => {
    const r = layout(
      [
        { natural: 20, keep: true },
        { natural: 40, min: 30 },
      ],
      20,
    );
    expect(r.widths[1]).toBe(6);
    expect(r.widths[0]! + r.widths[1]! + 2).toBeLessThanOrEqual(20);
  });
});

describe('shortTime', () => {
  it('shows an ISO timestamp as YYYY-MM-DD HH:MM in local time (TZ)', () => {
    const tz = process.env.TZ;
    process.env.TZ = 'UTC';
    try {
      expect(shortTime('2025-11-25T08:41:07.123Z')).toBe('2025-11-25 08:41');
    } finally {
      process.env.TZ = tz;
    }
  });
  it('leaves anything else as it is', () => {
    expect(shortTime('yesterday')).toBe('yesterday');
    expect(shortTime('2025-13-45T99:99')).toBe('2025-13-45T99:99');
    expect(shortTime('')).toBe('');
  });
});
