import type { TokenMeter } from './tokens/meter.js';
import type OpenAI from 'openai';
import type { ToolRegistry } from '../tools/registry.js';
import type { ToolContext } from '../tools/tool.js';
import type { Clock } from '../core/clock.js';
import type { ChatMessage } from './messages.js';
import type { ModelCallReport } from './usage.js';
import type { AgentLogger, OnModelAttempt } from './errors.js';
import type { ModelRoute } from './route/route.js';

export type { ChatMessage } from './messages.js';


/** How an AIAgent is set up (one per profile/model). */
export interface AgentOptions {
  /** OpenAI SDK client pointed at any OpenAI-compatible base URL (used when no `route` is given). */
  client?: OpenAI;
  /** The model route (primary with its key pool, fallbacks); made from `client` and `model` when absent. */
  route?: ModelRoute;
  /** Model name sent with every request (the primary's, when a route is given). */
  model: string;
  /** Tools the model may call. */
  registry: ToolRegistry;
  /** Model calls allowed per turn (the iteration budget). */
  maxIterations: number;
  /** Retries of one model call after transient failures. */
  maxRetries: number;
  /** Most tool calls run at once. */
  maxParallel: number;
  /** The same tool failing the same way this many times in a turn: the model is told to stop and ask the owner (0: never; default 3). */
  escalateAfterFailures?: number;
  /** Time source for backoff and the stream idle timer. */
  clock: Clock;
  /** Longest wait for the next chunk of a streamed reply (the configured request timeout). */
  requestTimeoutMs: number;
  /** Optional logger. */
  logger?: AgentLogger;
  /** Redacts secrets from tool results before the model (and the history) sees them. */
  scrub?: (text: string) => string;
  /** Token accounting: each request's estimate is corrected by the prompt tokens the endpoint reports for it. */
  tokenMeter?: TokenMeter;
  /** Sampling temperature, when set. */
  temperature?: number;
  /** max_tokens for each reply, when set. */
  maxTokens?: number;
}

/** What a compression gave back: the messages to go on with and the system prompt to send with them. */
export interface CompressedContext {
  /** The compressed conversation (no system prompt), valid for the next API call. */
  readonly messages: ChatMessage[];
  /** The system prompt from now on (rebuilt when the session was continued in a new one). */
  readonly systemPrompt: string;
  /** The tool context from now on, when it changed (a new session: its id is what tools key on). */
  readonly toolContext?: Omit<ToolContext, 'signal'>;
}

/** The compression capability a caller (the gateway) gives the agent; the agent never knows about sessions. */
export interface CompressHook {
  /** Estimated prompt tokens above which the agent compresses before a model call (threshold × context length). */
  readonly thresholdTokens: number;
  /** The model's context length in tokens: a request whose fixed part (system prompt + tools) alone passes it is refused. */
  readonly contextTokens: number;
  /** Compresses the conversation; undefined when nothing changed. `force` summarises even under the threshold. */
  readonly run: (params: { messages: readonly ChatMessage[]; systemPrompt: string; force: boolean; signal: AbortSignal }) => Promise<CompressedContext | undefined>;
}

/** One turn: the user's new message on top of the stored history. */
export interface AgentRunParams {
  /** The session's system prompt, put before the history unchanged on every model call of the turn. */
  systemPrompt: string;
  /** Text sent as a system message after the history on each model call (e.g. the current time); never stored. */
  ephemeral?: () => string;
  /** The conversation so far (without the system prompt). */
  history: readonly ChatMessage[];
  /** The tools of this turn when they are not the agent's own (the agent's plus a session's MCP tools). */
  registry?: ToolRegistry | undefined;
  /** What the user just said. */
  userText: string;
  /** Images that came with it (data URLs), for a model that sees them. */
  userImages?: readonly string[] | undefined;
  /** The model this turn starts on (a session's /model choice); absent: the route's primary. */
  model?: string | undefined;
  /** Aborted to interrupt the turn (new message with policy interrupt, /stop). */
  signal: AbortSignal;
  /**
   * User text that arrived for this turn since the last look (/steer, busy policy steer): read before each model call,
   * each text added to the history as a user message (and given to `onMessage`) so that call and the later ones see it.
   */
  steering?: () => readonly string[];
  /** Receives streamed reply text as it arrives. */
  onTextDelta: (delta: string) => void;
  /** Receives every message added to the history, in order, for persisting. */
  onMessage: (message: ChatMessage) => void;
  /** Where and how tools run; tools always get the turn's `signal`, whatever this carries. */
  toolContext: ToolContext | Omit<ToolContext, 'signal'>;
  /** Compresses the conversation when it grows past the threshold, or when the model says the context overflowed. */
  compress?: CompressHook;
  /** Called once per completed model call with its token counts (null fields when the endpoint reported none). */
  onUsage?: (report: ModelCallReport) => void;
  /** Called once per request to a model (each retry, key and fallback model too): `ok`, or why it failed (metrics). */
  onModelCall?: OnModelAttempt | undefined;
}

/** How a turn ended. */
export interface AgentResult {
  /** final: the model answered; budget_exhausted / interrupted / error: stopped early. */
  outcome: 'final' | 'budget_exhausted' | 'interrupted' | 'error';
  /** All text emitted this turn (what onTextDelta received). */
  text: string;
  /** A message for the user about why the turn stopped early or looks odd. */
  note?: string;
  /** Model calls made this turn (retries of one call count once). */
  modelCalls: number;
}
