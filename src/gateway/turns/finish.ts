import { backoffDelay } from '../../util/backoff.js';
import type { TurnOutcome } from '../../jobs/ports.js';
import { isSilentAnswer } from '../../jobs/system-turn.js';
import type { DeliveryResult } from '../delivery/stream.js';
import { abortKindOf } from './abort.js';
import { turnLeftovers } from './journal.js';
import { completeTurn, turnFinished, type OpenTurn } from './open.js';
import { reactOnTurn, type AgentEnd } from './agent-run.js';
import { removeSpoken, spokenReply, wantsSpokenReply } from './voice-out.js';

/** Further tries to deliver a finished reply the platform refused (not counting the delivery's own retries). */
const deliveryRetries = 4;

/**
 * Ends a turn after the agent ran: a shutdown leaves it open for replay; a stop marks the reply "(stopped)"; a system
 * turn with nothing to say sends nothing; otherwise the reply is finished (retried in place while the platform refuses
 * it), the end reaction set, the rows completed, and the end reported.
 */
export async function finishTurn(params: { turn: OpenTurn; end: AgentEnd }): Promise<void> {
  const { turn, end } = params;
  const { deps, logger } = turn;
  const abortKind = abortKindOf({ signal: turn.signal });
  if (abortKind === 'shutdown') {
    // Leave the turn open: the next start replays it and finishes the shown message in place.
    await turn.delivery.halt();
    logger.info('turn left open for replay after shutdown');
    return;
  }
  const stopped = abortKind !== undefined;
  // A reply that showed only tool activity says so too, rather than being left as a bare "…".
  const note = stopped && (end.text.trim() !== '' || turn.delivery.started) ? '(stopped)' : end.note;
  const outcome: TurnOutcome = end.failed ? 'error' : stopped ? 'stopped' : 'delivered';
  const noted = note === undefined ? {} : { error: note };
  if (turn.system !== undefined) {
    // Nothing to say (or nothing reached the model): nothing is sent; the scheduler decides about retries.
    if (end.failed || stopped || isSilentAnswer({ origin: turn.system, text: end.text })) {
      await turn.delivery.halt();
      completeTurn({ turn });
      turnFinished({ turn, end: { outcome: outcome === 'delivered' ? 'silent' : outcome, sessionId: turn.session.id, text: end.text, ...noted } });
      return;
    }
    turn.delivery.push(end.text);
  }
  // The chat's /voice choice: the reply also spoken, its voice notes sent after the text. Never a system turn's: its
  // text was just pushed, and nothing may wait between that and the finish (it goes out once, finished).
  const speaks = turn.system === undefined && !stopped && !end.failed && end.text.trim() !== '' && wantsSpokenReply({ turn });
  const spoken = speaks ? await spokenReply({ turn, text: end.text }) : undefined;
  const files = spoken?.files ?? [];
  const notes = [note, spoken?.note].filter((line) => line !== undefined).join('\n') || undefined;
  const delivered = await deliverWithRetries({ turn, text: end.text, files, note: notes }).finally(() => removeSpoken({ files }));
  if (!delivered.textComplete) {
    logger.error({ errors: delivered.errors }, 'the reply could not be delivered; the message stays journaled and is answered on the next start');
    turnFinished({ turn, end: { outcome: 'undelivered', sessionId: turn.session.id, text: end.text, error: delivered.errors.join('; ') || 'not delivered' } });
    return;
  }
  if (delivered.errors.length > 0) logger.warn({ errors: delivered.errors }, 'reply delivered with errors');
  if (deps.reactions && !stopped) await reactOnTurn({ turn, emoji: end.failed ? deps.reactions.error : deps.reactions.done });
  completeTurn({ turn });
  if (!stopped && !end.failed) deps.onDelivered?.({ sessionId: turn.session.id, modelCalls: end.storedCalls });
  const partly = delivered.errors.length > 0 ? { deliveryErrors: delivered.errors } : {};
  turnFinished({ turn, end: { outcome, sessionId: turn.session.id, text: end.text, ...noted, ...partly } });
}

/** Finishes the reply (with `files` after its own); the platform may be briefly unreachable, so it is tried again in place (adopting what was sent). */
async function deliverWithRetries(params: { turn: OpenTurn; text: string; files: readonly string[]; note: string | undefined }): Promise<DeliveryResult> {
  const { turn, text, files } = params;
  const finalParams = params.note !== undefined ? { note: params.note } : {};
  for (const file of files) turn.delivery.attach({ path: file });
  let delivered = await turn.delivery.finish(finalParams);
  for (let attempt = 0; !delivered.textComplete && attempt < deliveryRetries && !turn.signal.aborted; attempt++) {
    const retryInMs = backoffDelay({ attempt, baseMs: 2000, maxMs: 60_000 });
    turn.logger.warn({ errors: delivered.errors, retryInMs }, 'the reply did not fully reach the platform; trying again');
    try {
      await turn.deps.clock.sleep(retryInMs, turn.signal);
    } catch {
      break;
    }
    const retry = turn.newDelivery(turnLeftovers({ store: turn.deps.store, inboxId: turn.row.id }));
    retry.push(text);
    for (const file of files) retry.attach({ path: file });
    delivered = await retry.finish(finalParams);
  }
  return delivered;
}
