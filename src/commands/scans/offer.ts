import { STANDARD_FORMATS, type Offer } from '../../core/output/offer.js';
import { REPORT_FORMATS } from '../findings/formats/index.js';

/**
 * `scans wait` and `scans create --wait`: the scan summary (table, json, ndjson, csv) or the scan's
 * findings as a CI report (sarif, junit, github).
 */
export const SCAN_REPORT_OFFER: Offer = { names: [...STANDARD_FORMATS, ...REPORT_FORMATS], default: 'table' };
