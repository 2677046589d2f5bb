// `cssctl compliance [--fail-under <0-100>]` (cli-contract.md §14): GET /compliance (assumed), the score shown
// (table: one field a line; json: the service's object as it is), the gate, the step summary.
import { getCompliance, type Compliance } from '../../api/compliance.js';
import type { Context } from '../../core/context.js';
import { ExitCode, ExitError } from '../../core/errors.js';
import { chooseFormat, LIST_OFFER, writeObject } from '../../core/output/index.js';
import {
  belowThreshold,
  complianceGate,
  complianceRows,
  gateLine,
  renderComplianceSummary,
  type ComplianceGate,
} from '../../report/compliance.js';
import { appendMarkdown, stepSummaryPath } from '../../report/step-summary.js';

export interface ComplianceOptions {
  /** Parsed by commander (parseFailUnder): 0–100. */
  failUnder?: number;
  /** false with --no-step-summary. */
  stepSummary?: boolean;
}

export interface ComplianceResult {
  /** The service's object as it is: what `-o json` prints (and an MCP tool returns). */
  compliance: Compliance;
  /** Whether the score is below the service's threshold (undefined when it gives none). */
  belowThreshold?: boolean;
  /** --fail-under: the limit and whether the score is below it. */
  gate?: ComplianceGate;
}

/** The logic without a terminal: reads the score and decides the gate. Front ends render the result. */
export async function readComplianceScore(
  ctx: Pick<Context, 'api'>,
  opts: Pick<ComplianceOptions, 'failUnder'> = {},
): Promise<ComplianceResult> {
  const compliance = await getCompliance(await ctx.api());
  return {
    compliance,
    belowThreshold: belowThreshold(compliance),
    gate: complianceGate(compliance, opts.failUnder),
  };
}

/** The CLI verb: prints the score, appends the step summary, exits 10 when --fail-under is not met. */
export async function compliance(ctx: Context, opts: ComplianceOptions): Promise<void> {
  const format = chooseFormat(await ctx.settings(), LIST_OFFER, 'compliance');
  const result = await readComplianceScore(ctx, opts);
  const c = result.compliance;
  if (format === 'table') {
    const { record, fields } = complianceRows(c, result.gate);
    await writeObject(ctx.io, 'table', record, fields);
  } else {
    await writeObject(ctx.io, format, c);
  }
  const path = stepSummaryPath(ctx.env, opts);
  if (path !== undefined)
    await appendMarkdown(
      path,
      renderComplianceSummary(c, result.gate, (await ctx.settings()).workspace),
      (m) => ctx.io.warn(m),
    );
  if (result.gate?.failed) throw new ExitError(gateLine(c, result.gate), ExitCode.failOn);
  if (result.gate) ctx.io.success(gateLine(c, result.gate));
}
