import { randomUUID } from 'node:crypto';
import type { Logger } from 'pino';
import type { AIAgent } from '../../agent/agent.js';
import type { AgentResult } from '../../agent/types.js';
import type { OnModelAttempt } from '../../agent/errors.js';
import type { ChatMessage } from '../../agent/messages.js';
import { scrubStoredMessage } from '../../store/scrub-message.js';
import type { Store } from '../../store/types.js';
import type { DelegateOutcome, DelegateTask } from '../../tools/capabilities.js';
import type { ToolRegistry } from '../../tools/registry.js';
import type { ToolContext } from '../../tools/tool.js';
import { toStoredMessage } from '../sessions/history.js';
import { CHILD_SYSTEM_PROMPT, childTaskText } from './child-prompt.js';

/** Longest session title made from a child's goal. */
const MAX_TITLE_CHARS = 80;

/** Where a child is stored: the parent's session (its `parent_session_id`), key and turn. */
export interface ChildStorage {
  readonly store: Store;
  /** The parent's current session (a compression may have switched it mid-turn). */
  readonly parentSessionId: string;
  /** The parent's session key: the child's key extends it, so it never equals a chat's key. */
  readonly parentKey: string;
  /** The parent turn's inbox row: the child's messages and model calls are written with it. */
  readonly inboxId: number;
  readonly scrub: (text: string) => string;
}

/**
 * The session key of a child of a session with key `parentKey`: the parent's key plus a `delegate=<id>` part, which no
 * chat's key has (see session-key.ts), so no message is ever routed to it and `activeSession` of a chat never finds it.
 */
export function childSessionKey(params: { parentKey: string }): string {
  return `${params.parentKey}:delegate=${randomUUID()}`;
}

/**
 * Runs one child to its end in a session of its own (ended when the child is): a fresh history holding only the task,
 * the given tools and budget, the parent's route. Never throws: a failure becomes the outcome.
 */
export async function runChild(params: {
  agent: AIAgent;
  task: DelegateTask;
  registry: ToolRegistry;
  maxIterations: number;
  /** The child's tool context without its session (depth 1, no delegate/clarify/messaging/memory). */
  toolContext: Omit<ToolContext, 'signal' | 'sessionId'>;
  storage: ChildStorage;
  signal: AbortSignal;
  /** Called with each tool call the child makes (the parent's progress lines). */
  onToolCall: (call: { name: string; arguments: string }) => void;
  logger: Logger;
  /** Told of each of the child's model requests, retries included (metrics). */
  onModelCall?: OnModelAttempt | undefined;
}): Promise<DelegateOutcome> {
  const { task, storage, logger } = params;
  const { store, scrub } = storage;
  const session = store.createSession({
    key: childSessionKey({ parentKey: storage.parentKey }),
    parentSessionId: storage.parentSessionId,
    title: scrub(oneLine({ text: task.goal, max: MAX_TITLE_CHARS })),
  });
  store.setSessionPrompt({ sessionId: session.id, prompt: { text: CHILD_SYSTEM_PROMPT, layers: [{ name: 'delegate', chars: CHILD_SYSTEM_PROMPT.length }] } });
  const child = params.agent.child({ registry: params.registry, maxIterations: params.maxIterations });
  let final = '';
  try {
    const result = await child.run({
      systemPrompt: CHILD_SYSTEM_PROMPT,
      history: [],
      userText: childTaskText({ task }),
      // The parent conversation's /model choice: its sub-agents answer with the same model.
      model: store.sessionModel({ sessionId: storage.parentSessionId }) ?? undefined,
      signal: params.signal,
      onTextDelta: () => undefined,
      onMessage: (message: ChatMessage) => {
        store.appendMessage(scrubStoredMessage({ message: toStoredMessage({ message, sessionId: session.id, inboxId: storage.inboxId }), scrub }));
        if (message.role !== 'assistant') return;
        if (message.tool_calls === undefined || message.tool_calls.length === 0) final = message.content ?? '';
        for (const call of message.tool_calls ?? []) params.onToolCall({ name: call.function.name, arguments: call.function.arguments });
      },
      toolContext: { ...params.toolContext, sessionId: session.id },
      onModelCall: params.onModelCall,
      onUsage: (report) => {
        try {
          store.recordModelCall({ sessionId: session.id, inboxId: storage.inboxId, ...report });
        } catch (error) {
          logger.warn({ err: error }, 'could not record a sub-agent model call');
        }
      },
    });
    logger.info({ childSessionId: session.id, outcome: result.outcome, modelCalls: result.modelCalls }, 'sub-agent finished');
    return outcomeOf({ task, result, final, scrub });
  } catch (error) {
    logger.error({ err: error, childSessionId: session.id }, 'sub-agent failed unexpectedly');
    return { goal: task.goal, status: 'failed', summary: '', error: 'the sub-agent stopped unexpectedly (see the gateway log)' };
  } finally {
    try {
      store.endSession({ sessionId: session.id });
    } catch (error) {
      logger.warn({ err: error }, 'could not end a sub-agent session');
    }
  }
}

/** How a child's run reads for the parent: its final answer, or what it said so far and why it stopped. */
function outcomeOf(params: { task: DelegateTask; result: AgentResult; final: string; scrub: (text: string) => string }): DelegateOutcome {
  const { task, result, scrub } = params;
  const partial = scrub(result.text.trim());
  switch (result.outcome) {
    case 'final':
      return { goal: task.goal, status: 'done', summary: scrub(params.final) };
    case 'budget_exhausted':
      return { goal: task.goal, status: 'budget_exhausted', summary: partial, error: `ran out of its iteration budget after ${result.modelCalls} model calls before finishing` };
    case 'interrupted':
      return { goal: task.goal, status: 'interrupted', summary: partial, error: 'interrupted before it finished' };
    case 'error':
      return { goal: task.goal, status: 'failed', summary: partial, error: scrub(oneLine({ text: result.note ?? 'the model call failed', max: 300 })) };
  }
}

function oneLine(params: { text: string; max: number }): string {
  const flat = params.text.replace(/\s+/g, ' ').trim();
  return flat.length <= params.max ? flat : `${flat.slice(0, params.max - 1)}…`;
}
