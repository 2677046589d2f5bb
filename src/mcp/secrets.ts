// A secret in every form a result may carry it (cli-contract.md §13): a summary by rule turns a title that echoes
// the Authorization header into a lower-cased slug (`bearer-eyjhbgcio…`, cut at 64 characters), so masking the
// exact string is not enough. Each secret is looked for as it is, lower-cased, and as a slug, and so is any run
// of at least WINDOW + STEP - 1 characters of those forms (what a cut slug keeps of it).
const MASK = '[REDACTED]';

/** A piece of a secret's form this long is masked on its own (a cut slug's end)... */
export const WINDOW = 10;
/** ...looked for at every STEP characters of the form: any run of WINDOW + STEP - 1 characters is found. */
const STEP = 5;

/** As ruleIdOf (src/report/fingerprint.ts) slugs a title: lower-cased, every run of other characters one `-`. */
export function slugOf(text: string): string {
  return text
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-+|-+$/g, '');
}

interface Form {
  /** Compared with the lower-cased text. */
  lower: string;
  /** Whether the text is compared as a slug (other characters made `-`). */
  slug: boolean;
}

export class SecretForms {
  private forms: Form[] = [];
  private known = new Set<string>();

  /** Takes the server's secrets (again, after a refresh brought a new token). */
  update(secrets: readonly string[]): void {
    for (const s of secrets) {
      if (this.known.has(s)) continue;
      this.known.add(s);
      this.forms.push({ lower: s.toLowerCase(), slug: false });
      const slug = slugOf(s);
      if (slug.length >= 4 && slug !== s.toLowerCase()) this.forms.push({ lower: slug, slug: true });
    }
  }

  /** The text with every form of every secret, and every piece of WINDOW characters of one, masked. */
  mask(text: string): string {
    if (this.forms.length === 0 || text.length < 4) return text;
    let out = text;
    for (const form of this.forms) out = maskForm(out, form);
    return out;
  }
}

function maskForm(text: string, form: Form): string {
  const hay = form.slug ? text.toLowerCase().replace(/[^a-z0-9]/g, '-') : text.toLowerCase();
  const needle = form.lower;
  // Regions [start, end) of the text to mask: the whole form, or a run of at least WINDOW characters of it.
  const regions: [number, number][] = [];
  const win = Math.min(WINDOW, needle.length);
  if (hay.length < win) return text;
  const starts: number[] = [];
  for (let k = 0; k + win <= needle.length; k += STEP) starts.push(k);
  if (starts.at(-1) !== needle.length - win) starts.push(needle.length - win);
  for (const k of starts) {
    const piece = needle.slice(k, k + win);
    for (let at = hay.indexOf(piece); at !== -1; at = hay.indexOf(piece, at + 1)) {
      // Grown to the longest run of the form around it.
      let start = at;
      let end = at + win;
      let i = k;
      let j = k + win;
      while (start > 0 && i > 0 && hay[start - 1] === needle[i - 1]) {
        start--;
        i--;
      }
      while (end < hay.length && j < needle.length && hay[end] === needle[j]) {
        end++;
        j++;
      }
      regions.push([start, end]);
    }
  }
  if (regions.length === 0) return text;
  regions.sort((a, b) => a[0] - b[0]);
  let out = '';
  let pos = 0;
  for (const [s, e] of regions) {
    if (e <= pos) continue;
    out += text.slice(pos, Math.max(pos, s)) + (s >= pos ? MASK : '');
    pos = e;
  }
  return out + text.slice(pos);
}
