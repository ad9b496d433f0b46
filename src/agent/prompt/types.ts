/** One layer of the system prompt: its name (as `hermes prompt show` lists it) and its text ('' renders nothing). */
export interface PromptLayer {
  /** e.g. "identity", "memory", "runtime". */
  readonly name: string;
  /** The layer's text, without surrounding blank lines. */
  readonly text: string;
}

/** The logging the prompt builder does (an unreadable or blocked file); a pino logger fits. */
export interface PromptLogger {
  /** Something was left out of the prompt, and why. */
  warn(obj: object, msg?: string): void;
}
