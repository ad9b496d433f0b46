import type { ApprovalMatch } from '../capabilities.js';
import type { ToolContext } from '../tool.js';

/**
 * Asks the turn's approval capability about a dangerous command (or another call that needs the owner's yes, such as
 * an MCP tool that may change things). Resolves to undefined when it may run, or to the text the tool returns instead
 * (not thrown: the model reads it as the call's result and should not retry). Without a capability nobody can
 * approve, so it is denied (`nobody`: the reason given then; default "no one can approve commands here").
 */
export async function refusalUnlessApproved(params: { ctx: ToolContext; tool: string; command: string; matches: readonly ApprovalMatch[]; nobody?: string }): Promise<string | undefined> {
  const { ctx } = params;
  const decision =
    ctx.approval === undefined
      ? { approved: false as const, reason: params.nobody ?? 'no one can approve commands here' }
      : await ctx.approval.decide({ tool: params.tool, command: params.command, matches: params.matches, signal: ctx.signal });
  if (decision.approved) return undefined;
  return `Not run: ${decision.reason}. Do not retry it; ask the owner or choose another way.`;
}
