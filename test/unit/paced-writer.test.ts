import { describe, expect, it } from 'vitest';
import { pacedWriter } from '../../src/report/formats/buckets.js';
import type { FormatterContext } from '../../src/core/format.js';
import type { Finding } from '../../src/api/findings-types.js';

function fakeCtx(outReady: () => Promise<void> | undefined) {
  const written: string[] = [];
  const ctx = {
    write: (s: string) => written.push(s),
    io: { outReady },
    columns: [],
    noun: 'findings',
  } as unknown as FormatterContext<Finding>;
  return { ctx, written };
}

describe("a report's paced write-out", () => {
  it('writes everything in order and lets the event loop turn once per MiB', async () => {
    const { ctx, written } = fakeCtx(() => undefined);
    const write = pacedWriter(ctx);
    const piece = 'x'.repeat(64 * 1024);
    let pauses = 0;
    for (let i = 0; i < 48; i++) {
      let turned = false;
      setImmediate(() => (turned = true));
      const p = write(`${i}:${piece}`);
      if (p) {
        pauses++;
        await p;
        expect(turned).toBe(true); // a real turn of the event loop, not a microtask
      }
    }
    expect(written.map((s) => s.split(':')[0])).toStrictEqual(
      Array.from({ length: 48 }, (_, i) => String(i)),
    );
    expect(pauses).toBe(3); // 48 × 64 KiB = 3 MiB
  });

  it('waits for stdout to drain when it is full', async () => {
    let drained!: () => void;
    const full = new Promise<void>((resolve) => (drained = resolve));
    const { ctx } = fakeCtx(() => full);
    const write = pacedWriter(ctx);
    const p = write('y'.repeat(1024 * 1024));
    expect(p).toBe(full);
    drained();
    await p;
  });
});
