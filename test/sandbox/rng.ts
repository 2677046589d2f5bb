// Deterministic randomness: the same seed always gives the same data, so tests and demos are repeatable.
import { createHash } from 'node:crypto';

export type Rng = () => number;

/** mulberry32: tiny and fast; its quality is ample for fake data. Returns floats in [0, 1). */
export function mulberry32(seed: number): Rng {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

function digest(parts: readonly (string | number)[]): Buffer {
  return createHash('sha256').update(parts.join('\u0000')).digest();
}

/** A 32-bit seed derived from several parts, to give each workspace or scan its own stream. */
export function hashSeed(...parts: (string | number)[]): number {
  return digest(parts).readUInt32BE(0);
}

/** An id such as fnd_3fa9c1e07b2d4a55: deterministic, unique in practice, and unordered in time. */
export function stableId(prefix: string, ...parts: (string | number)[]): string {
  return `${prefix}_${digest(parts).toString('hex').slice(0, 16)}`;
}

export function pick<T>(rng: Rng, items: readonly T[]): T {
  const item = items[Math.floor(rng() * items.length)];
  if (item === undefined) throw new Error('pick from an empty list');
  return item;
}

export function intBetween(rng: Rng, min: number, max: number): number {
  return min + Math.floor(rng() * (max - min + 1));
}
