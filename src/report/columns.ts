import type { Finding } from '../api/findings-types.js';
import type { Column } from '../core/format.js';
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
