import { setMaxListeners } from 'node:events';
import type { Logger } from 'pino';
import type { AIAgent } from '../../agent/agent.js';
import type { OnModelAttempt } from '../../agent/errors.js';
import type { Store } from '../../store/types.js';
import type { DelegateCapability, DelegateOutcome, DelegateTask } from '../../tools/capabilities.js';
import type { ToolRegistry } from '../../tools/registry.js';
import { type ToolContext } from '../../tools/tool.js';
import { ToolError } from '../../core/errors.js';
import { runChild } from './run-child.js';
import { ChildSlots } from './slots.js';
import { childRegistry } from './toolsets.js';
import type { RunningDelegations } from './running.js';
import { componentLogger } from '../../log/component.js';

/** Abort listeners one child may hold on its call's signal at once (its slot wait, model call, tools, scripts). */
const LISTENERS_PER_TASK = 8;

/** `agent.delegate_max_iterations` and `agent.max_concurrent_children`. */
export interface DelegateSettings {
  /** Each child's iteration budget. */
  readonly maxIterations: number;
  /** Most children running at once, across all delegate_task calls of one turn. */
  readonly maxConcurrentChildren: number;
}

/** Where a turn's children's tool calls are shown (the turn's ToolProgress). */
export interface ChildProgress {
  childCall(params: { child: string; name: string; arguments: string }): void;
}

/** What the children of one turn share with it. */
export interface DelegateParams {
  readonly agent: AIAgent;
  readonly store: Store;
  readonly settings: DelegateSettings;
  /** The parent's tool context (its approval, workspace, limits); what a child may not have is taken out. */
  readonly toolContext: Omit<ToolContext, 'signal'>;
  /** The parent's current session (a compression may switch it mid-turn). */
  readonly parentSessionId: () => string;
  readonly parentKey: string;
  /** The parent turn's inbox row. */
  readonly inboxId: number;
  readonly progress?: ChildProgress;
  readonly scrub: (text: string) => string;
  readonly logger: Logger;
  /** The depth of the agent asking (0: a turn's own agent); at 1 or more nothing is delegated. */
  readonly depth: number;
  /** Told of each model request of the children, retries included (metrics: purpose delegate). */
  readonly onModelCall?: OnModelAttempt | undefined;
  /** The parent turn's tools (the agent's and the session's MCP tools); absent: the agent's. */
  readonly parentRegistry?: () => ToolRegistry;
  /** Where the runner sees which turns run children (a stop interrupts those at once); absent: nobody is told. */
  readonly running?: RunningDelegations;
  /** The registry a child gets (tests give one that keeps delegate_task, to see the depth guard hold). */
  readonly childRegistryFor?: (params: { parent: ToolRegistry; toolsets?: readonly string[] | undefined }) => ToolRegistry;
}

/**
 * The delegate_task capability of one turn: each task runs as a child agent (runChild) once one of the turn's
 * `maxConcurrentChildren` slots is free; aborting the call's signal (the turn's) stops the running children and the
 * waiting ones at once. While children run, `running` knows the turn (a gateway stop interrupts it then, not after the
 * drain). Throws ToolError, running nothing, at depth ≥ 1 or for a task whose toolsets cannot be met.
 */
export function delegateCapability(params: DelegateParams): DelegateCapability {
  const slots = new ChildSlots({ size: params.settings.maxConcurrentChildren });
  const registryFor = params.childRegistryFor ?? childRegistry;
  const logger = componentLogger({ logger: params.logger, component: 'delegate' });
  return {
    run: async ({ tasks, signal }) => {
      if (params.depth >= 1) throw new ToolError('delegate_task is not available here: a sub-agent cannot delegate further.');
      const registries = tasks.map((task, i) => {
        try {
          return registryFor({ parent: params.parentRegistry?.() ?? params.agent.registry, toolsets: task.toolsets });
        } catch (error) {
          if (!(error instanceof ToolError) || tasks.length === 1) throw error;
          throw new ToolError(`task ${i + 1}: ${error.message} Nothing was started.`);
        }
      });
      const total = tasks.length;
      const toolContext = childToolContext({ parent: params.toolContext });
      // One signal for this call's children, following the turn's: each child (waiting for a slot, or running its model
      // calls and tools) listens on it, so 10 tasks would pass Node's default of 10 listeners and print a leak warning.
      const children = new AbortController();
      setMaxListeners(Math.max(10, LISTENERS_PER_TASK * total), children.signal);
      const follow = (): void => children.abort();
      // Before the signal is read: a gateway that is stopping interrupts the turn here, and no child starts.
      const leave = params.running?.enter({ sessionKey: params.parentKey });
      if (signal.aborted) children.abort();
      else signal.addEventListener('abort', follow, { once: true });
      const outcomes = Promise.all(
        tasks.map(async (task, i): Promise<DelegateOutcome> => {
          const release = await slots.acquire({ signal: children.signal });
          if (release === undefined) return { goal: task.goal, status: 'interrupted', summary: '', error: 'interrupted before it started' };
          const child = `child ${i + 1}/${total}`;
          try {
            return await runChild({
              agent: params.agent,
              task,
              registry: registries[i] as ToolRegistry,
              maxIterations: params.settings.maxIterations,
              toolContext,
              storage: { store: params.store, parentSessionId: params.parentSessionId(), parentKey: params.parentKey, inboxId: params.inboxId, scrub: params.scrub },
              signal: children.signal,
              onToolCall: (call) => params.progress?.childCall({ child, ...call }),
              logger: logger.child({ child: i + 1 }),
              onModelCall: params.onModelCall,
            });
          } catch (error) {
            logger.error({ err: error }, 'could not start a sub-agent');
            return failedToStart({ task });
          } finally {
            release();
          }
        }),
      );
      try {
        return await outcomes;
      } finally {
        signal.removeEventListener('abort', follow);
        leave?.();
      }
    },
  };
}

/** A child's tool context: the parent's, at depth 1, without delegation, clarify, messaging, memory or inner tool calls. */
export function childToolContext(params: { parent: Omit<ToolContext, 'signal'> }): Omit<ToolContext, 'signal' | 'sessionId'> {
  const { delegate: _delegate, clarify: _clarify, messaging: _messaging, memory: _memory, toolCalls: _toolCalls, sessionId: _sessionId, ...kept } = params.parent;
  return { ...kept, depth: 1 };
}

function failedToStart(params: { task: DelegateTask }): DelegateOutcome {
  return { goal: params.task.goal, status: 'failed', summary: '', error: 'the sub-agent could not be started (see the gateway log)' };
}
