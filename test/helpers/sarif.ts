import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import type AjvType from 'ajv-draft-04';
import type AjvFormatsType from 'ajv-formats';

const require = createRequire(import.meta.url);
// The CommonJS export is the class itself.
const Ajv = require('ajv-draft-04') as typeof AjvType.default;
const addFormats = require('ajv-formats') as typeof AjvFormatsType.default;
let validate: ((data: unknown) => boolean) & { errors?: unknown } = undefined as never;

/** Errors of a SARIF log against the OASIS SARIF 2.1.0 schema (empty when valid). */
export function sarifSchemaErrors(log: unknown): unknown[] {
  if (!validate) {
    const path = require.resolve('@microsoft/jest-sarif/lib/schemas/sarif-2.1.0-rtm.5.json');
    const schema = JSON.parse(readFileSync(path, 'utf8')) as object;
    const ajv = new Ajv({ allErrors: true, strict: false, unicodeRegExp: false });
    // The schema's uri, uri-reference and date-time formats are checked too (artifact URIs must be valid).
    addFormats(ajv);
    validate = ajv.compile(schema);
  }
  return validate(log) ? [] : ((validate.errors as unknown[] | null | undefined) ?? ['invalid']);
}
