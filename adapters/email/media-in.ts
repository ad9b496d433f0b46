import { createHash } from 'node:crypto';
import path from 'node:path';
import type { Attachment } from 'mailparser';
import type { MediaItem } from '../../src/core/adapter.js';
import { mediaKindOf } from '../kit/media-kind-of.js';
import { openCacheFile, safeFileName } from '../../src/util/download.js';

/** What saving a mail's attachments gave: files for the agent, and notes about the ones left out. */
export interface SavedAttachments {
  readonly media: MediaItem[];
  readonly notes: string[];
}

/** A readable size ("2.5 MB"). */
function sizeText(params: { bytes: number }): string {
  const { bytes } = params;
  if (bytes >= 1024 * 1024) return `${(bytes / (1024 * 1024)).toFixed(1)} MB`;
  if (bytes >= 1024) return `${Math.round(bytes / 1024)} KB`;
  return `${bytes} bytes`;
}

/**
 * Saves a mail's attachments under `dir/<mail hash>/` with safe, unique file names, each at most `maxBytes`.
 * Inline parts of the HTML (logos, signature images) are not attachments the person meant and are skipped.
 */
export async function saveAttachments(params: { attachments: readonly Attachment[]; dir: string; messageId: string; maxBytes: number }): Promise<SavedAttachments> {
  const media: MediaItem[] = [];
  const notes: string[] = [];
  const folder = path.join(params.dir, createHash('sha256').update(params.messageId).digest('hex').slice(0, 16));
  const used = new Set<string>();
  for (const [index, attachment] of params.attachments.entries()) {
    if (attachment.related) continue;
    const original = attachment.filename ?? `attachment-${index + 1}`;
    if (attachment.size > params.maxBytes) {
      notes.push(`[Attachment "${original}" (${sizeText({ bytes: attachment.size })}) was not saved: larger than the ${sizeText({ bytes: params.maxBytes })} limit (platforms.email.max_attachment_size).]`);
      continue;
    }
    let name = safeFileName(original);
    for (let n = 2; used.has(name); n++) name = safeFileName(`${n}-${original}`);
    used.add(name);
    const target = path.join(folder, name);
    const file = await openCacheFile({ target });
    try {
      await file.writeFile(attachment.content);
    } finally {
      await file.close();
    }
    media.push({
      path: target,
      kind: mediaKindOf({ name, mimeType: attachment.contentType }),
      mimeType: attachment.contentType,
      fileName: original,
      sizeBytes: attachment.content.length,
    });
  }
  return { media, notes };
}
