import type { z } from 'zod';
import type { Clock } from '../core/clock.js';
import type { ApprovalCapability, CheckpointCapability, ClarifyCapability, CronCapability, DelegateCapability, MessagingCapability, ToolCallsCapability, TurnOrigin } from './capabilities.js';
import type { SkillsCapability } from '../skills/types.js';
import type { SessionSearchCapability } from '../search/capability.js';
import type { MemoryCapability } from '../memory/capability.js';
import type { SandboxSpec } from './sandbox/spec.js';
import type { VisionCapability } from '../media/vision.js';
import type { WebCapability } from '../web/capability.js';

/** Limits for the `terminal` tool. */
export interface TerminalLimits {
  /** Longest a command may run before its process group is killed. */
  timeoutMs: number;
  /** Most bytes of combined stdout+stderr returned to the model. */
  maxOutputBytes: number;
}

/** What a tool handler may use: where it works, how it is cancelled, what time it is. */
export interface ToolContext {
  /** Absolute directory the tools work in (terminal cwd, base of relative paths). */
  workspace: string;
  /** When true, file tools refuse paths outside `workspace`. */
  confineToWorkspace: boolean;
  /** Aborted when the user interrupts the turn; long-running handlers must stop. */
  signal: AbortSignal;
  /** Time source for timeouts. */
  clock: Clock;
  /** Limits for the terminal tool, and the sandbox its commands run in (absent: unconfined). */
  terminal: TerminalLimits & { sandbox?: SandboxSpec | undefined };
  /** The session the turn belongs to, when there is one. */
  sessionId?: string;
  /** The profile's memory files (the `memory` tool); absent when memory is off. */
  memory?: MemoryCapability;
  /** Search over the profile's past sessions (the `session_search` tool); absent without a store. */
  sessionSearch?: SessionSearchCapability;
  /** The profile's skills (skills_list, skill_view, skill_manage); absent when the profile has no skills folder. */
  skills?: SkillsCapability;
  /** The chat the turn answers (absent for turns without one, e.g. a background review). */
  origin?: TurnOrigin;
  /** Set when the system started the turn (a job's run, the heartbeat, a check): dangerous-command approval denies by default there. */
  startedBy?: 'job' | 'heartbeat' | 'check';
  /** The profile's scheduled jobs (the `cronjob` tool); absent when the scheduler does not run. */
  cron?: CronCapability;
  /** Dangerous-command approval (`tools.approval`); absent means nobody can approve, so dangerous commands are denied. */
  approval?: ApprovalCapability;
  /** Child agents (`delegate_task`); absent in a child's own context (depth 1) and where delegation is off. */
  delegate?: DelegateCapability;
  /** Asking the owner and waiting (`clarify`); absent in system-started turns and in children. */
  clarify?: ClarifyCapability;
  /** Workspace checkpoints before changes (write_file, patch, destructive commands); absent: none are taken. */
  checkpoints?: CheckpointCapability;
  /** Other chats of the profile (`send_message`); absent in children. */
  messaging?: MessagingCapability;
  /** The agent's own tools for a tool that calls tools (`execute_code`); filled by the agent per round. */
  toolCalls?: ToolCallsCapability;
  /** Limits of `execute_code` scripts (`tools.code_execution`). */
  codeExecution?: CodeExecutionLimits;
  /** 0 for the turn's own agent, 1 in a child of `delegate_task` (children never delegate further). */
  depth?: number;
  /** The web (`web_search`, `web_extract`); absent where the gateway gives none. */
  web?: WebCapability;
  /** A model that sees (`vision_analyze`); absent where none is configured. */
  vision?: VisionCapability;
}

/** Limits for the `execute_code` tool. */
export interface CodeExecutionLimits {
  /** Longest a script may run before its process group is killed. */
  timeoutMs: number;
  /** Most tool calls one script may make. */
  maxToolCalls: number;
}

/** A path a call touches, for the scheduler's overlap check. */
export interface PathAccess {
  /** Path as given by the model (resolved against the workspace by the scheduler). */
  path: string;
  /** True when the call may modify the path. */
  write: boolean;
}

/** How the scheduler may run a tool next to others. */
export type ParallelPolicy<Args> =
  | 'safe'
  | 'never'
  | {
      /** The paths one call touches; calls run together only if no writer overlaps another call's path. */
      paths(args: Args): PathAccess[];
    };

export { TOOLSET_NAMES, type ToolsetName } from '../core/toolset-names.js';
import type { ToolsetName } from '../core/toolset-names.js';

/** A switch of builtinTools: the profile has memory on, has skills, runs the scheduler, has a search service (web.search_backend). */
export type BuiltinSwitch = 'memory' | 'skills' | 'cron' | 'web_search' | 'vision';

/** How a tool's calls look in the chat's tool-activity lines (the data only: the gateway draws the line). */
export interface ToolProgressLook {
  /** Shown before the name, e.g. "⚙". */
  readonly emoji: string;
  /** The argument shown after the name (a string, number or boolean of the call's arguments); absent: the name alone. Never one that holds a body the chat should not see. */
  readonly arg?: string;
  /** How the argument is set off: `colon` "⚙ terminal: ls -la"; `space` (the default) "📖 read_file notes.md"; `quoted` '🔎 search_files "TODO"'. */
  readonly style?: 'colon' | 'space' | 'quoted';
}

/**
 * A tool the model can call: a name, a zod input schema, a concurrency policy and a handler, plus its policy (the
 * optional fields below; each one's default is what a tool without it gets). The lists elsewhere (delegate_task's
 * toolsets and blocked tools, what execute_code may call, the review's tools, the progress lines) are derived from them.
 */
export interface ToolDefinition<S extends z.ZodType = z.ZodType> {
  /** Name the model calls it by (a-z, 0-9, _ and -). */
  name: string;
  /** What it does and when to use it, written for the model. */
  description: string;
  /** Schema of the arguments; exported to JSON Schema for the model (unless `parameters` is given). */
  input: S;
  /**
   * The arguments' JSON Schema as the model is sent it, when it comes from elsewhere (an MCP server's tool: `input`
   * then only checks that the arguments are an object, and the server validates them). Default: made from `input`.
   */
  parameters?: Record<string, unknown>;
  /** How it may run concurrently with other calls in the same round. */
  parallel: ParallelPolicy<z.infer<S>>;
  /** Runs the tool; the returned text goes back to the model. Throw ToolError for a readable failure. */
  handler(args: z.infer<S>, ctx: ToolContext): Promise<string>;
  /**
   * The Hermes Agent toolsets it belongs to: a delegate_task task naming one of them gives its child this tool.
   * Default: none (a child gets it only when its task names no toolsets).
   */
  toolsets?: readonly ToolsetName[];
  /** True: a delegate_task child never gets it, whatever its toolsets (it needs the owner, the chat or the parent's own state). Default: a child may get it. */
  childBlocked?: true;
  /**
   * Whether an execute_code script may call it. Default: when `parallel` is 'safe' or path-scoped. `false` also says
   * it is only for the model to call directly: a script calling it is told so, and the JavaScript helper still exports it.
   */
  codeCallable?: boolean;
  /** True: it calls the agent's other tools, so the agent fills `ctx.toolCalls` for it (depth 0 only). Default: not filled. */
  callsTools?: true;
  /** True: a model round whose only call is this tool does not count against the iteration budget. Default: every round counts. */
  freeRound?: true;
  /** True: the background review's agent gets it (skills and memory upkeep). Default: the review does not. */
  review?: true;
  /** How its calls look in the tool-activity lines. Default: 🔧 and the name alone. */
  progress?: ToolProgressLook;
  /** builtinTools offers it only when this switch is on (built-in tools only). Default: always offered. */
  offeredWith?: BuiltinSwitch;
  /**
   * For a result that is not an error but means the call failed (a command's non-zero exit): what kind of failure it
   * is, alike for the same failure (the agent's failure escalation counts repeats); undefined when it did not fail.
   * `args` are the call's arguments as the model sent them (parsed JSON, unchecked).
   */
  failedAs?: (params: { content: string; args: unknown }) => string | undefined;
}

/** Declares a tool with its argument type inferred from the zod schema. */
export function defineTool<S extends z.ZodType>(def: ToolDefinition<S>): ToolDefinition<S> {
  return def;
}
