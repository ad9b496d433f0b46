/**
 * What tools may ask of the agent layer beyond the filesystem: capability slots the gateway fills per turn. Tools
 * only see these interfaces, never the agent or the gateway that implement them.
 */

/** The chat a turn answers, as tools may know it (where "origin" delivery goes). */
export interface TurnOrigin {
  /** Adapter name: telegram, slack, discord, email, sms, ... */
  readonly platform: string;
  readonly chatId: string;
  readonly threadId?: string;
  readonly chatKind: 'dm' | 'group' | 'channel';
}

/** What the `cronjob` tool asks for (Hermes Agent's argument names, camel-cased). */
export interface CronjobRequest {
  readonly action: 'create' | 'list' | 'update' | 'pause' | 'resume' | 'run' | 'remove';
  readonly jobId?: string;
  readonly name?: string;
  readonly prompt?: string;
  /** A cron expression, "every 2h", "2026-12-02 09:00", "in 20m". */
  readonly schedule?: string;
  /** `origin` (default), `home`, `<platform>:<chat>[:<thread>]`, or several comma-separated. */
  readonly deliver?: string;
}

/** The profile's scheduled jobs (the `cronjob` tool). Present only when the gateway runs the scheduler. */
export interface CronCapability {
  /** Applies one action; resolves to the text for the model (ids, schedules with their time zone, next runs). Throws ToolError when refused. */
  manage(params: CronjobRequest & { origin?: TurnOrigin; signal: AbortSignal }): Promise<string>;
}

/** One dangerous pattern a command matched (the dangerous-command table's id and its description). */
export interface ApprovalMatch {
  readonly patternId: string;
  readonly description: string;
  /** The part of the command that matched (normalised), shown to the owner when the command is too long to show whole. */
  readonly segment?: string;
}

/** What a tool asks the owner (or the approval policy) before running a dangerous command. */
export interface ApprovalRequest {
  /** The tool asking (`terminal`, `execute_code`). */
  readonly tool: string;
  /** The command as the model wrote it (shown to the owner scrubbed of secrets). */
  readonly command: string;
  /** Every dangerous pattern it matched (at least one). */
  readonly matches: readonly ApprovalMatch[];
}

/** How an approval request ended. A denial's `reason` is written for the model (it is told why it may not). */
export type ApprovalDecision =
  | { readonly approved: true; readonly how: 'once' | 'session' | 'always' | 'rule' | 'smart' | 'off' }
  | { readonly approved: false; readonly reason: string };

/**
 * Dangerous-command approval for one turn (`tools.approval`): resolves when the owner answered, the policy decided, or
 * the request timed out or was cancelled (a `/stop`, the turn's abort, shutdown: denied). Never rejects.
 */
export interface ApprovalCapability {
  decide(params: ApprovalRequest & { signal: AbortSignal }): Promise<ApprovalDecision>;
}

/** One sub-task of `delegate_task` (Hermes Agent's argument names). */
export interface DelegateTask {
  /** What the child must do: with `context`, all it knows (it sees none of the parent's history). */
  readonly goal: string;
  /** Facts the child needs (paths, constraints, what was already tried). */
  readonly context?: string;
  /** Which tool groups the child gets (e.g. `file`, `terminal`, `search`); absent: every tool a child may have. */
  readonly toolsets?: readonly string[];
}

/** How one child ended, as the parent's context receives it: the summary only, never its tool calls. */
export interface DelegateOutcome {
  readonly goal: string;
  readonly status: 'done' | 'failed' | 'budget_exhausted' | 'interrupted';
  /** The child's final answer (may be partial when it did not finish). */
  readonly summary: string;
  /** A short line saying why it did not finish (failed, out of budget, interrupted). */
  readonly error?: string;
}

/**
 * Child agents for `delegate_task`: each runs with a fresh history, its own iteration budget and the parent's model
 * route; at most `agent.max_concurrent_children` at once; aborting `signal` stops every child. Absent in a child's own
 * tool context (depth 1). Never rejects for a child's failure (it becomes that child's outcome).
 */
export interface DelegateCapability {
  run(params: { tasks: readonly DelegateTask[]; signal: AbortSignal }): Promise<DelegateOutcome[]>;
}

/** How a `clarify` question ended: the owner's answer (a pressed choice or their next message), or why there is none. */
export type ClarifyAnswer =
  | { readonly answered: true; readonly answer: string; readonly via: 'choice' | 'message' }
  | { readonly answered: false; readonly reason: string };

/**
 * Asks the owner a question in the turn's chat and waits (`tools.clarify_timeout`): buttons where the platform has them,
 * a numbered list elsewhere. Resolves "no answer" on timeout, `/stop`, an interrupt or shutdown. Never rejects.
 * Absent in system-started turns and in children.
 */
export interface ClarifyCapability {
  ask(params: { question: string; choices?: readonly string[]; signal: AbortSignal }): Promise<ClarifyAnswer>;
}

/** A chat `send_message` may deliver to. */
export interface MessageTarget {
  /** How the model names it: `<platform>:<chat>[:<thread>]`, or `home:<platform>` for a home channel. */
  readonly target: string;
  readonly platform: string;
  /** A readable name when one is known (the chat's title, the sender's name). */
  readonly title?: string;
  /** True for a home channel (set with /sethome). */
  readonly home: boolean;
}

/**
 * The chats this profile talks with, for `send_message`: `send` delivers through the normal path (journaled, paced, never
 * twice, MEDIA lines as attachments) and refuses any chat not in `list`. Absent in children.
 */
export interface MessagingCapability {
  list(params: { signal: AbortSignal }): Promise<readonly MessageTarget[]>;
  /** Resolves to the text for the model (where it went, its message ids). Throws ToolError when refused. */
  send(params: { target: string; message: string; signal: AbortSignal }): Promise<string>;
}

/** What one call of a tool from inside another tool gave back (`execute_code`'s scripts). */
export interface InnerToolResult {
  readonly content: string;
  readonly isError: boolean;
}

/**
 * The agent's own tools, callable from inside a tool (`execute_code`'s RPC): only `names` may be called (the parallel-safe
 * and file tools plus `terminal`; never delegate_task, clarify, send_message, memory, execute_code). Each call is
 * validated, run with the turn's context (the approval gate included) and scrubbed like a model's call. Never rejects.
 */
export interface ToolCallsCapability {
  readonly names: readonly string[];
  call(params: { name: string; args: unknown; signal: AbortSignal }): Promise<InnerToolResult>;
}

/** A turn's workspace checkpoints (config `checkpoints`): write_file, patch and destructive commands take one first. */
export interface CheckpointCapability {
  /** Snapshots the workspace before a change under `path` (at most once per directory per turn). Never throws. */
  before(params: { path: string; reason: string }): Promise<void>;
}
