import type { Checkpoints } from '../../checkpoints/checkpoints.js';
import type { AIAgent } from '../../agent/agent.js';
import type { Logger } from 'pino';
import type { Store } from '../../store/types.js';
import type { Clock } from '../../core/clock.js';
import type { AdapterSlot, AdapterSlots } from './slots.js';
import type { CompressionDeps } from '../sessions/compress.js';
import type { RunnerOptions } from './types.js';
import { skillExpander } from '../commands/skill-command.js';
import type { TurnDeps } from '../turns/turn.js';
import { approvalCapability } from '../approvals/capability.js';
import type { ApprovalDesk } from '../approvals/desk.js';
import { hasApprovalOwner } from '../approvals/owner.js';
import { sendText } from '../inject/send.js';
import { messagingCapability } from '../messaging/capability.js';
import { delegateCapability } from '../delegate/capability.js';
import type { RunningDelegations } from '../delegate/running.js';
import { clarifyCapability } from '../clarify/capability.js';
import type { ClarifyDesk } from '../clarify/desk.js';
import type { GatewayMetrics } from '../ops/metrics.js';
import { componentLogger } from '../../log/component.js';
import { meteredComplete, modelMeter } from '../ops/model-meter.js';

/** What a turn's deps are built from: the runner's parts and current settings, and the slot the turn answers on. */
export interface TurnDepsSource {
  readonly store: Store;
  readonly agent: AIAgent;
  readonly clock: Clock;
  readonly logger: Logger;
  readonly slot: AdapterSlot;
  readonly options: RunnerOptions;
  readonly maxAttempts: number;
  readonly compression: { compression?: CompressionDeps };
  readonly onDelivered?: TurnDeps['onDelivered'];
  readonly onFinished?: TurnDeps['onFinished'];
  /** Where approval questions wait (the runner's); with `options.approval` the turn's tools get an approval capability. */
  readonly approvals?: ApprovalDesk;
  /** Every platform's adapter (the runner's): with them the turn's tools get `send_message` to the profile's other chats. */
  readonly slots?: AdapterSlots;
  /** Where clarify questions wait (the runner's); with `options.clarifyTimeoutMs` the turn's tools get a clarify capability. */
  readonly clarifications?: ClarifyDesk;
  /** Counts the model calls of the turn's judge and children (gateway.http.metrics). */
  readonly metrics?: GatewayMetrics | undefined;
  /** The turns running delegate_task children (the runner's): a stop interrupts them at once. */
  readonly delegations?: RunningDelegations;
}

/** The turn's dangerous-command approval, when the runner has a desk and approval settings (the judge metered). */
function approvalFactory(params: TurnDepsSource): TurnDeps['approval'] {
  const { slot, options, metrics } = params;
  const desk = params.approvals;
  const configured = options.approval;
  if (desk === undefined || configured === undefined) return undefined;
  const judge = configured.judge;
  const settings = judge === undefined ? configured : { ...configured, judge: meteredComplete({ complete: judge, metrics, purpose: 'judge' }) };
  return ({ event, sessionKey }) =>
    approvalCapability({
      desk,
      settings,
      store: params.store,
      event,
      sessionKey,
      adapter: slot.entry.adapter,
      pacer: slot.pacer,
      hasOwner: hasApprovalOwner({ entry: slot.entry }),
      scrub: options.scrub,
      logger: componentLogger({ logger: params.logger, component: 'approval' }),
    });
}

/** The turn's `send_message`, when the runner handed its slots. */
function messagingFactory(params: TurnDepsSource): TurnDeps['messaging'] {
  const { options, slots } = params;
  if (slots === undefined) return undefined;
  const logger = componentLogger({ logger: params.logger, component: 'send_message' });
  return ({ row }) =>
    messagingCapability({
      store: params.store,
      clock: params.clock,
      profile: options.profileName,
      row,
      platforms: () => slots.names(),
      // The normal delivery path, as a job's further target gets it: split, paced, scrubbed, MEDIA through the media policy.
      send: (p) => sendText({ ...p, slots, scrub: options.scrub, mediaPolicy: options.mediaPolicy, stageMedia: options.stageMedia, store: params.store, clock: params.clock, logger }),
      logger,
    });
}

/** The turn's delegate_task children, when delegation is configured (their model calls metered as `delegate`). */
function delegateFactory(params: TurnDepsSource): TurnDeps['delegate'] {
  const { options, metrics } = params;
  const delegation = options.delegation;
  if (delegation === undefined) return undefined;
  return (p) =>
    delegateCapability({
      agent: params.agent,
      parentRegistry: p.registry,
      store: params.store,
      settings: delegation,
      toolContext: p.toolContext,
      parentSessionId: p.sessionId,
      parentKey: p.sessionKey,
      inboxId: p.inboxId,
      progress: p.progress,
      scrub: options.scrub,
      logger: params.logger,
      depth: p.toolContext.depth ?? 0,
      onModelCall: modelMeter({ metrics, purpose: 'delegate' }),
      ...(params.delegations === undefined ? {} : { running: params.delegations }),
    });
}

/** The turn's clarify, when the runner has a desk and a clarify timeout. */
function clarifyFactory(params: TurnDepsSource): TurnDeps['clarify'] {
  const { slot, options } = params;
  const desk = params.clarifications;
  const timeoutMs = options.clarifyTimeoutMs;
  if (desk === undefined || timeoutMs === undefined) return undefined;
  return ({ event, sessionKey }) =>
    clarifyCapability({
      desk,
      event,
      sessionKey,
      adapter: slot.entry.adapter,
      pacer: slot.pacer,
      timeoutMs,
      hasOwner: hasApprovalOwner({ entry: slot.entry }),
      scrub: options.scrub,
      logger: componentLogger({ logger: params.logger, component: 'clarify' }),
    });
}

/** A turn's deps on an adapter slot, from the runner's current settings (read when the turn starts). */
export function turnDepsFor(params: TurnDepsSource): TurnDeps {
  const { slot, options } = params;
  const approval = approvalFactory(params);
  const messaging = messagingFactory(params);
  const delegate = delegateFactory(params);
  const clarify = clarifyFactory(params);
  return {
    store: params.store,
    agent: params.agent,
    clock: params.clock,
    logger: params.logger,
    adapter: slot.entry.adapter,
    pacer: slot.pacer,
    cursor: options.cursor,
    typingIntervalMs: options.typingIntervalMs,
    ...(options.toolProgress === undefined ? {} : { toolProgress: options.toolProgress }),
    toolContext: options.toolContext,
    prompts: options.prompts,
    ...(options.mcp === undefined ? {} : { mcp: options.mcp }),
    ...(options.toolsets === undefined ? {} : { toolsets: options.toolsets }),
    maxAttempts: params.maxAttempts,
    historyMaxChars: options.historyMaxChars,
    ...params.compression,
    ...(slot.entry.reactions ? { reactions: slot.entry.reactions } : {}),
    mediaPolicy: options.mediaPolicy,
    ...(options.stageMedia === undefined ? {} : { stageMedia: options.stageMedia }),
    scrub: options.scrub,
    safeLength: options.safeLength,
    ...(options.skillsDir === undefined ? {} : { expandSkill: skillExpander({ dir: options.skillsDir }) }),
    ...(options.documentCharLimit === undefined ? {} : { documentCharLimit: options.documentCharLimit }),
    ...(options.stt === undefined ? {} : { stt: options.stt }),
    ...(options.speech === undefined ? {} : { speech: options.speech }),
    ...(options.sight === undefined ? {} : { sight: options.sight }),
    ...checkpointsFactory({ checkpoints: options.checkpoints }),
    ...(params.onDelivered ? { onDelivered: params.onDelivered } : {}),
    ...(params.onFinished ? { onFinished: params.onFinished } : {}),
    ...(approval ? { approval } : {}),
    ...(messaging ? { messaging } : {}),
    ...(delegate ? { delegate } : {}),
    ...(clarify ? { clarify } : {}),
  };
}

/** A fresh checkpoint capability per turn (each tracks the directories it snapshotted), when checkpoints are on. */
function checkpointsFactory(params: { checkpoints: Checkpoints | undefined }): Pick<TurnDeps, 'checkpoints'> {
  const { checkpoints } = params;
  return checkpoints === undefined ? {} : { checkpoints: () => checkpoints.forTurn() };
}
