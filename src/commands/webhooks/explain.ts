// Why a signature failed, in one line (cli-contract.md §11): a malformed header, a secret that is wrong for
// this body, or a body that was re-serialised — the same JSON in other bytes, the commonest mistake of a
// receiver whose framework parses the body before it is verified.
import { checkSignature } from '../../core/webhook-signature.js';

const TRAILING = 'trailing line ending';

/** Ways frameworks and languages commonly write JSON back out. */
interface Writer {
  name: string;
  write: (value: unknown) => string;
}

function sortedKeys(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(sortedKeys);
  if (value && typeof value === 'object') {
    const out: Record<string, unknown> = {};
    for (const k of Object.keys(value).sort()) out[k] = sortedKeys((value as Record<string, unknown>)[k]);
    return out;
  }
  return value;
}

/** Every character outside ASCII as \uXXXX (Python's ensure_ascii, PHP's default). */
function asciiOnly(json: string): string {
  return json.replace(/[\u007f-\uffff]/g, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`);
}

/** Python's json.dumps defaults: `, ` and `: ` separators, ensure_ascii. */
function pythonDumps(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(pythonDumps).join(', ')}]`;
  if (value && typeof value === 'object') {
    const items = Object.entries(value).map(([k, v]) => `${asciiOnly(JSON.stringify(k))}: ${pythonDumps(v)}`);
    return `{${items.join(', ')}}`;
  }
  return asciiOnly(JSON.stringify(value));
}

const WRITERS: Writer[] = [
  { name: 'compact JSON (JSON.stringify)', write: (v) => JSON.stringify(v) },
  { name: 'JSON indented by 2 spaces', write: (v) => JSON.stringify(v, null, 2) },
  { name: 'JSON indented by 4 spaces', write: (v) => JSON.stringify(v, null, 4) },
  { name: 'JSON indented by tabs', write: (v) => JSON.stringify(v, null, '\t') },
  { name: 'compact JSON with sorted keys', write: (v) => JSON.stringify(sortedKeys(v)) },
  {
    name: 'JSON with sorted keys, indented by 2 spaces',
    write: (v) => JSON.stringify(sortedKeys(v), null, 2),
  },
  { name: "Python's json.dumps", write: pythonDumps },
  { name: "Python's json.dumps with sort_keys", write: (v) => pythonDumps(sortedKeys(v)) },
  { name: 'compact JSON with non-ASCII escaped', write: (v) => asciiOnly(JSON.stringify(v)) },
  {
    name: "PHP's json_encode (escaped / and non-ASCII)",
    write: (v) => asciiOnly(JSON.stringify(v)).replace(/\//g, '\\/'),
  },
];

/** The other serialisation of the same JSON that `header` signs, if any: its description. */
export function reserialisedAs(secret: string, payload: Buffer, header: string): string | undefined {
  const text = payload.toString('utf8');
  // A line ending added after the body (an editor, `echo`, a heredoc) is the first thing to rule out.
  const trimmed = text.replace(/\r?\n$/, '');
  if (trimmed !== text && checkSignature(secret, trimmed, header).valid) {
    return TRAILING;
  }
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    return undefined;
  }
  for (const w of WRITERS) {
    let written: string;
    try {
      written = w.write(value);
    } catch {
      continue;
    }
    for (const candidate of [written, `${written}\n`]) {
      if (candidate !== text && checkSignature(secret, candidate, header).valid) return w.name;
    }
  }
  return undefined;
}

/** One line saying why `header` does not verify `payload`, or undefined when it does. */
export function explainFailure(secret: string, payload: Buffer, header: unknown): string | undefined {
  const verdict = checkSignature(secret, payload, header);
  if (verdict.valid) return undefined;
  if (verdict.reason === 'missing') return 'the header is malformed: no signature given';
  if (verdict.reason === 'no-secret') return 'no secret to check the signature with';
  if (verdict.reason === 'malformed') {
    const h = typeof header === 'string' ? header : '';
    let detail = 'expected sha256=<64 lowercase hex digits>';
    if (h.trim() !== h && /^sha256=[0-9a-f]{64}$/.test(h.trim()))
      detail = 'it has spaces or a line break around it';
    else if (/^sha256=[0-9a-fA-F]{64}$/i.test(h))
      detail = 'the prefix must be sha256= and the hex digits lowercase';
    else if (/^[0-9a-fA-F]{64}$/.test(h)) detail = 'the sha256= prefix is missing';
    return `the header is malformed: ${detail}`;
  }
  const other = reserialisedAs(secret, payload, header as string);
  if (other === TRAILING) {
    return 'the body looks re-serialised: it ends with a line ending the signed bytes do not have (an editor or echo adds one)';
  }
  if (other !== undefined) {
    return `the body looks re-serialised: the signature matches ${other}, not these bytes — verify the raw body as received, before any parsing`;
  }
  let json = true;
  try {
    JSON.parse(payload.toString('utf8'));
  } catch {
    json = false;
  }
  return json
    ? 'the secret is wrong for this body (no common re-serialisation of this JSON matches either)'
    : 'the secret is wrong for this body, or these are not the bytes that were signed';
}
