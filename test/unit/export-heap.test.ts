import { beforeEach, describe, expect, it, vi } from 'vitest';

// The export settings are process-wide V8 flags: here only whether and when the paginator asks for them.
const useExportHeap = vi.fn();
vi.mock('../../src/core/heap.js', () => ({ useExportHeap, EXPORT_V8_FLAGS: '' }));

const { Paginator } = await import('../../src/api/paginate.js');
const { IO } = await import('../../src/core/io.js');
const { PassThrough } = await import('node:stream');

type Item = { id: string };
const io = new IO(
  { stdout: new PassThrough(), stderr: new PassThrough(), stdin: new PassThrough() },
  { env: {} },
);

function pager(count: number, pageSize: number) {
  const data: Item[] = Array.from({ length: count }, (_, i) => ({ id: `i${i}` }));
  const fetch = async (offset: number, limit: number) => ({
    items: data.slice(offset, offset + limit),
    total: data.length,
    limit,
    offset,
  });
  return new Paginator<Item>(fetch, { pageSize, startOffset: 0, idOf: (i) => i.id, io });
}

describe('the export heap settings', () => {
  beforeEach(() => useExportHeap.mockClear());

  it('are not asked for when the list fits one page', async () => {
    for await (const page of pager(5, 10).pages()) expect(page).toHaveLength(5);
    expect(useExportHeap).not.toHaveBeenCalled();
  });

  it('are asked for when a second page is requested, before the first is handed out', async () => {
    let callsAtFirstPage = -1;
    for await (const page of pager(25, 10).pages()) {
      if (callsAtFirstPage < 0) callsAtFirstPage = useExportHeap.mock.calls.length;
      expect(page.length).toBeGreaterThan(0);
    }
    expect(callsAtFirstPage).toBe(1);
    expect(useExportHeap.mock.calls.length).toBeGreaterThanOrEqual(1);
  });
});
