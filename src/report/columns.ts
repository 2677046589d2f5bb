import type { Finding } from '../api/findings-types.js';
import type { Column } from '../core/format.js';
import { fingerprintOf } from './fingerprint.js';
import { ignoredOf } from './ignore/stage.js';
import { styleSeverity } from './severity.js';

/**
 * On a narrow terminal the title and resource are cut first (down to their `min`); only then is a column left
 * out: the connection, then the status, and the id last — it is what `findings get` and `findings ignore` need
 * (cli-contract.md §15). `-o wide` or `--columns` show them all.
 */
export const findingColumns: Column<Finding>[] = [
  {
    header: 'SEVERITY',
    field: 'severity',
    value: (f) => f.severity,
    style: (t, f, color) => styleSeverity(t, f.severity, color),
    keep: true,
  },
  { header: 'TITLE', field: 'title', value: (f) => f.title, min: 12 },
  { header: 'RESOURCE', field: 'resource', value: (f) => f.resource, min: 10 },
  {
    header: 'CONNECTION',
    field: 'connection_alias',
    value: (f) => f.connection_alias,
    optional: true,
    min: 10,
    drop: 3,
  },
  { header: 'STATUS', field: 'status', value: (f) => f.status, optional: true, keep: true, drop: 2 },
  {
    header: 'ID',
    field: 'id',
    value: (f) => f.id,
    style: (t, _f, color) => color.dim(t),
    keep: true,
    drop: 1,
  },
];

/** The entry that accepts a finding (--show-ignored): why, until when, and where it is written. */
export const ignoredColumn: Column<Finding> = {
  header: 'IGNORED',
  field: 'ignored',
  value: (f) => {
    const i = ignoredOf(f);
    return i ? `${i.reason} (until ${i.expires}; ${i.source})` : undefined;
  },
};

/** With --show-ignored, table and csv also say which findings an entry accepts, why and until when. */
export const findingColumnsShowingIgnored: Column<Finding>[] = [
  ...findingColumns,
  ignoredColumn,
  {
    header: 'FINGERPRINT',
    field: 'fingerprint',
    value: (f) => (ignoredOf(f) ? fingerprintOf(f) : undefined),
  },
];
