import type { Store } from '../../store/types.js';
import type { ModelList, ModelListing } from './model-list.js';

/** Most model names a /model reply lists (the rest are counted). */
const MAX_LISTED = 40;
/** Longest model name /model takes. */
const MAX_NAME = 200;

/** What /model reads: the session's store rows, the route's models and the endpoint's list. */
export interface ModelCommandDeps {
  readonly store: Store;
  readonly sessionKey: string;
  /** The route's models: the configured one first, then its fallbacks. */
  readonly routeModels: readonly string[];
  /** The endpoint's GET /models (cached); absent: only the route's models are known. */
  readonly modelList?: ModelList | undefined;
  /** Aborted when the gateway stops. */
  readonly signal?: AbortSignal | undefined;
}

/** `/model`: the session's model and what it can switch to; `/model NAME`: the session's next requests use NAME; `/model default`: back to the configured one. */
export async function modelCommand(params: { args: string; deps: ModelCommandDeps }): Promise<string> {
  const { deps } = params;
  const configured = deps.routeModels[0] ?? 'the configured model';
  const name = params.args.trim();
  const session = deps.store.activeSession({ key: deps.sessionKey });
  const current = session === undefined ? null : deps.store.sessionModel({ sessionId: session.id });
  const listing: ModelListing = deps.modelList === undefined ? { kind: 'unavailable', why: 'no model list' } : await deps.modelList.list({ ...(deps.signal ? { signal: deps.signal } : {}) });
  const known = [...new Set([...deps.routeModels, ...(listing.kind === 'listed' ? listing.names : [])])];
  if (name === '') return bareReply({ configured, current, routeModels: deps.routeModels, listing });
  if (name.toLowerCase() === 'default') {
    if (session !== undefined) deps.store.setSessionModel({ sessionId: session.id, model: null });
    return `This conversation uses the configured model ${configured} again (from the next message on).`;
  }
  if (name.length > MAX_NAME || /\s/.test(name)) return `"${name.length > 40 ? `${name.slice(0, 40)}…` : name}" is not a model name (one word, at most ${MAX_NAME} characters).`;
  if (listing.kind === 'listed' && !known.includes(name)) {
    return [`Unknown model ${name}: the endpoint does not list it. Models you can switch to:`, ...namesList({ names: known }), 'Switch with /model <name>.'].join('\n');
  }
  const target = session ?? deps.store.createSession({ key: deps.sessionKey });
  deps.store.setSessionModel({ sessionId: target.id, model: name === configured ? null : name });
  const unchecked = listing.kind === 'listed' || deps.routeModels.includes(name) ? '' : ` (not checked: the endpoint's model list is not available, ${listing.why})`;
  const back = name === configured ? '' : ` /model default or /new go back to ${configured}.`;
  return `This conversation now uses ${name}${unchecked}, from the next message on; the keys and endpoint stay those of the configured model.${back}`;
}

function bareReply(params: { configured: string; current: string | null; routeModels: readonly string[]; listing: ModelListing }): string {
  const { configured, current, routeModels, listing } = params;
  const fallbacks = routeModels.slice(1);
  const listed = listing.kind === 'listed' ? listing.names : [];
  const lines = [
    current === null ? `Model of this conversation: ${configured} (the configured model)` : `Model of this conversation: ${current} (chosen with /model; configured: ${configured})`,
    ...(fallbacks.length > 0 ? [`Fallbacks when it fails: ${fallbacks.join(', ')}`] : []),
    'Models you can switch to:',
    ...namesList({ names: [...new Set([...routeModels, ...listed])] }),
  ];
  if (listing.kind === 'unavailable') lines.push(`(The endpoint's model list is not available: ${listing.why}; you can still name any model.)`);
  lines.push('Switch with /model <name>; /model default goes back to the configured model.');
  return lines.join('\n');
}

function namesList(params: { names: readonly string[] }): string[] {
  const shown = params.names.slice(0, MAX_LISTED).map((n) => `• ${n}`);
  const more = params.names.length - shown.length;
  return more > 0 ? [...shown, `… and ${more} more`] : shown;
}
