// `cssctl compliance [--fail-under <0-100>]` (cli-contract.md §14): GET /compliance (assumed), the score shown
// (table: one field a line; json: the service's object as it is), the gate, the step summary.
import { getCompliance, type Compliance } from '../../api/compliance.js';
import type { Context } from '../../core/context.js';
import { LIST_OFFER, chooseFormat } from '../../core/output/index.js';
import {
  belowThreshold,
  complianceGate,
  complianceRows,
  gateLine,
  renderComplianceSummary,
  type ComplianceGate,
} from '../../report/compliance.js';
import type { Output, Result } from '../../report/result.js';
import type { OptionsOf } from '../shared/define.js';
import type { complianceCommand } from './compliance.command.js';

/** What `cssctl compliance` takes (compliance.command.ts): --fail-under parsed to 0–100. */
export type ComplianceOptions = OptionsOf<typeof complianceCommand>;

export interface ComplianceScore {
  /** The service's object as it is: what `-o json` prints (and an MCP tool returns). */
  compliance: Compliance;
  /** Whether the score is below the service's threshold (undefined when it gives none). */
  belowThreshold?: boolean;
  /** --fail-under: the limit and whether the score is below it. */
  gate?: ComplianceGate;
}

/** The logic without a front end: reads the score and decides the gate. */
export async function readComplianceScore(
  ctx: Pick<Context, 'api'>,
  opts: Pick<ComplianceOptions, 'failUnder'> = {},
): Promise<ComplianceScore> {
  const compliance = await getCompliance(await ctx.api());
  return {
    compliance,
    belowThreshold: belowThreshold(compliance),
    gate: complianceGate(compliance, opts.failUnder),
  };
}

/** The verb: the score as a record, then the gate (exit 10 below --fail-under) and the step summary. */
export async function compliance(ctx: Context, opts: ComplianceOptions): Promise<Result> {
  const format = chooseFormat(await ctx.settings(), LIST_OFFER, 'compliance');
  const score = await readComplianceScore(ctx, opts);
  const c = score.compliance;
  const output: Output =
    format === 'table' ? { kind: 'record', format, ...tableOf(score) } : { kind: 'record', format, value: c };
  const workspace = (await ctx.settings()).workspace;
  return {
    output,
    finish: async () => {
      const gate = score.gate;
      if (gate && !gate.failed) ctx.io.success(gateLine(c, gate));
      return {
        limit: gate ? { failed: gate.failed, line: gateLine(c, gate) } : undefined,
        summaryMarkdown: opts.stepSummary === false ? undefined : renderComplianceSummary(c, gate, workspace),
        data: { ...score },
      };
    },
  };
}

function tableOf(score: ComplianceScore) {
  const { record, fields } = complianceRows(score.compliance, score.gate);
  return { value: record, fields };
}
