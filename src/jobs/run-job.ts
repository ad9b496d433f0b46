import { lastAnswer } from './system-turn.js';
import type { InjectedTurnEnd } from './ports.js';
import { isSilentAnswer } from './system-turn.js';
import { backoffDelay } from '../util/backoff.js';
import { modelRetryDelay } from './catch-up.js';
import type { JobRow, JobRunRow } from '../store/job-types.js';
import { resolveTargets, type ResolvedTarget } from './run-targets.js';
import { carryTurnParts, deliveryJournal, keepScriptOutput } from './run-journal.js';
import { runJobScript } from './run-script.js';
import type { AttemptOutcome, SchedulerDeps } from './run-types.js';
import { escapePart } from '../core/session-key.js';

/** First wait before a failed delivery is tried again; doubles per attempt up to `deliveryRetryMaxMs`. */
export const DELIVERY_RETRY_BASE_MS = 60_000;
const deliveryRetryMaxMs = 60 * 60_000;
/**
 * How long a run's delivery is retried, from its scheduled time: after that the run is `failed` with the last errors.
 * No adapter tells a lasting refusal (bot kicked, chat deleted, 403) from a passing one, so every failure is retried
 * until then; a day covers an outage, and a chat that is gone stops costing sends.
 */
export const DELIVERY_GIVE_UP_MS = 24 * 60 * 60_000;

/** The session key of one attempt of a run: profile, platform, chat, then the job and run (a fresh session each time). */
export function runSessionKey(params: { profile: string; target: Extract<ResolvedTarget, { ok: true }>; jobId: string; runId: number; attempt: number }): string {
  const { target } = params;
  const parts = [params.profile, target.platform, target.chat.id, ...(target.chat.threadId === undefined ? [] : [`thread=${target.chat.threadId}`])];
  return [...parts, `job=${params.jobId}`, `run=${params.runId}.${params.attempt}`].map(escapePart).join(':');
}

/** The journal key of one attempt of a run: the same after a restart, so the replayed row is found, never a second one. */
export function runMessageId(params: { jobId: string; runId: number; attempt: number }): string {
  return `job:${params.jobId}:${params.runId}:${params.attempt}`;
}

/**
 * Runs one attempt of a claimed run (a new one, a retry, or one a crash left open) and records it: a model job becomes an
 * injected turn to its first target's chat; a script job's output is sent without a model call; the answer then goes to
 * every target still without proof. `delivered` only when every target's platform returned message ids.
 */
export async function runAttempt(params: { deps: SchedulerDeps; job: JobRow; run: JobRunRow; signal: AbortSignal }): Promise<AttemptOutcome> {
  const { deps, job, run } = params;
  const { store, clock } = deps;
  const logger = deps.logger.child({ jobId: job.id, runId: run.id, attempt: run.attempts });
  const targets = resolveTargets({ store, targets: job.targets });
  const proven = new Set(run.deliveries.filter((d) => d.messageIds.length > 0).map((d) => d.target));
  /** Errors this attempt already recorded per target (the run's own turn refused or undelivered): the run reports them. */
  const failed = new Map<string, string>();
  let text: string;
  if (job.script !== null) {
    const output = await scriptOutput({ deps, job, run, signal: params.signal });
    if (output === undefined) return 'left_open';
    if (isSilentAnswer({ origin: { kind: 'job', jobId: job.id, runId: run.id }, text: output })) return finish({ deps, run, outcome: 'silent' });
    text = job.prompt.trim() === '' ? output : `${job.prompt.trim()}\n\n${output}`;
  } else if (run.deliveries.length > 0 && run.sessionId !== null) {
    // A delivery retry: the answer is in the run's session; it is sent again only where no message id came back.
    text = lastAnswer({ store, sessionId: run.sessionId });
  } else {
    const first = targets.find((t): t is Extract<ResolvedTarget, { ok: true }> => t.ok);
    if (first === undefined) return deliverAll({ deps, run, targets, proven, text: '', logger });
    const end = await injectRun({ deps, job, run, first });
    if (end.outcome === 'shutdown') return 'left_open';
    if (end.outcome === 'error' || end.outcome === 'stopped') {
      // Counted apart from `attempts`: deliveries that failed before (adapter down) never use up the model's retries.
      const modelAttempts = run.modelAttempts + 1;
      const delay = modelRetryDelay({ retry: modelAttempts });
      logger.warn({ error: end.error, retryInMs: delay ?? null, modelAttempts }, delay === undefined ? 'job run failed: the model was unreachable on every retry' : 'job run: the model was unreachable; trying again later');
      const error = end.error ?? 'the model could not answer';
      if (delay === undefined) return finish({ deps, run, outcome: 'failed', error, modelAttempts });
      return finish({ deps, run, outcome: 'retrying', error, retryAt: clock.now() + delay, modelAttempts });
    }
    if (end.outcome === 'silent') return finish({ deps, run, outcome: 'silent' });
    text = end.text;
    const { key, platform, chat } = first;
    const ids = end.outcome === 'delivered' ? end.messageIds : [];
    const error = ids.length > 0 ? null : (end.error ?? 'the platform returned no message id');
    // The text arrived (ids) but a file did not: the delivery keeps the ids and says what is missing (history shows it).
    const partly = ids.length > 0 && end.deliveryErrors !== undefined && end.deliveryErrors.length > 0 ? end.deliveryErrors.join('; ') : null;
    if (end.recorded !== true) store.recordDelivery({ runId: run.id, target: key, platform, chatId: chat.id, threadId: chat.threadId ?? null, messageIds: ids, error: error ?? partly, now: clock.now() });
    if (ids.length > 0) proven.add(key);
    if (error !== null) failed.set(key, error);
  }
  return deliverAll({ deps, run, targets, proven, failed, text, logger });
}

/**
 * A script job's output: the one kept with the run (a crash or a failed delivery came after the command ran), else the
 * command's, kept with the run before anything is sent, so the command runs once per scheduled time. Undefined: aborted.
 */
async function scriptOutput(params: { deps: SchedulerDeps; job: JobRow; run: JobRunRow; signal: AbortSignal }): Promise<string | undefined> {
  const { deps, job, run } = params;
  if (run.sessionId !== null) return lastAnswer({ store: deps.store, sessionId: run.sessionId });
  const script = deps.script();
  const output = await runJobScript({ command: job.script ?? '', workspace: script.workspace, terminal: script.terminal, clock: deps.clock, signal: params.signal });
  if (output.kind === 'aborted') return undefined;
  // Scrubbed like a terminal tool's output: what the command printed is stored and sent, never the profile's secrets.
  const text = deps.scrub(output.output);
  keepScriptOutput({ store: deps.store, profile: deps.profileName(), job, run, output: text });
  return text;
}

/** Injects the run's turn (or finds the one a restart left) and waits for how it ended. */
async function injectRun(params: { deps: SchedulerDeps; job: JobRow; run: JobRunRow; first: Extract<ResolvedTarget, { ok: true }> }): Promise<InjectedTurnEnd & { recorded?: true }> {
  const { deps, job, run, first } = params;
  const sessionKey = runSessionKey({ profile: deps.profileName(), target: first, jobId: job.id, runId: run.id, attempt: run.attempts });
  const result = deps.inject({
    platform: first.platform,
    chat: first.chat,
    text: job.prompt,
    sessionKey,
    origin: { kind: 'job', jobId: job.id, runId: run.id },
    messageId: runMessageId({ jobId: job.id, runId: run.id, attempt: run.attempts }),
    title: job.name,
  });
  if (result.kind === 'refused') return { outcome: 'undelivered', sessionId: null, text: '', error: result.reason, messageIds: [] };
  const session = deps.store.activeSession({ key: sessionKey });
  if (session !== undefined && run.sessionId !== session.id) deps.store.setRunSession({ runId: run.id, sessionId: session.id });
  const end = result.kind === 'finished' ? result.end : await result.finished;
  // A reply the platform refused stays journaled by the turn; the run's retries send it instead (never the journal replay too),
  // only the parts the turn did not get onto the platform.
  // The failed delivery is recorded before the turn is completed: a turn found done after a restart was delivered by itself.
  if (end.outcome === 'undelivered') {
    const { store, clock } = deps;
    carryTurnParts({ store, clock, profile: deps.profileName(), run, target: first, turnInboxId: result.inboxId });
    const error = end.error ?? 'the platform returned no message id';
    store.recordDelivery({ runId: run.id, target: first.key, platform: first.platform, chatId: first.chat.id, threadId: first.chat.threadId ?? null, messageIds: [], error, now: clock.now() });
    store.completeTurn({ inboxId: result.inboxId });
    return { ...end, recorded: true };
  }
  return end;
}

/**
 * Sends `text` to one of a run's targets and records the delivery on the run: journaled like a reply (parts sent before
 * a crash or a failure are found, never sent twice). Returns the error, or null when the platform gave message ids; a
 * target that cannot be reached (no home channel) is recorded with its error and nothing is sent.
 */
export async function deliverToTarget(params: { deps: SchedulerDeps; run: JobRunRow; target: ResolvedTarget; text: string }): Promise<string | null> {
  const { deps, run, target, text } = params;
  const { store, clock } = deps;
  if (!target.ok) {
    store.recordDelivery({ runId: run.id, target: target.key, platform: target.platform, chatId: '', messageIds: [], error: target.error, now: clock.now() });
    return target.error;
  }
  const journalId = deliveryJournal({ store, clock, profile: deps.profileName(), run, target });
  const sent = await deps.sendText({ platform: target.platform, chat: target.chat, text, journalId });
  const ids = sent.ok ? sent.messageIds : [];
  const error = sent.ok ? (ids.length > 0 ? null : 'the platform returned no message id') : sent.error;
  store.recordDelivery({ runId: run.id, target: target.key, platform: target.platform, chatId: target.chat.id, threadId: target.chat.threadId ?? null, messageIds: ids, error, now: clock.now() });
  return error;
}

/** Sends the answer to every target still without proof, records each, and finishes the run (delivered only with proof from all). */
async function deliverAll(params: {
  deps: SchedulerDeps;
  run: JobRunRow;
  targets: readonly ResolvedTarget[];
  proven: Set<string>;
  failed?: ReadonlyMap<string, string>;
  text: string;
  logger: SchedulerDeps['logger'];
}): Promise<AttemptOutcome> {
  const { deps, run, targets, proven, text } = params;
  const { clock } = deps;
  const errors: string[] = [];
  for (const target of targets) {
    if (proven.has(target.key)) continue;
    if (target.ok && text.trim() === '') {
      // No answer to send: the run's turn did not get one onto the platform (refused: no adapter running, …), say why.
      errors.push(`${target.key}: ${params.failed?.get(target.key) ?? 'nothing to send (the answer was not found)'}`);
      continue;
    }
    const error = await deliverToTarget({ deps, run, target, text });
    if (error === null) proven.add(target.key);
    else errors.push(`${target.key}: ${error}`);
  }
  if (errors.length === 0) return finish({ deps, run, outcome: 'delivered' });
  if (clock.now() - run.scheduledFor >= DELIVERY_GIVE_UP_MS) {
    params.logger.warn({ errors, attempts: run.attempts }, 'job run not delivered to every target for 24 h; giving up');
    return finish({ deps, run, outcome: 'failed', error: `gave up after 24 h without delivery: ${errors.join('; ')}` });
  }
  // The delivery backoff counts delivery attempts only (an attempt whose model was unreachable is not one).
  const retryInMs = backoffDelay({ attempt: Math.max(0, run.attempts - run.modelAttempts - 1), baseMs: DELIVERY_RETRY_BASE_MS, maxMs: deliveryRetryMaxMs });
  params.logger.warn({ errors, retryInMs }, 'job run not delivered to every target; trying again later');
  return finish({ deps, run, outcome: 'delivery_failed', error: errors.join('; '), retryAt: clock.now() + retryInMs });
}

/** Records the attempt's outcome. */
function finish(params: { deps: SchedulerDeps; run: JobRunRow; outcome: Exclude<AttemptOutcome, 'left_open'>; error?: string; retryAt?: number; modelAttempts?: number }): AttemptOutcome {
  const { deps, run, outcome } = params;
  const modelAttempts = params.modelAttempts === undefined ? {} : { modelAttempts: params.modelAttempts };
  deps.store.finishRun({ runId: run.id, outcome, error: params.error ?? null, retryAt: params.retryAt ?? null, ...modelAttempts, now: deps.clock.now() });
  deps.logger.info({ jobId: run.jobId, runId: run.id, outcome }, 'job run finished');
  return outcome;
}
