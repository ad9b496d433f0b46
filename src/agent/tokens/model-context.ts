import type { Clock } from '../../core/clock.js';
import { resolveContextLength, staticContextLength, type ContextLength, type ResolveContextLengthParams } from './context-length.js';
import { knownContextLength } from './known-models.js';
import { contextLengthFromModels, visionFromModels } from './models-metadata.js';

/**
 * The running model's context length: the config's or the default at once, the endpoint's once `resolve` has
 * asked it (once per gateway start or reload, in the background). Reading it never waits. Another model (a session's
 * /model choice) reads its own figure: the endpoint's GET /models entry for that name, else the known-models table,
 * else the configured model's (the same endpoint most likely serves it alike).
 */
export class ModelContext {
  private readonly model: ResolveContextLengthParams['model'];
  private readonly clock: Clock;
  private readonly fetcher: typeof fetch | undefined;
  private length: ContextLength;
  private resolving: Promise<ContextLength> | undefined;
  /** The endpoint's GET /models answer, once `resolve` got one. */
  private models: unknown;

  constructor(params: { model: ResolveContextLengthParams['model']; clock: Clock; fetch?: typeof fetch }) {
    this.model = params.model;
    this.clock = params.clock;
    this.fetcher = params.fetch;
    this.length = staticContextLength({ model: params.model });
  }

  /** The context length known now of `model` (absent: the configured model); never waits for the endpoint. */
  current(params: { model?: string | undefined } = {}): ContextLength {
    const name = params.model;
    if (name === undefined || name === '' || name === this.model.name) return this.length;
    const listed = this.models === undefined ? undefined : contextLengthFromModels({ body: this.models, model: name, exact: true });
    if (listed !== undefined) return { tokens: listed, source: 'endpoint' };
    const known = knownContextLength({ model: name });
    return known === undefined ? this.length : { tokens: known, source: 'default' };
  }

  /** Whether the endpoint's GET /models says `model` (absent: the configured one) takes images; undefined: not known. */
  vision(params: { model?: string | undefined } = {}): boolean | undefined {
    if (this.models === undefined) return undefined;
    const name = params.model === undefined || params.model === '' ? this.model.name : params.model;
    return visionFromModels({ body: this.models, model: name, exact: name !== this.model.name });
  }

  /** Asks the endpoint once (later calls share the first); never rejects. */
  resolve(params: { signal?: AbortSignal; timeoutMs?: number } = {}): Promise<ContextLength> {
    this.resolving ??= resolveContextLength({
      model: this.model,
      clock: this.clock,
      ...(params.signal ? { signal: params.signal } : {}),
      ...(params.timeoutMs !== undefined ? { timeoutMs: params.timeoutMs } : {}),
      ...(this.fetcher ? { fetch: this.fetcher } : {}),
      onModels: (body) => (this.models = body),
    }).then((length) => {
      this.length = length;
      return length;
    });
    return this.resolving;
  }
}
