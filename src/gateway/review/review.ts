import type { Logger } from 'pino';
import type { AIAgent } from '../../agent/agent.js';
import type { ChatMessage } from '../../agent/messages.js';
import type { ModelCallReport } from '../../agent/usage.js';
import type { OnModelAttempt } from '../../agent/errors.js';
import { reviewDue, type ReviewDue, type ReviewKinds, type ReviewSchedule } from '../../agent/review/due.js';
import { reviewInstructions, savedNothing } from '../../agent/review/prompt.js';
import { reviewTranscript, toolResultFailed } from '../../agent/review/transcript.js';
import type { Store } from '../../store/types.js';
import type { MemoryTarget } from '../../memory/capability.js';
import type { ToolContext } from '../../tools/tool.js';
import { BackgroundAbort } from './background-work.js';
import { compressedFrom } from '../sessions/chain.js';
import { errorMessage } from '../../util/error-text.js';

/** Model calls a review may make. */
export const REVIEW_MAX_MODEL_CALLS = 8;

/** Most stored messages a review reads (the transcript's token budget then trims further). */
const REVIEW_HISTORY_LIMIT = 400;

/** The background review of a config, resolved (RunnerOptions.review). */
export interface ReviewOptions {
  /** skills.review, skills.review_interval, memory.review_interval. */
  readonly schedule: ReviewSchedule;
  /** skills.review_notice: one line in the chat after a review saved something. */
  readonly notice: boolean;
  /** The review tools the main registry has (those with `review`); the review saves through skill_manage and memory. */
  readonly toolNames: readonly string[];
  /**
   * The quiet child agent: its own registry of the review tools, 8 model calls, on auxiliary.model or else `main`'s
   * route; `model` is the model its calls ask for (auxiliary.model, else the session's /model choice, else absent: the
   * route's primary).
   */
  readonly agentFor: (params: { main: AIAgent; sessionModel: string | undefined }) => { readonly agent: AIAgent; readonly model: string | undefined };
  /** Tokens of a piece of transcript text. */
  readonly countTokens: (text: string) => number;
  /** The memory files that are on (memory.memory_enabled, memory.user_profile_enabled): the only ones the review is told of. */
  readonly memoryTargets: readonly MemoryTarget[];
  /** The longest a review may run before it is aborted (a model that never answers must not pin a slot). */
  readonly timeoutMs: number;
}

/** The longest any review runs, whatever the request timeout. */
export const REVIEW_MAX_TIMEOUT_MS = 10 * 60_000;

/** A review's time cap: one request timeout per model call it may make, at most REVIEW_MAX_TIMEOUT_MS. */
export function reviewTimeoutMs(params: { requestTimeoutMs: number }): number {
  return Math.min(params.requestTimeoutMs * REVIEW_MAX_MODEL_CALLS, REVIEW_MAX_TIMEOUT_MS);
}

/** Platforms where the notice would be a message of its own that costs the owner (an SMS, an email): none there. */
const NO_NOTICE_PLATFORMS: readonly string[] = ['sms', 'email'];

/** Whether the review notice may be sent on `platform` (skills.review_notice is on and the line is cheap there). */
export function noticeAllowed(params: { platform: string }): boolean {
  return !NO_NOTICE_PLATFORMS.includes(params.platform);
}

/** One thing a review wrote. */
export interface ReviewSaved {
  readonly kind: 'skill' | 'memory';
  /** The skill's name (skills only). */
  readonly name?: string;
  readonly action: string;
}

/** How a review ended. */
export type ReviewOutcome =
  | { readonly kind: 'saved'; readonly saved: readonly ReviewSaved[]; readonly modelCalls: number }
  | { readonly kind: 'nothing'; readonly modelCalls: number }
  /** Stopped (new message, shutdown, time cap); `saved`: what it had written before (files stay written). */
  | { readonly kind: 'aborted'; readonly saved: readonly ReviewSaved[]; readonly modelCalls: number }
  | { readonly kind: 'failed'; readonly detail: string; readonly modelCalls: number };

/** Whether the agent called skill_manage in the session's latest `calls` model calls (one assistant message per call). */
function skillManagedRecently(params: { store: Store; sessionId: string; calls: number }): boolean {
  // After every turn: the newest assistant rows only (a whole-history read here cost more than the turn's own).
  const latest = params.store.latestAssistantMessages({ sessionId: params.sessionId, limit: Math.min(params.calls, REVIEW_HISTORY_LIMIT) });
  return latest.some((m) => (m.toolCalls ?? []).some((c) => c.name === 'skill_manage'));
}

/** Most sessions of one compression chain whose calls are added up. */
const MAX_CHAIN_DEPTH = 50;

/**
 * The sessions of the conversation the session continues: itself, then its parents as long as each session began
 * from a compression (it holds a summary message). A compression carries the counts on; `/new` (a parent but no
 * summary) starts them over.
 */
export function compressionChain(params: { store: Store; sessionId: string }): string[] {
  const { store } = params;
  const chain: string[] = [];
  for (let id: string | null = params.sessionId; id !== null && !chain.includes(id) && chain.length < MAX_CHAIN_DEPTH; ) {
    chain.push(id);
    const session = store.getSession({ sessionId: id });
    id = session === undefined ? null : compressedFrom({ store, session });
  }
  return chain;
}

/** The model calls of the session's compression chain. */
export function chainModelCalls(params: { store: Store; sessionId: string }): number {
  return compressionChain(params).reduce((sum, id) => sum + params.store.sessionUsage({ sessionId: id }).calls, 0);
}

/** Whether a review is due for the session now that a turn with `turnModelCalls` stored model calls was delivered. */
export function reviewDueAfterTurn(params: { store: Store; sessionId: string; turnModelCalls: number; options: ReviewOptions; memoryOn: boolean }): ReviewDue & { readonly modelCalls: number } {
  const { store, sessionId, options } = params;
  const chain = compressionChain({ store, sessionId });
  const callsAfter = chain.reduce((sum, id) => sum + store.sessionUsage({ sessionId: id }).calls, 0);
  if (!options.schedule.enabled) return { due: false, modelCalls: callsAfter };
  const tools: ReviewKinds = { skills: options.toolNames.includes('skill_manage'), memory: params.memoryOn && options.memoryTargets.length > 0 && options.toolNames.includes('memory') };
  const due = reviewDue({
    schedule: options.schedule,
    counts: {
      callsBefore: callsAfter - params.turnModelCalls,
      callsAfter,
      userTurns: tools.memory ? store.countUserTurns({ sessionIds: chain }) : 0,
      skillManagedInWindow: () => skillManagedRecently({ store, sessionId, calls: options.schedule.skillInterval }),
      tools,
    },
  });
  return { ...due, modelCalls: callsAfter };
}

/** What the child wrote: its skill_manage and memory calls whose results did not fail. */
function savedBy(params: { messages: readonly ChatMessage[] }): ReviewSaved[] {
  const results = new Map<string, string>();
  for (const m of params.messages) if (m.role === 'tool') results.set(m.tool_call_id, m.content);
  const saved: ReviewSaved[] = [];
  for (const m of params.messages) {
    if (m.role !== 'assistant') continue;
    for (const call of m.tool_calls ?? []) {
      const name = call.function.name;
      if (name !== 'skill_manage' && name !== 'memory') continue;
      const result = results.get(call.id);
      if (result === undefined || toolResultFailed({ content: result })) continue;
      const args = parseArgs(call.function.arguments);
      const action = typeof args['action'] === 'string' ? args['action'] : 'unknown';
      if (name === 'memory') saved.push({ kind: 'memory', action });
      else saved.push({ kind: 'skill', action, ...(typeof args['name'] === 'string' ? { name: args['name'] } : {}) });
    }
  }
  return saved;
}

function parseArgs(text: string): Record<string, unknown> {
  try {
    const value: unknown = JSON.parse(text);
    return typeof value === 'object' && value !== null && !Array.isArray(value) ? (value as Record<string, unknown>) : {};
  } catch {
    return {};
  }
}

/**
 * Runs one background review of a session: the quiet child agent gets the review instruction as its system prompt
 * and the session's transcript (the newest part within `maxTranscriptTokens`) as the user message. Nothing it says
 * reaches a chat or the session's history; its model calls are not stored as the session's usage. Never throws.
 */
export async function runReview(params: {
  store: Store;
  sessionId: string;
  kinds: ReviewKinds;
  /** The memory targets that are on (both when not given). */
  memoryTargets?: readonly MemoryTarget[];
  agent: AIAgent;
  /** The model the review's calls ask for (absent: the agent's route's primary). */
  model?: string | undefined;
  toolContext: Omit<ToolContext, 'signal'>;
  maxTranscriptTokens: number;
  countTokens: (text: string) => number;
  signal: AbortSignal;
  /** Each of the review's model calls (the profile's usage, logged; never the session's stored calls). */
  onUsage?: (report: ModelCallReport) => void;
  /** Told of each of the review's model requests, retries included (metrics: purpose review). */
  onModelCall?: OnModelAttempt | undefined;
}): Promise<ReviewOutcome> {
  const { store, sessionId, signal } = params;
  const messages: ChatMessage[] = [];
  try {
    const history = store.history({ sessionId, limit: REVIEW_HISTORY_LIMIT });
    const transcript = reviewTranscript({ messages: history, maxTokens: params.maxTranscriptTokens, countTokens: params.countTokens });
    const result = await params.agent.run({
      systemPrompt: reviewInstructions({ kinds: params.kinds, ...(params.memoryTargets ? { memoryTargets: params.memoryTargets } : {}) }),
      history: [],
      userText: transcript,
      model: params.model,
      signal,
      onTextDelta: () => undefined,
      onMessage: (message) => messages.push(message),
      toolContext: { ...params.toolContext, signal, sessionId },
      ...(params.onUsage ? { onUsage: params.onUsage } : {}),
      onModelCall: params.onModelCall,
    });
    const modelCalls = result.modelCalls;
    const saved = savedBy({ messages });
    if (signal.aborted || result.outcome === 'interrupted') return { kind: 'aborted', saved, modelCalls };
    if (saved.length > 0) return { kind: 'saved', saved, modelCalls };
    if (result.outcome === 'error') return { kind: 'failed', detail: result.note ?? 'the model call failed', modelCalls };
    return savedNothing({ text: result.text }) || result.outcome === 'final' ? { kind: 'nothing', modelCalls } : { kind: 'failed', detail: result.outcome, modelCalls };
  } catch (error) {
    if (signal.aborted) return { kind: 'aborted', saved: savedBy({ messages }), modelCalls: 0 };
    return { kind: 'failed', detail: errorMessage(error), modelCalls: 0 };
  }
}

/** The chat line for what a review saved ("saved skill: X", "saved a memory entry"). */
export function reviewNotice(params: { saved: readonly ReviewSaved[] }): string {
  const skills = [...new Set(params.saved.filter((s) => s.kind === 'skill').map((s) => s.name ?? 'a skill'))];
  const memory = params.saved.some((s) => s.kind === 'memory');
  const parts = [...(skills.length > 0 ? [`saved skill: ${skills.join(', ')}`] : []), ...(memory ? ['saved a memory entry'] : [])];
  return parts.join('; ');
}

/** The tokens a review's model calls used (what the endpoint reported). */
export interface ReviewTokens {
  prompt: number;
  completion: number;
}

/** Adds one model call's reported tokens to `tokens`. */
export function addReviewTokens(params: { tokens: ReviewTokens; report: ModelCallReport }): void {
  params.tokens.prompt += params.report.promptTokens ?? 0;
  params.tokens.completion += params.report.completionTokens ?? 0;
}

/** Logs one line for a review that ended, with its model calls and tokens (the review's usage is counted there). */
export function logReview(params: { logger: Logger; sessionId: string; reason: string; sessionModelCalls: number; outcome: ReviewOutcome; signal: AbortSignal; tokens: ReviewTokens }): void {
  const { outcome } = params;
  const fields = {
    sessionId: params.sessionId,
    due: params.reason,
    sessionModelCalls: params.sessionModelCalls,
    reviewModelCalls: outcome.modelCalls,
    reviewPromptTokens: params.tokens.prompt,
    reviewCompletionTokens: params.tokens.completion,
  };
  if (outcome.kind === 'failed') {
    params.logger.warn({ ...fields, detail: outcome.detail }, 'background review failed');
    return;
  }
  const why: unknown = params.signal.reason;
  const aborted = outcome.kind === 'aborted' ? (why instanceof BackgroundAbort ? why.reason : 'aborted') : undefined;
  const savedBefore = outcome.kind === 'aborted' && outcome.saved.length > 0 ? ` after ${reviewNotice({ saved: outcome.saved })}` : '';
  const result = outcome.kind === 'saved' ? reviewNotice({ saved: outcome.saved }) : outcome.kind === 'nothing' ? 'nothing to save' : `aborted (${aborted ?? 'aborted'})${savedBefore}`;
  params.logger.info({ ...fields, result }, 'background review');
}
