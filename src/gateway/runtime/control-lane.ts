import type { Logger } from 'pino';
import { routeStatusLines } from '../../agent/route/status.js';
import type { AIAgent } from '../../agent/agent.js';
import type { InboxRow, Store } from '../../store/types.js';
import type { Clock } from '../../core/clock.js';
import { commandReply } from '../commands/reply.js';
import { compressCommand } from '../commands/compress.js';
import type { CompressionDeps } from '../sessions/compress.js';
import type { ContextUsage } from '../sessions/context-status.js';
import type { AdapterSlots } from './slots.js';
import type { GatewayReplies } from '../delivery/replies.js';
import type { OwnerQuestions } from '../owner/questions.js';
import type { RunnerOptions } from './types.js';
import type { SessionMailboxes } from '../intake/mailboxes.js';
import { skillCatalogOf, type MessageCommand } from '../commands/skill-command.js';
import type { AdapterStatus } from './supervisor.js';
import { mcpServerLine, mcpServerState } from '../../mcp/status-text.js';
import { toolsetLines } from '../../tools/toolsets.js';
import { contextReply } from '../commands/context.js';
import { rollbackReply } from '../commands/rollback.js';

/** What the runner lends its control lane: the parts a command reads or changes, as they are now. */
export interface RunnerControlDeps {
  readonly store: Store;
  /** The agent current now (reconfigure replaces it). */
  readonly agent: AIAgent;
  readonly options: RunnerOptions;
  readonly clock: Clock;
  readonly logger: Logger;
  readonly mailboxes: SessionMailboxes;
  readonly slots: AdapterSlots;
  readonly questions: OwnerQuestions;
  readonly replies: GatewayReplies;
  readonly startedAt: number;
  readonly compression: CompressionDeps | undefined;
  readonly contextUsage: ((params: { sessionId: string }) => ContextUsage | undefined) | undefined;
  readonly adapters: () => readonly AdapterStatus[];
  /** Aborted when the gateway stops (a /compress in flight ends). */
  readonly signal: AbortSignal;
}

/** /tools: the platform's tool sets with the profile's tools, its MCP servers' sets, and how to change them. */
function toolsReply(params: { platform: string; agent: AIAgent; options: RunnerOptions }): string {
  const { platform, options } = params;
  const toolsets = options.toolsets?.setsFor({ platform }) ?? { sets: new Set(['all']), source: 'default' as const };
  const mcp = (options.mcp?.health({ scrub: options.scrub }) ?? []).map((server) => ({ name: server.name, detail: mcpServerState({ server }) }));
  const lines = toolsetLines({ platform, toolsets, tools: params.agent.registry.list(), mcp });
  return [...lines, `Change them with \`hermes tools enable|disable NAME --platform ${platform}\` (then \`hermes gateway reload\`); new turns use them.`].join('\n');
}

/** Answers one control command at once (never behind a turn): the reply is sent, the inbox row marked done. */
export async function answerControl(params: { deps: RunnerControlDeps; row: InboxRow; command: MessageCommand }): Promise<void> {
  const { deps, row, command } = params;
  const { store, agent, options, clock, logger } = deps;
  const event = row.event;
  const text = await commandReply({
    command,
    event,
    compress: () =>
      compressCommand({
        store,
        sessionKey: row.sessionKey,
        platform: event.platform,
        agent,
        prompts: options.prompts,
        compression: deps.compression,
        busy: (deps.mailboxes.get({ key: row.sessionKey })?.runningRow ?? null) !== null,
        signal: deps.signal,
        scrub: options.scrub,
        clock,
        logger,
      }),
    rollback: (args) => rollbackReply({ args, checkpoints: options.checkpoints, timeZone: agent.route.timeZone ?? Intl.DateTimeFormat().resolvedOptions().timeZone, maxLength: deps.slots.get({ name: event.platform })?.entry.adapter.capabilities.maxMessageLength ?? 4000 }),
    reloadMcp: () => options.mcp?.reload({ signal: deps.signal }) ?? Promise.resolve('No MCP servers are configured (mcp_servers in config.yaml).'),
    model: () => ({ store, sessionKey: row.sessionKey, routeModels: agent.route.targets.map((t) => t.name), modelList: options.modelList, signal: deps.signal }),
    ctx: () => ({
      store,
      sessionKey: row.sessionKey,
      mailbox: deps.mailboxes.get({ key: row.sessionKey }),
      modelLabel: options.modelLabel,
      adapters: deps.adapters,
      startedAt: deps.startedAt,
      now: clock.now(),
      memoryReport: options.memoryReport,
      contextUsage: deps.contextUsage,
      keyLines: () => routeStatusLines({ targets: agent.route.status(), timeZone: agent.route.timeZone }),
      ...(options.skillsDir === undefined ? {} : { skills: () => skillCatalogOf({ dir: options.skillsDir }) }),
      entry: deps.slots.get({ name: event.platform })?.entry,
      approvals: deps.questions.approvals,
      pricing: options.pricing,
      toolProgress: options.toolProgress,
      speech: options.speech !== undefined,
      scrub: options.scrub,
      timeZone: agent.route.timeZone,
      row,
      contextText: () => contextReply({ store, sessionKey: row.sessionKey, platform: event.platform, agent, tools: { ...(options.mcp ? { mcp: options.mcp } : {}), ...(options.toolsets ? { toolsets: options.toolsets } : {}) }, modelContext: options.modelContext }),
      toolsText: (platform) => toolsReply({ platform, agent, options }),
      mcpLines: () => (options.mcp?.health({ scrub: options.scrub }) ?? []).map((server) => mcpServerLine({ server })),
    }),
  });
  logger.info({ command: command.kind === 'none' ? null : command.name, inboxId: row.id }, 'control command');
  store.setInboxState({ inboxId: row.id, state: 'done' });
  deps.replies.send({ event, text, what: 'command reply' });
}
