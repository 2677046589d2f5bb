// A validator of OCSF events against the definitions of one OCSF release, read from the schema's own files
// (test/fixtures/ocsf: dictionary.json, categories.json, the class file and its `extends` chain, the profiles
// they `$include`, the objects an event uses). It resolves a class as the OCSF server (ocsf/ocsf-server) does:
//
// - `$include` of a profile merges the profile's attributes under the file's own (the file wins) and marks them
//   with the profile's name, unless the file gives the attribute a `profile` of its own (`null`: always there);
// - `extends` merges the parent's attributes under the child's (the child wins; an attribute set to null is
//   removed), and the child keeps the parent's constraints unless it has its own;
// - each attribute is completed from dictionary.json (the dictionary's definition under the class's, so enum
//   values of both count); a type that is not a data type of the dictionary is an object, resolved the same way.
//
// It then checks an event as the server's validator (lib/schema/validator2.ex) does: class_uid, category_uid,
// type_uid = class_uid × 100 + activity_id, metadata.version, every required attribute present, every value of
// the right type (nested objects and arrays too; ranges, max lengths, regexes of the data types), every enum
// value defined, every enum sibling equal to its caption, no attribute the class or object does not have
// (profile attributes only when the event names the profile in metadata.profiles), the objects' constraints.
// It is stricter in a few places, so that cssctl's events stay clean: a null value, a deprecated attribute or
// enum value, a regex not matched and a sibling that differs from its caption are errors here, not warnings.
// A missing recommended attribute is a warning.
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';

export const OCSF_FIXTURES = join(import.meta.dirname, '..', 'fixtures', 'ocsf');

type Json = Record<string, unknown>;

interface Attr {
  type?: string;
  is_array?: boolean;
  requirement?: string;
  enum?: Record<string, { caption?: string; '@deprecated'?: unknown }>;
  sibling?: string;
  profile?: string | null;
  '@deprecated'?: { message?: string };
  [key: string]: unknown;
}

interface Definition {
  name: string;
  caption?: string;
  uid?: number;
  category?: string;
  extends?: string;
  meta?: string;
  attributes: Record<string, Attr>;
  constraints?: Record<string, string[]>;
  profiles?: string[];
  '@deprecated'?: unknown;
}

export interface OcsfClass extends Definition {
  class_uid: number;
  category_uid: number;
  category_name: string;
}

export interface OcsfReport {
  errors: string[];
  warnings: string[];
}

const isObject = (v: unknown): v is Json => v !== null && typeof v === 'object' && !Array.isArray(v);

/** Right wins; maps are merged key by key, anything else (arrays too) is replaced. */
function deepMerge(left: unknown, right: unknown): unknown {
  if (!isObject(left) || !isObject(right)) return right === undefined ? left : right;
  const out: Json = { ...left };
  for (const [k, v] of Object.entries(right)) out[k] = k in left ? deepMerge(left[k], v) : v;
  return out;
}

const INCLUDE = '$include';

export class OcsfSchema {
  readonly version: string;
  private readonly dictionary: { attributes: Record<string, Attr>; types: Record<string, Json> };
  private readonly categories: Record<string, { uid: number; caption: string }>;
  private readonly files = new Map<string, Json>();
  private readonly objects = new Map<string, Definition>();
  private readonly classes = new Map<number, OcsfClass>();
  readonly profileNames: Set<string>;

  constructor(readonly dir: string = OCSF_FIXTURES) {
    this.version = String((this.read('version.json') as { version: string }).version);
    const dict = this.read('dictionary.json') as {
      attributes: Record<string, Attr>;
      types: { attributes: Record<string, Json> };
    };
    this.dictionary = { attributes: dict.attributes, types: dict.types.attributes };
    this.categories = (this.read('categories.json') as { attributes: OcsfSchema['categories'] }).attributes;
    this.profileNames = new Set(
      readdirSync(join(dir, 'profiles'))
        .filter((f) => f.endsWith('.json'))
        .map((f) => (this.read(`profiles/${f}`) as { name: string }).name),
    );
  }

  private read(path: string): Json {
    let v = this.files.get(path);
    if (!v) {
      const file = join(this.dir, path);
      if (!existsSync(file))
        throw new Error(
          `${path} is not among the OCSF files kept in ${relative(process.cwd(), this.dir)} (copy it from the ${this.versionOrRelease()} release)`,
        );
      v = JSON.parse(readFileSync(file, 'utf8')) as Json;
      this.files.set(path, v);
    }
    return v;
  }

  private versionOrRelease(): string {
    try {
      return String((JSON.parse(readFileSync(join(this.dir, 'version.json'), 'utf8')) as Json).version);
    } catch {
      return 'same';
    }
  }

  /** A file with its `$include`s resolved (profiles' attributes marked with the profile's name). */
  private withIncludes(path: string): Definition {
    const raw = structuredClone(this.read(path)) as unknown as Definition & { attributes?: Json };
    const attrs = { ...(raw.attributes ?? {}) } as Json;
    const includes = attrs[INCLUDE];
    delete attrs[INCLUDE];
    let merged: Json = attrs;
    for (const inc of includes === undefined ? [] : Array.isArray(includes) ? includes : [includes]) {
      const included = this.withIncludes(String(inc));
      const theirs: Json = {};
      for (const [k, a] of Object.entries(included.attributes)) {
        theirs[k] = included.meta === 'profile' && !('profile' in a) ? { ...a, profile: included.name } : a;
      }
      merged = deepMerge(theirs, merged) as Json;
    }
    // An attribute's own `$include` (a file of enum values) goes under the attribute.
    for (const [k, a] of Object.entries(merged)) {
      if (isObject(a) && typeof a[INCLUDE] === 'string') {
        const { [INCLUDE]: file, ...rest } = a;
        merged[k] = deepMerge(this.read(String(file)), rest);
      }
    }
    return { ...raw, attributes: merged as Record<string, Attr> };
  }

  /** A definition with its `extends` chain merged in (`dir`: events or objects). */
  private resolveExtends(def: Definition, find: (name: string) => string): Definition {
    if (!def.extends) return def;
    const base = this.resolveExtends(this.withIncludes(find(def.extends)), find);
    const attributes: Record<string, Attr> = {};
    for (const [k, v] of Object.entries(deepMerge(base.attributes, def.attributes) as Json))
      if (v !== null) attributes[k] = v as Attr;
    return {
      ...base,
      ...Object.fromEntries(Object.entries(def).filter(([, v]) => v !== undefined && v !== null)),
      profiles: [...new Set([...(base.profiles ?? []), ...(def.profiles ?? [])])],
      constraints: def.constraints ?? base.constraints,
      attributes,
    } as Definition;
  }

  /** Each attribute completed from the dictionary (the dictionary's definition under the class's). */
  private withDictionary(def: Definition): Definition {
    const attributes: Record<string, Attr> = {};
    for (const [k, a] of Object.entries(def.attributes)) {
      const d = this.dictionary.attributes[k];
      if (!d && !a.type) throw new Error(`schema: attribute ${k} of ${def.name} is not in dictionary.json`);
      attributes[k] = deepMerge(d ?? {}, a) as Attr;
    }
    return { ...def, attributes };
  }

  private eventFiles(dir = 'events'): string[] {
    return readdirSync(join(this.dir, dir), { withFileTypes: true }).flatMap((e) =>
      e.isDirectory()
        ? this.eventFiles(`${dir}/${e.name}`)
        : e.name.endsWith('.json')
          ? [`${dir}/${e.name}`]
          : [],
    );
  }

  private findEvent = (name: string): string => {
    const hit = this.eventFiles().find((p) => (this.read(p) as { name?: string }).name === name);
    if (!hit) throw new Error(`schema: no event class named ${name} among the kept files`);
    return hit;
  };

  private findObject = (name: string): string => `objects/${name}.json`;

  /** The class whose class_uid this is, resolved; undefined when no kept class has it. */
  classByUid(uid: number): OcsfClass | undefined {
    const cached = this.classes.get(uid);
    if (cached) return cached;
    for (const path of this.eventFiles()) {
      const def = this.resolveExtends(this.withIncludes(path), this.findEvent);
      const cat = def.category ? this.categories[def.category] : undefined;
      if (def.uid === undefined || !cat) continue;
      const classUid = cat.uid * 1000 + def.uid;
      if (classUid !== uid) continue;
      const resolved = this.withDictionary(def);
      // As the server does: the class's own uids become the only values of class_uid and category_uid, and
      // type_uid's values are class_uid × 100 + each activity_id (captioned "<class>: <activity>").
      const attrs = resolved.attributes;
      const activities = attrs.activity_id?.enum ?? {};
      attrs.class_uid = { ...attrs.class_uid, enum: { [classUid]: { caption: def.caption } } };
      attrs.category_uid = { ...attrs.category_uid, enum: { [cat.uid]: { caption: cat.caption } } };
      attrs.type_uid = {
        ...attrs.type_uid,
        enum: Object.fromEntries(
          Object.entries(activities).map(([id, a]) => [
            String(classUid * 100 + Number(id)),
            { caption: `${def.caption}: ${a.caption}` },
          ]),
        ),
      };
      const cls: OcsfClass = {
        ...resolved,
        class_uid: classUid,
        category_uid: cat.uid,
        category_name: cat.caption,
      };
      this.classes.set(uid, cls);
      return cls;
    }
    return undefined;
  }

  /** An object by name, resolved. */
  object(name: string): Definition {
    let o = this.objects.get(name);
    if (!o) {
      o = this.withDictionary(this.resolveExtends(this.withIncludes(this.findObject(name)), this.findObject));
      this.objects.set(name, o);
    }
    return o;
  }

  /** Checks one event; returns its errors and warnings (empty when it is valid). */
  validate(event: unknown): OcsfReport {
    const report: OcsfReport = { errors: [], warnings: [] };
    if (!isObject(event)) {
      report.errors.push('the event is not a JSON object');
      return report;
    }
    const uid = event.class_uid;
    if (!Number.isInteger(uid)) {
      report.errors.push(`class_uid is ${JSON.stringify(uid)}, not an integer`);
      return report;
    }
    const cls = this.classByUid(uid as number);
    if (!cls) {
      report.errors.push(`class_uid ${String(uid)}: no class of the kept definitions has it`);
      return report;
    }
    const metadata = isObject(event.metadata) ? event.metadata : undefined;
    const profiles = Array.isArray(metadata?.profiles) ? (metadata.profiles as unknown[]) : [];
    for (const p of profiles)
      if (typeof p !== 'string' || !this.profileNames.has(p))
        report.errors.push(`metadata.profiles: unknown profile ${JSON.stringify(p)}`);
    const applied = new Set(profiles.filter((p): p is string => typeof p === 'string'));
    this.checkAttributes(event, cls, '', applied, report);
    const activity = event.activity_id;
    if (Number.isInteger(activity) && event.type_uid !== cls.class_uid * 100 + (activity as number))
      report.errors.push(
        `type_uid is ${String(event.type_uid)}, not class_uid × 100 + activity_id (${cls.class_uid * 100 + (activity as number)})`,
      );
    if (metadata && typeof metadata.version === 'string' && metadata.version !== this.version)
      report.errors.push(`metadata.version is ${metadata.version}; these definitions are ${this.version}`);
    return report;
  }

  private checkAttributes(
    item: Json,
    def: Definition,
    path: string,
    profiles: Set<string>,
    report: OcsfReport,
  ): void {
    const at = (k: string) => (path ? `${path}.${k}` : k);
    const allowed = Object.entries(def.attributes).filter(
      ([, a]) => a.profile === undefined || a.profile === null || profiles.has(a.profile),
    );
    const names = new Set(allowed.map(([k]) => k));
    // An object with no attributes (`object`, the type of `unmapped`) takes any attribute.
    if (allowed.length > 0 || Object.keys(def.attributes).length > 0)
      for (const k of Object.keys(item))
        if (!names.has(k)) {
          const gated = def.attributes[k]?.profile;
          report.errors.push(
            gated
              ? `${at(k)}: attribute of the ${gated} profile, which metadata.profiles does not name`
              : `${at(k)}: no attribute "${k}" in ${'class_uid' in def ? 'class' : 'object'} ${def.name}`,
          );
        }
    for (const [k, a] of allowed) {
      const v = item[k];
      if (v === undefined) {
        if (a.requirement === 'required') report.errors.push(`${at(k)}: required attribute missing`);
        else if (a.requirement === 'recommended')
          report.warnings.push(`${at(k)}: recommended attribute missing`);
        continue;
      }
      if (v === null) {
        report.errors.push(`${at(k)}: null (leave an attribute out rather than null)`);
        continue;
      }
      if (a['@deprecated']) report.errors.push(`${at(k)}: deprecated (${a['@deprecated'].message ?? ''})`);
      if (a.is_array) {
        if (!Array.isArray(v)) {
          report.errors.push(`${at(k)}: expected an array of ${a.type}`);
          continue;
        }
        v.forEach((e, i) => this.checkValue(e, a, `${at(k)}[${i}]`, profiles, report));
      } else this.checkValue(v, a, at(k), profiles, report);
      if (a.enum) this.checkEnum(item, k, a, at(k), report);
    }
    for (const [kind, list] of Object.entries(def.constraints ?? {})) {
      const present = list.filter((k) => item[k] !== undefined && item[k] !== null).length;
      if (kind === 'at_least_one' && present === 0)
        report.errors.push(`${path || def.name}: needs at least one of ${list.join(', ')}`);
      else if (kind === 'just_one' && present !== 1)
        report.errors.push(`${path || def.name}: needs exactly one of ${list.join(', ')}`);
      else if (kind !== 'at_least_one' && kind !== 'just_one')
        report.errors.push(`${path || def.name}: constraint ${kind} is unknown to this validator`);
    }
  }

  private checkEnum(item: Json, k: string, a: Attr, path: string, report: OcsfReport): void {
    const values = a.is_array ? (item[k] as unknown[]) : [item[k]];
    for (const v of values) {
      const entry = a.enum![String(v)];
      if (!entry) {
        report.errors.push(
          `${path}: ${JSON.stringify(v)} is not one of ${Object.keys(a.enum!).join(', ')} (enum ${k})`,
        );
        continue;
      }
      if (entry['@deprecated']) report.errors.push(`${path}: the value ${String(v)} is deprecated`);
      if (a.is_array || !a.sibling || !(a.sibling in item)) continue;
      const sibling = item[a.sibling];
      if (v === 99 && sibling === entry.caption)
        report.warnings.push(`${a.sibling}: "${String(sibling)}" for 99 should be the source's own word`);
      else if (v !== 99 && sibling !== entry.caption)
        report.errors.push(
          `${path.replace(/[^.]*$/, a.sibling)}: ${JSON.stringify(sibling)} is not the caption of ${k} ${String(v)} ("${entry.caption}")`,
        );
    }
  }

  private checkValue(v: unknown, a: Attr, path: string, profiles: Set<string>, report: OcsfReport): void {
    const type = a.type ?? 'string_t';
    const types = this.dictionary.types;
    if (!(type in types)) {
      // An object.
      if (!isObject(v)) {
        report.errors.push(`${path}: expected a ${type} object, got ${kindOf(v)}`);
        return;
      }
      let def: Definition;
      try {
        def = this.object(type);
      } catch (err) {
        report.errors.push(`${path}: ${(err as Error).message}`);
        return;
      }
      if (def['@deprecated']) report.errors.push(`${path}: object ${type} is deprecated`);
      this.checkAttributes(v, { ...def, meta: 'object' }, path, profiles, report);
      return;
    }
    const t = types[type]!;
    const primitive = typeof t.type === 'string' ? t.type : type;
    const superType = typeof t.type === 'string' ? types[t.type] : undefined;
    const ok: Record<string, (x: unknown) => boolean> = {
      boolean_t: (x) => typeof x === 'boolean',
      integer_t: (x) => Number.isSafeInteger(x),
      long_t: (x) => Number.isSafeInteger(x),
      float_t: (x) => typeof x === 'number' && Number.isFinite(x),
      string_t: (x) => typeof x === 'string',
      json_t: () => true,
    };
    const check = ok[primitive];
    if (!check) {
      report.errors.push(`${path}: type ${type} has a primitive (${primitive}) this validator does not know`);
      return;
    }
    if (!check(v)) {
      report.errors.push(
        `${path}: expected ${type}${primitive !== type ? ` (${primitive})` : ''}, got ${kindOf(v)}`,
      );
      return;
    }
    const range = (t.range ?? superType?.range) as [number, number] | undefined;
    if (range && typeof v === 'number' && (v < range[0] || v > range[1]))
      report.errors.push(`${path}: ${v} is outside ${type}'s range ${range[0]}–${range[1]}`);
    const maxLen = (t.max_len ?? superType?.max_len) as number | undefined;
    if (maxLen !== undefined && typeof v === 'string' && [...v].length > maxLen)
      report.errors.push(`${path}: longer than ${type}'s ${maxLen} characters`);
    const regex = (t.regex ?? superType?.regex) as string | undefined;
    if (regex !== undefined && typeof v === 'string' && !new RegExp(regex).test(v))
      report.errors.push(`${path}: ${JSON.stringify(v)} does not match ${type}'s pattern`);
    const values = (t.values ?? superType?.values) as unknown[] | undefined;
    if (values && !values.includes(v))
      report.errors.push(`${path}: ${JSON.stringify(v)} is not a value of ${type}`);
  }
}

function kindOf(v: unknown): string {
  if (v === null) return 'null';
  if (Array.isArray(v)) return 'an array';
  if (typeof v === 'number') return Number.isInteger(v) ? `the integer ${v}` : `the number ${v}`;
  return `a ${typeof v}`;
}

let shared: OcsfSchema | undefined;

/** The schema of test/fixtures/ocsf, read once per test file. */
export function ocsfSchema(): OcsfSchema {
  return (shared ??= new OcsfSchema());
}

/**
 * Every line of an `-o ocsf` output, parsed and checked against the kept definitions; throws naming the first
 * line that is not a valid event (with all its errors). Returns the events.
 */
export function expectValidOcsf(ndjson: string): Json[] {
  const schema = ocsfSchema();
  const lines = ndjson.split('\n').filter((l) => l !== '');
  return lines.map((line, i) => {
    let event: unknown;
    try {
      event = JSON.parse(line);
    } catch {
      throw new Error(`line ${i + 1} is not JSON: ${line.slice(0, 80)}`);
    }
    const { errors } = schema.validate(event);
    if (errors.length > 0)
      throw new Error(`line ${i + 1} is not a valid OCSF event:\n- ${errors.join('\n- ')}`);
    return event as Json;
  });
}
