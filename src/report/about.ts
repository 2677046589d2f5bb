// What a report says it is about: the workspace and the service (html's header, OCSF's metadata).
import type { Context } from '../core/context.js';
import type { ReportAbout } from '../core/format.js';

/** The workspace and the service's base URL of the command's settings (none when they cannot be read). */
export async function workspaceAbout(
  ctx: Pick<Context, 'settings'>,
): Promise<Pick<ReportAbout, 'workspace' | 'service'>> {
  const s = await ctx.settings();
  let service: string | undefined;
  try {
    service = s.baseUrl;
  } catch {
    // A base URL the profile holds but that is not valid: a report read from files still gets written.
    service = undefined;
  }
  return { workspace: s.workspace, service };
}
