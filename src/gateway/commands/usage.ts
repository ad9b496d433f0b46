import type { GatewayConfig } from '../../config/schema.js';
import type { ModelUsage, SessionUsage, Store } from '../../store/types.js';

/** model.pricing: one price for every model, or prices by model name (USD per million tokens). */
export type ModelPricing = NonNullable<GatewayConfig['model']['pricing']>;

/** One model's prices (USD per million tokens). */
type Price = { readonly input: number; readonly output: number; readonly cached_input?: number | undefined };

/** What a /usage reply says when model.pricing is unset. */
export const noPricingNote = 'No cost estimate: set model.pricing in config.yaml (USD per million tokens), e.g. `pricing: { input: 0.15, output: 0.6, cached_input: 0.075 }`, or prices by model name.';

/** `/usage`: this session's tokens and model calls (delegate_task children included) and, with model.pricing, an estimated cost. */
export function usageReply(params: { store: Store; sessionKey: string; pricing: ModelPricing | undefined; usageLine: (params: { usage: SessionUsage }) => string }): string {
  const { store } = params;
  const session = store.activeSession({ key: params.sessionKey });
  if (session === undefined) return 'No conversation yet: nothing used.';
  const total = store.sessionUsage({ sessionId: session.id, withChildren: true });
  const lines = [`${params.usageLine({ usage: total })} (sub-agents included)`];
  if (total.calls === 0) return lines.join('\n');
  const byModel = store.sessionUsageByModel({ sessionId: session.id, withChildren: true });
  if (byModel.length > 1) lines.push(...byModel.map((u) => `• ${u.model}: ${n(u.calls)} call${u.calls === 1 ? '' : 's'}, ${n(u.promptTokens)} prompt / ${n(u.completionTokens)} completion (${n(u.cachedTokens)} cached)`));
  if (params.pricing === undefined) {
    lines.push(noPricingNote);
    return lines.join('\n');
  }
  lines.push(...costLines({ byModel, pricing: params.pricing }));
  return lines.join('\n');
}

/** The estimated-cost lines: the sum over the models with a price, and which models have none. */
function costLines(params: { byModel: readonly ModelUsage[]; pricing: ModelPricing }): string[] {
  let cost = 0;
  const unpriced: string[] = [];
  for (const usage of params.byModel) {
    const price = priceOf({ pricing: params.pricing, model: usage.model });
    if (price === undefined) unpriced.push(usage.model);
    else cost += costOf({ usage, price });
  }
  const priced = params.byModel.length - unpriced.length;
  const lines = priced > 0 ? [`Estimated cost: ${dollars(cost)} (from model.pricing${unpriced.length > 0 ? `, without ${unpriced.join(', ')}` : ''})`] : [];
  if (unpriced.length > 0) lines.push(`No price in model.pricing for ${unpriced.join(', ')}.`);
  return lines;
}

/** A model's price: the one price for all, or its entry by name. */
export function priceOf(params: { pricing: ModelPricing; model: string }): Price | undefined {
  const { pricing } = params;
  if (isPrice(pricing)) return pricing;
  return Object.hasOwn(pricing, params.model) ? pricing[params.model] : undefined;
}

/** USD for one model's usage: uncached prompt tokens at `input`, cached ones at `cached_input` (else `input`), completion at `output`. */
export function costOf(params: { usage: SessionUsage; price: Price }): number {
  const { usage, price } = params;
  const cached = Math.min(usage.cachedTokens, usage.promptTokens);
  return ((usage.promptTokens - cached) * price.input + cached * (price.cached_input ?? price.input) + usage.completionTokens * price.output) / 1_000_000;
}

function isPrice(value: ModelPricing): value is Price {
  return typeof (value as { input?: unknown }).input === 'number' && typeof (value as { output?: unknown }).output === 'number';
}

function dollars(value: number): string {
  if (value === 0) return '$0.00';
  return value < 0.01 ? `$${value.toFixed(4)}` : `$${value.toFixed(2)}`;
}

function n(value: number): string {
  return value.toLocaleString('en-US');
}
