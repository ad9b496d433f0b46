import type { Logger } from 'pino';
import type { TurnOutcome } from '../../jobs/ports.js';
import type { Store, InboxRow } from '../../store/types.js';
import type { Clock } from '../../core/clock.js';
import type { AIAgent } from '../../agent/agent.js';
import type { PromptSource } from '../../agent/prompt/source.js';
import type { PlatformAdapter } from '../../core/adapter.js';
import type { TurnReactions } from '../../core/platform.js';
import type { ChatPacer } from '../delivery/pacer.js';
import type { CompressionDeps } from '../sessions/compress.js';
import type { MediaPolicy } from '../delivery/media-policy.js';
import type { MediaStager } from '../delivery/media-stage.js';
import type { SteeringSource, TypingHandle } from '../intake/mailbox.js';
import type { SttSettings } from '../../media/transcribe.js';
import type { SkillExpander } from './user-text.js';
import type { VoiceReplies } from '../../media/speech.js';
import type { ImageSight } from '../../media/vision.js';
import type { ToolProgressMode } from './tool-progress.js';
import type { TurnToolFactories } from './tools.js';
import type { McpHub } from '../../mcp/hub.js';
import type { ToolsetPolicy } from '../../tools/toolsets.js';

/** Everything a turn needs besides its message. */
export interface TurnDeps extends TurnToolFactories {
  readonly store: Store;
  readonly agent: AIAgent;
  readonly clock: Clock;
  readonly logger: Logger;
  readonly adapter: PlatformAdapter;
  readonly pacer: ChatPacer;
  readonly cursor: string;
  readonly typingIntervalMs: number;
  /** Tool activity lines in the streamed reply (display.tool_progress); `new` when absent. */
  readonly toolProgress?: ToolProgressMode;
  /** Builds the system prompt of a session that has none yet (then stored with it), and the per-call block. */
  readonly prompts: PromptSource;
  /** Which tools each platform's turns offer (`toolsets`, `platform_toolsets`); absent: all of the agent's. */
  readonly toolsets?: ToolsetPolicy;
  /** The profile's MCP servers: a new session's tools are frozen from them, each turn's made from what was frozen. */
  readonly mcp?: McpHub;
  /** Turns started on one message before it is given up (a message that keeps crashing the gateway). */
  readonly maxAttempts: number;
  /** Most characters of earlier conversation sent to the model when `compression` is not given (tests). */
  readonly historyMaxChars: number;
  /** Compression of long conversations (threshold, tail, summariser, context length); replaces the character cut. */
  readonly compression?: CompressionDeps;
  /** Which MEDIA files a reply may attach. */
  readonly mediaPolicy: MediaPolicy;
  /** Copies each file that passed the policy aside and checks the copy; the platform uploads only the copy. */
  readonly stageMedia?: MediaStager;
  /** Redacts secrets from everything sent to the platform and everything stored. */
  readonly scrub: (text: string) => string;
  /** How much of a streaming reply may be shown yet (the rest could be the start of a secret). */
  readonly safeLength: (params: { text: string }) => number;
  /** Reactions on the message being answered, when enabled for the adapter. */
  readonly reactions?: TurnReactions;
  /** Turns `/<skill-name> [text]` into the skill's body plus the text (absent: messages are sent as written). */
  readonly expandSkill?: SkillExpander;
  /** Speech to text for voice notes and audio (`stt`); absent: they are not transcribed, and the user is told so. */
  readonly stt?: SttSettings;
  /** How photos reach the model (sized, seen natively or described by auxiliary.vision); absent: they stay file paths. */
  readonly sight?: ImageSight;
  /** Text to speech for replies (`tts`, the chat's /voice choice); absent: replies are never spoken. */
  readonly speech?: VoiceReplies;
  /** Most characters of an attached document's text (a PDF's, a text file's) the turn gets; absent: 20,000. */
  readonly documentCharLimit?: number;
  /** Called after the reply was delivered and the turn completed (never after an error turn, /stop or shutdown), with the model calls it stored. */
  readonly onDelivered?: (params: { sessionId: string; modelCalls: number }) => void;
  /** Called when the turn ended (not when a shutdown left it open for replay): how it ended, for system-started turns' runs. */
  readonly onFinished?: (end: TurnFinish) => void;
}

/** How a turn ended: `silent` (a system turn whose answer was empty or a silence token: nothing sent), `undelivered` (the platform refused it). */
export interface TurnFinish {
  readonly outcome: TurnOutcome;
  readonly sessionId: string;
  /** The answer's final text (before any note). */
  readonly text: string;
  /** Why it failed: the agent's note, or the delivery errors. */
  readonly error?: string;
  /** A delivered reply's parts that did not reach the platform (a file it refused): the text arrived, these did not. */
  readonly deliveryErrors?: readonly string[];
}

/** One turn's input: the inbound row (and rows merged into it), its abort signal, what the mailbox started for it. */
export interface RunTurnParams {
  readonly row: InboxRow;
  /** Messages merged into this turn (the merge window, a queue drained at once). */
  readonly merged?: readonly InboxRow[];
  readonly signal: AbortSignal;
  /** The mailbox's typing, started when the message arrived: adopted by the turn. */
  readonly typing?: TypingHandle;
  /** Messages steered into the running turn (/steer, busy policy steer). */
  readonly steering?: SteeringSource;
  readonly deps: TurnDeps;
}
