// Stages between a source and the sinks: each takes an item stream and gives one, keeping what the source
// knows (the table's page hint, the resume command, page batches).
import type { IO } from '../core/io.js';
import type { ListSource } from '../core/output/index.js';

function isRecord(item: unknown): boolean {
  return item !== null && typeof item === 'object' && !Array.isArray(item);
}

/**
 * Items that are not objects (a `null` or a bare value in the service's list) are left out of every format,
 * with one warning when the stream ends (cli-contract.md §3) — never written as an empty row or a `null`.
 */
export function objectsOnly<T>(io: Pick<IO, 'warn'>, source: ListSource<T>): ListSource<T> {
  let dropped = 0;
  const warn = () => {
    if (dropped === 0) return;
    io.warn(
      `left out ${dropped} item${dropped === 1 ? '' : 's'} of the service's answer that ${dropped === 1 ? 'is' : 'are'} not an object (such as null)`,
    );
    dropped = 0;
  };
  const out: ListSource<T> = {
    async *[Symbol.asyncIterator]() {
      try {
        for await (const item of source) {
          if (isRecord(item)) yield item;
          else dropped++;
        }
      } finally {
        warn();
      }
    },
  };
  if (source.pages) {
    const pages = source.pages.bind(source);
    out.pages = async function* () {
      try {
        for await (const batch of pages()) {
          if (batch.every(isRecord)) {
            yield batch;
            continue;
          }
          const kept = batch.filter(isRecord);
          dropped += batch.length - kept.length;
          yield kept;
        }
      } finally {
        warn();
      }
    };
  }
  if (source.page) out.page = source.page.bind(source);
  if (source.leftOut) out.leftOut = source.leftOut.bind(source);
  if (source.resume) out.resume = source.resume.bind(source);
  return out;
}

/** `--severity` narrowing of a report (never the gate): only findings whose severity is one of `keep`. */
export function narrow<T extends { severity?: unknown }>(
  source: ListSource<T>,
  keep: (item: T) => boolean,
): ListSource<T> {
  const out: ListSource<T> = {
    async *[Symbol.asyncIterator]() {
      for await (const item of source) if (keep(item)) yield item;
    },
  };
  if (source.resume) out.resume = source.resume.bind(source);
  return out;
}

/** Calls `see` with every item as it passes (a sink's tap: the gate's tally, the step summary's counts). */
export function tap<T>(source: ListSource<T>, see: (item: T) => void): ListSource<T> {
  const out: ListSource<T> = {
    async *[Symbol.asyncIterator]() {
      for await (const item of source) {
        see(item);
        yield item;
      }
    },
  };
  if (source.resume) out.resume = source.resume.bind(source);
  return out;
}

/**
 * Runs `check` when the stream ends without a single item (`findings list --scan`: is there such a scan?); a
 * check that throws ends the stream with its error.
 */
export function afterEmpty<T>(source: ListSource<T>, check: () => Promise<void>): ListSource<T> {
  let seen = false;
  const out: ListSource<T> = {
    async *[Symbol.asyncIterator]() {
      for await (const item of source) {
        seen = true;
        yield item;
      }
      if (!seen) await check();
    },
  };
  if (source.pages) {
    const pages = source.pages.bind(source);
    out.pages = async function* () {
      for await (const batch of pages()) {
        if (batch.length > 0) seen = true;
        yield batch;
      }
      if (!seen) await check();
    };
  }
  if (source.page) out.page = source.page.bind(source);
  if (source.leftOut) out.leftOut = source.leftOut.bind(source);
  if (source.resume) out.resume = source.resume.bind(source);
  return out;
}
