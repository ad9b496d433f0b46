import type { Params, UploadedPart } from './params.js';
import type { TelegramState } from './state.js';

/** What a Bot API method handler gets. */
export interface MethodContext {
  /** The fake's state. */
  state: TelegramState;
  /** Request parameters. */
  params: Params;
  /** Uploaded files by form field. */
  uploads: Map<string, UploadedPart>;
  /** Aborted when the client disconnects (ends long polls). */
  signal: AbortSignal;
}

/** A Bot API method: returns the `result` or throws an ApiError. */
export type MethodHandler = (ctx: MethodContext) => unknown;
