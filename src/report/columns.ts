import type { Finding } from '../api/findings-types.js';
import type { Column } from '../core/format.js';
import { fingerprintOf } from './fingerprint.js';
import { ignoredOf } from './ignore/stage.js';
import { styleSeverity } from './severity.js';

export const findingColumns: Column<Finding>[] = [
  {
    header: 'SEVERITY',
    value: (f) => f.severity,
    style: (t, f, color) => styleSeverity(t, f.severity, color),
  },
  { header: 'TITLE', value: (f) => f.title },
  { header: 'RESOURCE', value: (f) => f.resource },
  { header: 'CONNECTION', value: (f) => f.connection_alias, optional: true },
  { header: 'STATUS', value: (f) => f.status, optional: true },
  { header: 'ID', value: (f) => f.id, style: (t, _f, color) => color.dim(t) },
];

/** With --show-ignored, table and csv also say which findings an entry accepts, why and until when. */
export const findingColumnsShowingIgnored: Column<Finding>[] = [
  ...findingColumns,
  {
    header: 'IGNORED',
    value: (f) => {
      const i = ignoredOf(f);
      return i ? `${i.reason} (until ${i.expires}; ${i.source})` : undefined;
    },
  },
  { header: 'FINGERPRINT', value: (f) => (ignoredOf(f) ? fingerprintOf(f) : undefined) },
];
