import { z } from 'zod';
import type { AdapterStorage } from '../../src/core/adapter.js';

/** How far one folder was read: the UIDVALIDITY the UIDs belong to, the last UID handled and its INTERNALDATE. */
export const folderCursorSchema = z.object({
  uidValidity: z.string().min(1),
  lastUid: z.number().int().nonnegative(),
  /** INTERNALDATE (ms) of the last mail handled; after a UIDVALIDITY change only newer mail is read. */
  lastDate: z.number().int().nonnegative(),
});
/** How far one folder was read. */
export type FolderCursor = z.infer<typeof folderCursorSchema>;

/** What to read after opening a folder. */
export type ReadPlan =
  /** First start on this folder: mail already there is left alone; reading starts at UIDNEXT. */
  | { readonly kind: 'anchor'; readonly cursor: FolderCursor }
  /** Same UIDVALIDITY: read the UIDs after the last one handled. */
  | { readonly kind: 'resume'; readonly cursor: FolderCursor }
  /** UIDVALIDITY changed (folder recreated, server migrated): old UIDs mean nothing; read mail newer than `since`. */
  | { readonly kind: 'revalidate'; readonly since: number; readonly previous: FolderCursor };

/** Decides what to read from the stored cursor and the folder's current UIDVALIDITY and UIDNEXT. */
export function planRead(params: { stored: FolderCursor | undefined; uidValidity: string; uidNext: number; now: number }): ReadPlan {
  const { stored, uidValidity } = params;
  if (stored === undefined) return { kind: 'anchor', cursor: { uidValidity, lastUid: Math.max(0, params.uidNext - 1), lastDate: params.now } };
  if (stored.uidValidity === uidValidity) return { kind: 'resume', cursor: stored };
  return { kind: 'revalidate', since: stored.lastDate, previous: stored };
}

/** The storage key of a folder's cursor. */
function keyOf(params: { folder: string }): string {
  return `cursor:${params.folder}`;
}

/** Reads a folder's cursor (undefined when there is none or it is unreadable). */
export function loadCursor(params: { storage: AdapterStorage; folder: string }): FolderCursor | undefined {
  const raw = params.storage.get({ name: keyOf(params) });
  if (raw === undefined) return undefined;
  try {
    return folderCursorSchema.parse(JSON.parse(raw));
  } catch {
    return undefined;
  }
}

/** Stores a folder's cursor. */
export function saveCursor(params: { storage: AdapterStorage; folder: string; cursor: FolderCursor }): void {
  params.storage.set({ name: keyOf(params), value: JSON.stringify(params.cursor) });
}
