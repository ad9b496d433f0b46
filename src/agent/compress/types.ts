import type { AuxiliaryRequest } from '../auxiliary/client.js';
import type { ChatMessage } from '../messages.js';

/** Estimated prompt tokens one message costs (the caller's tokenizer, ideally cached per message object). */
export type CountTokens = (message: ChatMessage) => number;

/** Answers one summary request with text; the shape of the auxiliary client's `complete` (it may throw). */
export type Summarise = (request: AuxiliaryRequest) => Promise<string>;

/** What `compressHistory` needs: the conversation (no system prompt), a counter, the budget and the summariser. */
export interface CompressParams {
  /** The session's messages, oldest first, without the system prompt (that is rebuilt separately). */
  readonly messages: readonly ChatMessage[];
  /** Tokens of one message. */
  readonly countTokens: CountTokens;
  /** The threshold in tokens the request must get under (e.g. 0.5 × the context length). */
  readonly threshold: number;
  /** Tokens the rest of the request costs (system prompt + tool schemas); counted into every estimate. Default 0. */
  readonly overheadTokens?: number;
  /** Share of the threshold kept verbatim at the end (default 0.2). */
  readonly tailRatio?: number;
  /** Most tokens a summary may have (default 12,000). */
  readonly summaryMaxTokens?: number;
  /** Most characters of transcript in the summary request (default 200,000; oldest and newest kept when longer). */
  readonly transcriptMaxChars?: number;
  /** Writes the summary (the auxiliary model, or the main model when none is set). */
  readonly summarise: Summarise;
  /** The turn's signal; an abort keeps the middle (step 1 only) rather than dropping it. */
  readonly signal: AbortSignal;
  /** Summarise even when step 1 is enough or the history is under the threshold (`/compress`). */
  readonly force?: boolean;
}

/** How a compression ended. */
export type CompressOutcome =
  /** The estimate was already under the threshold: messages unchanged. */
  | 'under_threshold'
  /** Step 1 (clearing old tool output) was enough. */
  | 'cleared'
  /** The middle was replaced by a model-written summary. */
  | 'summarised'
  /** The summary call failed or was empty: the middle was replaced by the fixed fallback note. */
  | 'fallback'
  /** Nothing lies between head and tail: only step 1 applied. */
  | 'nothing_to_summarise'
  /** The signal aborted the summary call: only step 1 applied, the middle is kept. */
  | 'aborted';

/** Figures of one compression, in estimated tokens (overhead included). */
export interface CompressStats {
  /** Estimate before compressing. */
  readonly before: number;
  /** Estimate of the output. */
  readonly after: number;
  /** Tool results replaced by the placeholder in step 1. */
  readonly clearedToolResults: number;
  /** Messages of the middle that the summary (or the fallback note) replaced. */
  readonly summarised: number;
}

/** What `compressHistory` returns: messages valid for the next API call. */
export interface CompressResult {
  /** Head + summary message + tail (or the step-1 messages when no summary was made). */
  readonly messages: ChatMessage[];
  /** The summary's text without its header (the fallback note on failure), or undefined when none was made. */
  readonly summary: string | undefined;
  /** How it ended. */
  readonly outcome: CompressOutcome;
  /** Figures. */
  readonly stats: CompressStats;
  /** Why the summary call failed, for one log line (outcome 'fallback' or 'aborted'). */
  readonly error?: string;
}
