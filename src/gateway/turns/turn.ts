import { isRetryRow, takeRetryText } from '../commands/retry.js';
import { endWithNote, openTurn } from './open.js';
import { loadContext, safetyCompress, sessionCompressor } from './context.js';
import { runAgent } from './agent-run.js';
import { finishTurn } from './finish.js';
import type { RunTurnParams } from './deps.js';

export type { RunTurnParams, TurnDeps, TurnFinish } from './deps.js';

/** What the user is told about a message that kept crashing the gateway. */
function giveUpNote(params: { attempts: number }): string {
  return (
    `Sorry, I could not answer this message: the gateway stopped ${params.attempts} times while working on it. ` +
    'Send it again (perhaps shorter) if it still matters; the gateway log has the details.'
  );
}

/**
 * Runs one turn: the agent answers one inbound message, the reply streams to the platform, and the
 * journal records every sent message so a crash mid-stream is finished in place on replay. The phases:
 * open (session, journal leftovers, reply stream, tools: open.ts), context (system prompt, history, compression:
 * context.ts), the agent (agent-run.ts), the end (delivery, reactions, completion: finish.ts).
 */
export async function runTurn(params: RunTurnParams): Promise<void> {
  // Marking the row, finding or starting the session and adopting leftovers: one commit.
  const turn = params.deps.store.together(() => openTurn(params));
  const { row, deps } = turn;
  if (turn.giveUp) {
    turn.logger.error({ attempts: row.attempts }, 'giving up on a message that was cut short too many times');
    await endWithNote({ turn, note: giveUpNote({ attempts: row.attempts }), error: `cut short ${row.attempts} times` });
    return;
  }
  // A /retry answers the last user message again: its exchange is set aside (hidden) before the history is read.
  const retry = isRetryRow({ row }) ? takeRetryText({ store: deps.store, session: turn.session, row }) : undefined;
  if (retry?.kind === 'nothing') {
    await endWithNote({ turn, note: 'Nothing to retry: this conversation has no message of yours to answer again.', error: 'nothing to retry' });
    return;
  }
  const context = await loadContext({ turn });
  const compress = sessionCompressor({ turn, context });
  await safetyCompress({ turn, context, compress });
  const end = await runAgent({ turn, context, compress, retryText: retry?.text });
  await finishTurn({ turn, end });
}
