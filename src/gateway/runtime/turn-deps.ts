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
import { clarifyCapability } from '../clarify/capability.js';
import type { ClarifyDesk } from '../clarify/desk.js';
import type { GatewayMetrics } from '../ops/metrics.js';
import { meteredComplete, modelMeter } from '../ops/model-meter.js';

/** A turn's deps on an adapter slot, from the runner's current settings (read when the turn starts). */
export function turnDepsFor(params: {
  store: Store;
  agent: AIAgent;
  clock: Clock;
  logger: Logger;
  slot: AdapterSlot;
  options: RunnerOptions;
  maxAttempts: number;
  compression: { compression?: CompressionDeps };
  onDelivered?: TurnDeps['onDelivered'];
  onFinished?: TurnDeps['onFinished'];
  /** Where approval questions wait (the runner's); with `options.approval` the turn's tools get an approval capability. */
  approvals?: ApprovalDesk;
  /** Every platform's adapter (the runner's): with them the turn's tools get `send_message` to the profile's other chats. */
  slots?: AdapterSlots;
  /** Where clarify questions wait (the runner's); with `options.clarifyTimeoutMs` the turn's tools get a clarify capability. */
  clarifications?: ClarifyDesk;
  /** Counts the model calls of the turn's judge and children (gateway.http.metrics). */
  metrics?: GatewayMetrics | undefined;
}): TurnDeps {
  const { slot, options, metrics } = params;
  const desk = params.approvals;
  const configured = options.approval;
  const judge = configured?.judge;
  const settings = configured === undefined || judge === undefined ? configured : { ...configured, judge: meteredComplete({ complete: judge, metrics, purpose: 'judge' }) };
  const approval: TurnDeps['approval'] =
    desk === undefined || settings === undefined
      ? undefined
      : ({ event, sessionKey }) =>
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
            logger: params.logger.child({ component: 'approval' }),
          });
  const slots = params.slots;
  const messaging: TurnDeps['messaging'] =
    slots === undefined
      ? undefined
      : ({ row }) =>
          messagingCapability({
            store: params.store,
            clock: params.clock,
            profile: options.profileName,
            row,
            platforms: () => slots.names(),
            // The normal delivery path, as a job's further target gets it: split, paced, scrubbed, MEDIA through the media policy.
            send: (p) => sendText({ ...p, slots, scrub: options.scrub, mediaPolicy: options.mediaPolicy, stageMedia: options.stageMedia, store: params.store, clock: params.clock, logger: params.logger.child({ component: 'send_message' }) }),
            logger: params.logger.child({ component: 'send_message' }),
          });
  const delegation = options.delegation;
  const delegate: TurnDeps['delegate'] =
    delegation === undefined
      ? undefined
      : (p) =>
          delegateCapability({
            agent: params.agent,
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
          });
  const clarifyDesk = params.clarifications;
  const clarifyTimeoutMs = options.clarifyTimeoutMs;
  const clarify: TurnDeps['clarify'] =
    clarifyDesk === undefined || clarifyTimeoutMs === undefined
      ? undefined
      : ({ event, sessionKey }) =>
          clarifyCapability({
            desk: clarifyDesk,
            event,
            sessionKey,
            adapter: slot.entry.adapter,
            pacer: slot.pacer,
            timeoutMs: clarifyTimeoutMs,
            hasOwner: hasApprovalOwner({ entry: slot.entry }),
            scrub: options.scrub,
            logger: params.logger.child({ component: 'clarify' }),
          });
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
    maxAttempts: params.maxAttempts,
    historyMaxChars: options.historyMaxChars,
    ...params.compression,
    ...(slot.entry.reactions ? { reactions: slot.entry.reactions } : {}),
    mediaPolicy: options.mediaPolicy,
    ...(options.stageMedia === undefined ? {} : { stageMedia: options.stageMedia }),
    scrub: options.scrub,
    safeLength: options.safeLength,
    ...(options.skillsDir === undefined ? {} : { expandSkill: skillExpander({ dir: options.skillsDir }) }),
    ...(params.onDelivered ? { onDelivered: params.onDelivered } : {}),
    ...(params.onFinished ? { onFinished: params.onFinished } : {}),
    ...(approval ? { approval } : {}),
    ...(messaging ? { messaging } : {}),
    ...(delegate ? { delegate } : {}),
    ...(clarify ? { clarify } : {}),
  };
}
