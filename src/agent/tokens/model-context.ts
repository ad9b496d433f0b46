import type { Clock } from '../../util/clock.js';
import { resolveContextLength, staticContextLength, type ContextLength, type ResolveContextLengthParams } from './context-length.js';

/**
 * The running model's context length: the config's or the default at once, the endpoint's once `resolve` has
 * asked it (once per gateway start or reload, in the background). Reading it never waits.
 */
export class ModelContext {
  private readonly model: ResolveContextLengthParams['model'];
  private readonly clock: Clock;
  private readonly fetcher: typeof fetch | undefined;
  private length: ContextLength;
  private resolving: Promise<ContextLength> | undefined;

  constructor(params: { model: ResolveContextLengthParams['model']; clock: Clock; fetch?: typeof fetch }) {
    this.model = params.model;
    this.clock = params.clock;
    this.fetcher = params.fetch;
    this.length = staticContextLength({ model: params.model });
  }

  /** The context length known now (never waits for the endpoint). */
  current(): ContextLength {
    return this.length;
  }

  /** Asks the endpoint once (later calls share the first); never rejects. */
  resolve(params: { signal?: AbortSignal; timeoutMs?: number } = {}): Promise<ContextLength> {
    this.resolving ??= resolveContextLength({
      model: this.model,
      clock: this.clock,
      ...(params.signal ? { signal: params.signal } : {}),
      ...(params.timeoutMs !== undefined ? { timeoutMs: params.timeoutMs } : {}),
      ...(this.fetcher ? { fetch: this.fetcher } : {}),
    }).then((length) => {
      this.length = length;
      return length;
    });
    return this.resolving;
  }
}
