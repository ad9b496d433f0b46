import type { InboxRow } from '../../store/types.js';
import type { ToolContext } from '../../tools/tool.js';
import type { ToolRegistry } from '../../tools/registry.js';
import type { MessageEvent } from '../../core/adapter.js';
import type { TurnOrigin } from '../../tools/capabilities.js';
import type { ToolProgress } from './tool-progress.js';
import type { ApprovalCapability, CheckpointCapability, ClarifyCapability, DelegateCapability, MessagingCapability } from '../../tools/capabilities.js';

/** What a turn's tools are built from (part of TurnDeps). */
export interface TurnToolFactories {
  /** Tool context without the per-turn signal. */
  readonly toolContext: Omit<ToolContext, 'signal'>;
  /** The turn's dangerous-command approval (see approvals/); absent: nobody can approve, dangerous commands are denied. */
  readonly approval?: (params: { event: MessageEvent; sessionKey: string }) => ApprovalCapability;
  /** The turn's `send_message` (other chats of the profile, sends journaled under the turn's row); absent: not available. */
  readonly messaging?: (params: { row: InboxRow }) => MessagingCapability;
  /** The turn's delegate_task children (see delegate/); absent: delegate_task is not available. */
  readonly delegate?: (params: DelegateFactoryParams) => DelegateCapability;
  /** Asking the owner in the turn's chat (the `clarify` tool, see clarify/); never built for system-started turns. Absent: clarify is not available. */
  readonly clarify?: (params: { event: MessageEvent; sessionKey: string }) => ClarifyCapability;
  /** The turn's workspace checkpoints (once per directory per turn); absent: none are taken. */
  readonly checkpoints?: () => CheckpointCapability;
}

/** What the delegate capability of one turn is built from. */
export interface DelegateFactoryParams {
  /** The turn's tool context so far (approval included): children get it minus what they may not have. */
  readonly toolContext: Omit<ToolContext, 'signal'>;
  readonly sessionKey: string;
  readonly inboxId: number;
  /** The turn's current session. */
  readonly sessionId: () => string;
  /** The turn's tool activity lines (children's calls are shown there). */
  readonly progress: ToolProgress;
  /** The turn's tools (the agent's and the session's MCP tools): children get them minus what they may not have. */
  readonly registry: () => ToolRegistry;
}

/** The part of a turn's tool context that depends on the turn: the chat it answers, who started it, its capabilities. */
export type TurnTools = Pick<ToolContext, 'origin' | 'startedBy' | 'approval' | 'delegate' | 'clarify' | 'messaging' | 'checkpoints'>;

/**
 * What tools know of one turn: the chat it answers (where `origin` delivery goes), who started it, and the capabilities
 * built for it (approval, messaging, delegation, clarify). `sessionId` reads the turn's current
 * session (a compression may switch it mid-turn); `progress` is the turn's tool-activity lines.
 */
export function turnToolsFor(params: { deps: TurnToolFactories; row: InboxRow; progress: ToolProgress; sessionId: () => string; registry: () => ToolRegistry }): TurnTools {
  const { deps, row } = params;
  const event = row.event;
  const system = event.system;
  const approval = deps.approval?.({ event, sessionKey: row.sessionKey });
  // Nobody waits for an answer in a turn the system started (a job's run, the heartbeat, a check).
  const clarify = system === undefined ? deps.clarify?.({ event, sessionKey: row.sessionKey }) : undefined;
  // System-started turns (a job's run, the heartbeat, a check) get it too: "text me on Slack when …" is a fair job, and
  // only the profile's own known chats can be sent to. Children never get it (their context is built without it).
  const messaging = deps.messaging?.({ row });
  const checkpoints = deps.checkpoints?.();
  const tools: TurnTools = {
    origin: turnOriginOf({ event }),
    ...(system === undefined ? {} : { startedBy: system.kind }),
    ...(approval === undefined ? {} : { approval }),
    ...(messaging === undefined ? {} : { messaging }),
    ...(clarify === undefined ? {} : { clarify }),
    ...(checkpoints === undefined ? {} : { checkpoints }),
  };
  const delegate = deps.delegate?.({ toolContext: { ...deps.toolContext, ...tools }, sessionKey: row.sessionKey, inboxId: row.id, sessionId: params.sessionId, progress: params.progress, registry: params.registry });
  return { ...tools, ...(delegate === undefined ? {} : { delegate }) };
}

/** The chat a turn answers, as its tools see it (ToolContext.origin). */
export function turnOriginOf(params: { event: Pick<MessageEvent, 'platform' | 'chat'> }): TurnOrigin {
  const { platform, chat } = params.event;
  return { platform, chatId: chat.id, chatKind: chat.kind, ...(chat.threadId === undefined ? {} : { threadId: chat.threadId }) };
}
