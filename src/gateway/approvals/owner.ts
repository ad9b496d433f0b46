import { authorize } from '../../core/authorize.js';
import type { Sender } from '../../core/adapter.js';
import type { AdapterEntry } from '../../core/platform.js';

/**
 * Whether `sender` may answer approval requests on the entry's platform: a person on its allowlist in config
 * (allowed_users; never a paired sender, never 'all'), or anyone at a local terminal (`localOwner`).
 */
export function isApprovalOwner(params: { entry: AdapterEntry | undefined; sender: Sender }): boolean {
  const { entry, sender } = params;
  if (entry === undefined || sender.isBot) return false;
  if (entry.localOwner === true) return true;
  if (entry.allow === 'all') return false;
  return authorize({ sender, allow: entry.allow }).allowed;
}

/** Whether anyone at all can answer approval requests on the entry's platform (it names owners, or is a local terminal). */
export function hasApprovalOwner(params: { entry: AdapterEntry | undefined }): boolean {
  const { entry } = params;
  if (entry === undefined) return false;
  return entry.localOwner === true || (entry.allow !== 'all' && entry.allow.length > 0);
}

/** The presser's or sender's name as the question's decision line shows it. */
export function ownerName(params: { sender: Sender }): string {
  const { sender } = params;
  return sender.name ?? (sender.username !== undefined ? `@${sender.username}` : sender.id);
}
