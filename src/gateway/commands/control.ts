import type { SessionUsage, Store } from '../../store/types.js';
import type { MessageEvent } from '../../core/adapter.js';
import type { SkillCatalog } from '../../skills/types.js';
import { commandHelp, skillCommandNote, type GatewayCommandName } from '../../core/commands.js';
import { skillsListText } from './skill-list.js';
import type { SessionMailbox } from '../intake/mailbox.js';
import type { AdapterStatus } from '../runtime/supervisor.js';
import { shortSessionId } from '../../store/session-id.js';
import { contextLine, type ContextUsage } from '../sessions/context-status.js';
import { cronReply, senderStanding, sethomeReply } from './cron.js';
import type { AdapterEntry } from '../../core/platform.js';
import type { ApprovalDesk } from '../approvals/desk.js';
import { approvalCommandReply } from '../approvals/command.js';
import type { ToolProgressSetting } from '../../store/types.js';
import { usageReply, type ModelPricing } from './usage.js';
import { titleReply } from './title.js';
import { resumeReply, sessionsReply } from './sessions.js';
import { verboseReply } from './verbose.js';
import { voiceReply } from './voice.js';
import { speaksOn } from '../turns/voice-out.js';
import type { InboxRow } from '../../store/types.js';
import { retryRefusal } from './retry.js';
import { undoReply } from './undo.js';
import { STOPPED_REPLY } from '../../core/stop-reply.js';

/** What a control command can see and change. */
export interface ControlContext {
  readonly store: Store;
  readonly sessionKey: string;
  readonly mailbox: SessionMailbox | undefined;
  readonly modelLabel: string;
  readonly adapters: () => readonly AdapterStatus[];
  readonly startedAt: number;
  readonly now: number;
  /** The memory files' listing (see memory/report.ts); absent when memory is off. */
  readonly memoryReport?: (() => string) | undefined;
  /** The session's tokens used vs the model's context length; absent when unknown. */
  readonly contextUsage?: ((params: { sessionId: string }) => ContextUsage | undefined) | undefined;
  /** The model route's keys, one line per model with keys, masked (see agent/route/status.ts). */
  readonly keyLines?: (() => string[]) | undefined;
  /** The profile's skills as on disk now (what /skills lists); absent when the gateway has no skills folder. */
  readonly skills?: (() => SkillCatalog) | undefined;
  /** The platform's adapter entry: its allowlist (/sethome in groups needs an owner) and message limit (/cron is cut to it). */
  readonly entry?: AdapterEntry | undefined;
  /** Where approval questions wait (/approve, /deny answer them). */
  readonly approvals?: ApprovalDesk | undefined;
  /** model.pricing (/usage's estimated cost); absent: no cost shown. */
  readonly pricing?: ModelPricing | undefined;
  /** The configured tool progress (display.tool_progress): what /verbose turns on and the chat has without a choice. */
  readonly toolProgress?: ToolProgressSetting | undefined;
  /** Text to speech is set up (`tts.provider`): what /voice says when it cannot speak yet. */
  readonly speech?: boolean | undefined;
  /** Redacts secrets (a /title's text). */
  readonly scrub?: ((text: string) => string) | undefined;
  /** The time zone /sessions shows times in. */
  readonly timeZone?: string | undefined;
  /** The command's own inbox row (/undo marks what it hides with its id). */
  readonly row?: InboxRow | undefined;
  /** What /context answers (the next request by part); absent: not measurable here. */
  readonly contextText?: (() => string) | undefined;
  /** What /tools answers for a platform (its tool sets and their tools); absent: every tool, no sets to show. */
  readonly toolsText?: ((platform: string) => string) | undefined;
  /** One line per configured MCP server (what /status lists); absent or empty: none configured. */
  readonly mcpLines?: (() => string[]) | undefined;
}

/** Runs one control command immediately (never behind a turn) and returns the reply text (/compress: compress-command.ts). */
export function runControlCommand(params: { name: Exclude<GatewayCommandName, 'compress' | 'model' | 'reload_mcp' | 'rollback'>; args?: string; event: MessageEvent; ctx: ControlContext }): string {
  const { name, ctx } = params;
  switch (name) {
    case 'stop': {
      const stopped = ctx.mailbox?.interrupt({ kind: 'stop' }) ?? false;
      const dropped = ctx.mailbox?.clearQueue() ?? [];
      for (const row of dropped) ctx.store.setInboxState({ inboxId: row.id, state: 'done' });
      if (!stopped && dropped.length === 0) return 'Nothing to stop: no answer is being written.';
      return dropped.length > 0 ? `Stopped. ${dropped.length} waiting message(s) dropped.` : STOPPED_REPLY;
    }
    case 'new': {
      ctx.mailbox?.interrupt({ kind: 'new-session' });
      ctx.approvals?.forgetSession({ sessionKey: ctx.sessionKey });
      const current = ctx.store.activeSession({ key: ctx.sessionKey });
      if (current) ctx.store.endSession({ sessionId: current.id });
      const next = ctx.store.createSession({ key: ctx.sessionKey, parentSessionId: current?.id ?? null });
      return `Started a new conversation (${shortSessionId({ id: next.id })}). The previous one is kept in the history.`;
    }
    case 'status':
      return statusText({ ctx });
    case 'memory':
      return memoryText({ ctx, event: params.event });
    case 'skills':
      return ctx.skills === undefined ? 'Skills are not set up for this gateway.' : skillsListText({ catalog: ctx.skills(), platform: params.event.platform });
    case 'cron':
      return cronReply({ store: ctx.store, maxMessageLength: senderStanding({ entry: ctx.entry, event: params.event }).maxMessageLength });
    case 'sethome':
      return sethomeReply({ store: ctx.store, event: params.event, owner: senderStanding({ entry: ctx.entry, event: params.event }).owner });
    case 'approve':
    case 'deny':
      return approvalCommandReply({ desk: ctx.approvals, name, args: params.args ?? '', event: params.event });
    case 'usage':
      return usageReply({ store: ctx.store, sessionKey: ctx.sessionKey, pricing: ctx.pricing, usageLine });
    case 'title':
      return titleReply({ args: params.args ?? '', store: ctx.store, sessionKey: ctx.sessionKey, scrub: ctx.scrub ?? ((text) => text) });
    case 'sessions':
      return sessionsReply({ store: ctx.store, sessionKey: ctx.sessionKey, timeZone: ctx.timeZone ?? hostZone(), maxLength: senderStanding({ entry: ctx.entry, event: params.event }).maxMessageLength });
    case 'resume':
      return resumeReply({
        args: params.args ?? '',
        store: ctx.store,
        sessionKey: ctx.sessionKey,
        before: () => {
          ctx.mailbox?.interrupt({ kind: 'new-session' });
          ctx.approvals?.forgetSession({ sessionKey: ctx.sessionKey });
        },
      });
    case 'verbose':
      return verboseReply({ args: params.args ?? '', store: ctx.store, sessionKey: ctx.sessionKey, defaultMode: ctx.toolProgress ?? 'new' });
    case 'voice':
      return voiceReply({ args: params.args ?? '', store: ctx.store, sessionKey: ctx.sessionKey, speaks: ctx.entry === undefined || speaksOn({ adapter: ctx.entry.adapter }), configured: ctx.speech === true });
    case 'retry':
      // Only a /retry that cannot run reaches the control lane (see runner.accept): say why.
      return retryRefusal({ store: ctx.store, sessionKey: ctx.sessionKey, mailbox: ctx.mailbox }) ?? 'Nothing to retry right now.';
    case 'undo':
      return undoReply({ store: ctx.store, sessionKey: ctx.sessionKey, mailbox: ctx.mailbox, row: ctx.row });
    case 'queue':
      return 'Usage: /queue <text> — the text is answered next, without stopping the answer being written.';
    case 'steer':
      return 'Usage: /steer <text> — the text joins the answer being written at its next model call.';
    case 'context':
      return ctx.contextText?.() ?? 'The next request cannot be measured here.';
    case 'tools':
      return ctx.toolsText?.(params.event.platform) ?? 'Every tool is on here (no tool sets are configured).';
    case 'help':
      return ['Commands:', ...commandHelp, skillCommandNote, '', 'Anything else you write goes to the agent.'].join('\n');
  }
}

function memoryText(params: { ctx: ControlContext; event: MessageEvent }): string {
  const report = params.ctx.memoryReport;
  // USER.md is about the owner: a group or channel (other people read along) is not where it is listed.
  if (params.event.chat.kind !== 'dm') return 'Send /memory in a direct message: it lists what the agent knows about its owner, which others in this chat would see.';
  if (report === undefined) return 'Memory is off for this profile (memory.memory_enabled and memory.user_profile_enabled are false).';
  try {
    return `${report()}\n\nNew entries show in the agent's prompt from the next conversation (/new) on.`;
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code ?? 'error';
    return `The memory files could not be read (${code}).`;
  }
}

function statusText(params: { ctx: ControlContext }): string {
  const { ctx } = params;
  const session = ctx.store.activeSession({ key: ctx.sessionKey });
  const busy = ctx.mailbox?.runningRow ? `answering (${ctx.mailbox.queued} waiting)` : 'idle';
  const uptime = Math.round((ctx.now - ctx.startedAt) / 1000);
  const lines = [
    session ? `Session: ${shortSessionId({ id: session.id })}, ${session.messageCount} messages, since ${new Date(session.startedAt).toISOString()}` : 'Session: none yet',
    `Now: ${busy}`,
    `Model: ${ctx.modelLabel}${chosenModel({ ctx, sessionId: session?.id })}`,
    ...(ctx.keyLines?.() ?? []),
    ...(session ? [usageLine({ usage: ctx.store.sessionUsage({ sessionId: session.id, withChildren: true }) })] : []),
    ...contextLines({ ctx, sessionId: session?.id }),
    `Gateway up ${uptime}s; platforms: ${ctx.adapters().map((a) => `${a.name} ${a.state}`).join(', ') || 'none'}`,
    ...mcpStatusLines({ ctx }),
  ];
  return lines.join('\n');
}

/** "MCP servers:" and a line per server, when the profile has any. */
function mcpStatusLines(params: { ctx: ControlContext }): string[] {
  const lines = params.ctx.mcpLines?.() ?? [];
  return lines.length === 0 ? [] : ['MCP servers:', ...lines.map((line) => `• ${line}`)];
}

/** The "Context: ~12,400 / 128,000 tokens (10%)" line, when the session and the figures are known. */
function contextLines(params: { ctx: ControlContext; sessionId: string | undefined }): string[] {
  const { ctx, sessionId } = params;
  if (sessionId === undefined || ctx.contextUsage === undefined) return [];
  const usage = ctx.contextUsage({ sessionId });
  return usage === undefined ? [] : [contextLine({ usage })];
}

/** ", this conversation: NAME (/model)" when the session has a model of its own. */
function chosenModel(params: { ctx: ControlContext; sessionId: string | undefined }): string {
  const chosen = params.sessionId === undefined ? null : params.ctx.store.sessionModel({ sessionId: params.sessionId });
  return chosen === null ? '' : `; this conversation: ${chosen} (/model)`;
}

/** The host's time zone. */
function hostZone(): string {
  return Intl.DateTimeFormat().resolvedOptions().timeZone;
}

/** The session's token usage, e.g. "Usage: 3 model calls, 1,234 prompt / 56 completion tokens (1,000 cached)". */
export function usageLine(params: { usage: SessionUsage }): string {
  const { usage } = params;
  if (usage.calls === 0) return 'Usage: no model calls yet';
  const n = (value: number): string => value.toLocaleString('en-US');
  const calls = `${n(usage.calls)} model call${usage.calls === 1 ? '' : 's'}`;
  const reported = usage.calls - usage.unreported;
  const tokens = reported > 0 ? `, ${n(usage.promptTokens)} prompt / ${n(usage.completionTokens)} completion tokens (${n(usage.cachedTokens)} cached)` : '';
  const unreported =
    usage.unreported === 0 ? '' : usage.unreported === usage.calls ? '; usage not reported by the endpoint' : `; ${n(usage.unreported)} without usage (not reported by the endpoint)`;
  return `Usage: ${calls}${tokens}${unreported}`;
}
