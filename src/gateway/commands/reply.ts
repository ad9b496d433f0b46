import type { MessageEvent } from '../../core/adapter.js';
import { runControlCommand, type ControlContext } from './control.js';
import { otherCommandReply, type MessageCommand } from './skill-command.js';
import { modelCommand, type ModelCommandDeps } from './model.js';

/**
 * The reply to a message the control lane answers: `/compress` runs a compression (`compress`), the other gateway
 * commands answer from the context `ctx` builds, anything else (an unknown command, a skill that cannot run here) gets
 * its fixed reply.
 */
export async function commandReply(params: {
  command: MessageCommand;
  event: MessageEvent;
  compress: () => Promise<string>;
  /** /reload-mcp: reads mcp_servers again and reconnects them (absent: the profile's gateway has no MCP servers). */
  reloadMcp: () => Promise<string>;
  /** /rollback: the workspace checkpoints (git runs, so it is answered asynchronously). */
  rollback: (args: string) => Promise<string>;
  /** What /model reads (it may wait briefly for the endpoint's model list). */
  model: () => ModelCommandDeps;
  ctx: () => ControlContext;
}): Promise<string> {
  const { command } = params;
  if (command.kind !== 'command') return otherCommandReply({ command });
  if (command.name === 'compress') return params.compress();
  if (command.name === 'reload_mcp') return params.reloadMcp();
  if (command.name === 'rollback') return params.rollback(command.args);
  if (command.name === 'model') return modelCommand({ args: command.args, deps: params.model() });
  return runControlCommand({ name: command.name, args: command.args, event: params.event, ctx: params.ctx() });
}
