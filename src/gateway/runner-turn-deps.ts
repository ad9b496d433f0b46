import type { AIAgent } from '../agent/agent.js';
import type { Logger } from 'pino';
import type { Store } from '../store/types.js';
import type { Clock } from '../util/clock.js';
import type { AdapterSlot } from './adapter-slots.js';
import type { CompressionDeps } from './compress-session.js';
import type { RunnerOptions } from './runner-types.js';
import { skillExpander } from './skill-command.js';
import type { TurnDeps } from './turn.js';

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
}): TurnDeps {
  const { slot, options } = params;
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
  };
}
