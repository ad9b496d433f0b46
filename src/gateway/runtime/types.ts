import type { SttSettings } from '../../media/transcribe.js';
import type { VoiceReplies } from '../../media/speech.js';
import type { ImageSight } from '../../media/vision.js';
import type { Checkpoints } from '../../checkpoints/checkpoints.js';
import type { ModelList } from '../commands/model-list.js';
import type { ModelPricing } from '../commands/usage.js';
import type { PromptSource } from '../../agent/prompt/source.js';
import type { ModelContext } from '../../agent/tokens/model-context.js';
import type { CompressionDeps } from '../sessions/compress.js';
import type { ReviewOptions } from '../review/review.js';
import type { ModelProbe } from '../ops/model-watch.js';
import type { ToolContext } from '../../tools/tool.js';
import type { BusyPolicy } from '../../core/platform.js';
import type { MediaPolicy } from '../delivery/media-policy.js';
import type { MediaStager } from '../delivery/media-stage.js';
import type { ApprovalSettings } from '../approvals/capability.js';
import type { ToolProgressMode } from '../turns/tool-progress.js';
import type { DelegateSettings } from '../delegate/capability.js';
import type { McpHub } from '../../mcp/hub.js';
import type { ToolsetPolicy } from '../../tools/toolsets.js';

/** Behaviour knobs, already resolved from config. */
export interface RunnerOptions {
  readonly profileName: string;
  readonly busyPolicy: BusyPolicy;
  readonly drainTimeoutMs: number;
  readonly editIntervalMs: number;
  readonly cursor: string;
  readonly typingIntervalMs: number;
  /** Tool activity lines in the streamed reply (config display.tool_progress); `new` when absent. */
  readonly toolProgress?: ToolProgressMode;
  readonly modelLabel: string;
  /** Most characters of earlier conversation sent with each model call. */
  readonly historyMaxChars: number;
  /** Compression settings and summariser; with `modelContext` they replace the character cut. */
  readonly compression?: Omit<CompressionDeps, 'contextLength'>;
  /** Which MEDIA files a reply may attach. */
  readonly mediaPolicy: MediaPolicy;
  /** Copies each file that passed the policy aside and checks the copy; the platform uploads only the copy. */
  readonly stageMedia?: MediaStager;
  /** Redacts secrets from everything sent to a platform. */
  readonly scrub: (text: string) => string;
  /** The profile's secrets as now known: stored history written before one was known is scrubbed at start and after a reload. */
  readonly secretList?: () => readonly string[];
  /** How much of a streaming reply may be shown yet (the rest could be the start of a secret). */
  readonly safeLength: (params: { text: string }) => number;
  readonly toolContext: Omit<ToolContext, 'signal'>;
  /** Builds each new session's system prompt (stored with the session) and the per-call block, if any. */
  readonly prompts: PromptSource;
  /** The profile's memory files, numbered with their usage (what `/memory` answers); absent when memory is off. */
  readonly memoryReport?: () => string;
  /** The profile's media cache, pruned by the maintenance loop. */
  readonly cacheDir?: string;
  /** Restart backoff for adapters (tests shorten it). */
  readonly supervisorBackoff?: { baseMs?: number; maxMs?: number };
  /** Checks the model endpoint (GET /models); the gateway keeps its result fresh for /healthz. */
  readonly modelProbe?: ModelProbe;
  /** The model's context length (resolved from the endpoint at start and after each reload); /status shows it. */
  readonly modelContext?: ModelContext;
  /** The profile's skills/ folder: read per command, for /skills and `/<skill-name> [text]` turns; absent: no skill commands. */
  readonly skillsDir?: string;
  /** The background review after delivered turns (skills.review, memory.review_interval); none when absent. */
  readonly review?: ReviewOptions;
  /** Scheduled jobs (config `cron`): the scheduler runs with the runner when set. */
  readonly jobs?: { readonly catchUpWindowMs: number };
  /** Dangerous-command approval (`tools.approval`, `tools.approval_timeout`); absent: dangerous commands are denied. */
  readonly approval?: ApprovalSettings;
  /** delegate_task children (`agent.delegate_max_iterations`, `agent.max_concurrent_children`); absent: no delegation. */
  readonly delegation?: DelegateSettings;
  /** How long a `clarify` question waits for the owner (`tools.clarify_timeout`); absent: the clarify tool is not available. */
  readonly clarifyTimeoutMs?: number;
  /** Speech to text for voice notes (`stt`); absent: not set up. */
  readonly stt?: SttSettings;
  /** How photos reach the model (`media.image_*`, `model.vision`, `auxiliary.vision`); absent: they stay file paths. */
  readonly sight?: ImageSight;
  /** The workspace's checkpoints (`checkpoints`, with git installed): taken by the file and terminal tools, /rollback; absent: off. */
  readonly checkpoints?: Checkpoints;
  /** Text to speech for the replies of chats that asked for voice (`tts`); absent: not set up. */
  readonly speech?: VoiceReplies;
  /** Most characters of an attached document's text a turn gets (`media.document_char_limit`); absent: 20,000. */
  readonly documentCharLimit?: number;
  /** The model endpoint's GET /models, cached (what /model lists and checks names against); absent: only the route's models. */
  readonly modelList?: ModelList;
  /** Which tools each platform's turns offer (`toolsets`, `platform_toolsets`); absent: all of them. */
  readonly toolsets?: ToolsetPolicy;
  /** The profile's MCP servers (`mcp_servers`): started and stopped with the runner, kept across reloads; absent: none. */
  readonly mcp?: McpHub;
  /** model.pricing: /usage's estimated cost; absent: none. */
  readonly pricing?: ModelPricing;
}
