import { systemEvent } from './system-turn.js';
import { escapePart } from '../core/session-key.js';
import type { Store } from '../store/types.js';
import type { Clock } from '../core/clock.js';
import type { JobRow, JobRunRow } from '../store/job-types.js';
import type { ResolvedTarget } from './run-targets.js';

type OkTarget = Extract<ResolvedTarget, { ok: true }>;

/**
 * The journal key of a run's send to one target in one chat: the same after a restart and on every retry of the run.
 * The chat is part of it, so a `home` target moved by /sethome between retries gets the whole answer in its new chat.
 */
export function deliveryMessageId(params: { jobId: string; runId: number; target: OkTarget }): string {
  const { chat } = params.target;
  return `job:${params.jobId}:${params.runId}:to:${params.target.key}@${chat.id}${chat.threadId === undefined ? '' : `:${chat.threadId}`}`;
}

/**
 * The inbox row that journals a run's send to `target` (made on first use, already done: never replayed as a turn).
 * Its outbox rows and send intents are the parts sent, like a reply's, so a restart or a retry sends only what is missing.
 */
export function deliveryJournal(params: { store: Store; clock: Clock; profile: string; run: JobRunRow; target: OkTarget }): number {
  const { run, target } = params;
  const origin = { kind: 'job', jobId: run.jobId, runId: run.id } as const;
  const messageId = deliveryMessageId({ jobId: run.jobId, runId: run.id, target });
  const event = systemEvent({ platform: target.platform, chat: target.chat, text: `delivery of run ${run.id} of job ${run.jobId}`, messageId, origin, now: params.clock.now() });
  const sessionKey = [params.profile, target.platform, target.chat.id, `job=${run.jobId}`, `run=${run.id}`, 'deliver'].map(escapePart).join(':');
  return params.store.recordInbound({ event, sessionKey, done: true }).row.id;
}

/**
 * Copies the parts a run's turn got onto the platform before its delivery failed into the first target's delivery
 * journal, so the run's retry sends only the parts still missing (never the whole answer again).
 */
export function carryTurnParts(params: { store: Store; clock: Clock; profile: string; run: JobRunRow; target: OkTarget; turnInboxId: number }): void {
  const { store } = params;
  const rows = store.outboundFor({ inboxId: params.turnInboxId });
  if (rows.length === 0) return;
  const journalId = deliveryJournal(params);
  const have = new Set(store.outboundFor({ inboxId: journalId }).map((row) => row.seq));
  for (const row of rows) {
    if (have.has(row.seq)) continue;
    store.recordOutbound({ inboxId: journalId, seq: row.seq, platform: row.platform, chatId: row.chatId, platformMessageId: row.platformMessageId, text: row.text, state: 'final' });
  }
}

/**
 * Keeps a script job's output with its run (a session of the run holding it as the answer) before anything is sent:
 * a restart or a delivery retry delivers this output instead of running the command again.
 */
export function keepScriptOutput(params: { store: Store; profile: string; job: JobRow; run: JobRunRow; output: string }): string {
  const { store, job, run } = params;
  const key = [params.profile, 'jobs', `job=${job.id}`, `run=${run.id}`, 'script'].map(escapePart).join(':');
  const session = store.activeSession({ key }) ?? store.createSession({ key, title: job.name });
  store.appendMessage({ sessionId: session.id, role: 'user', content: job.script ?? '' });
  store.appendMessage({ sessionId: session.id, role: 'assistant', content: params.output });
  store.setRunSession({ runId: run.id, sessionId: session.id });
  return session.id;
}
