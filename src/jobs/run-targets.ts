import type { ChatRef } from '../core/adapter.js';
import type { Store } from '../store/types.js';
import type { DeliveryTarget } from '../store/job-types.js';
import { targetKey } from './targets.js';

/** A job's target made concrete for one run (a `home` target looked up now), or why it cannot be delivered to. */
export type ResolvedTarget =
  | { readonly ok: true; readonly key: string; readonly platform: string; readonly chat: ChatRef }
  | { readonly ok: false; readonly key: string; readonly platform: string; readonly error: string };

/** Resolves a job's targets; a `home` target without a home channel is an error (delivery_failed, retried: a later /sethome counts). */
export function resolveTargets(params: { store: Store; targets: readonly DeliveryTarget[] }): ResolvedTarget[] {
  return params.targets.map((target) => {
    const key = targetKey({ target });
    if (target.kind === 'chat') return { ok: true, key, platform: target.platform, chat: target.chat };
    const home = params.store.homeChannel({ platform: target.platform });
    if (home === undefined) return { ok: false, key, platform: target.platform, error: `no home channel is set for ${target.platform} (send /sethome in a chat)` };
    return { ok: true, key, platform: target.platform, chat: home.chat };
  });
}
