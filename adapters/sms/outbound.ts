import { stat } from 'node:fs/promises';
import path from 'node:path';
import type { OutboundAttachment } from '../../src/core/adapter.js';
import { MMS_IMAGE_TYPES } from './media-links.js';
import { sizeText } from './size-text.js';

/** Most media one MMS may carry. */
const MAX_MMS_MEDIA = 10;

/** An attachment that can go by MMS: the file and its MIME type. */
export interface MmsPicture {
  readonly file: string;
  readonly contentType: string;
}

/** Which attachments go as MMS pictures, and a note for the text about each one that cannot. */
export interface SortedAttachments {
  readonly pictures: MmsPicture[];
  readonly notes: string[];
}

/**
 * Sorts attachments (already approved by the gateway's media policy) into MMS pictures (JPEG, PNG or GIF, at most
 * `maxBytes`, at most ten) and notes such as "(attachment report.pdf could not be sent by SMS)" for the rest.
 */
export async function sortAttachments(params: { attachments: readonly OutboundAttachment[]; maxBytes: number }): Promise<SortedAttachments> {
  const pictures: MmsPicture[] = [];
  const notes: string[] = [];
  for (const attachment of params.attachments) {
    const name = path.basename(attachment.path);
    const contentType = MMS_IMAGE_TYPES[path.extname(name).slice(1).toLowerCase()];
    const problem = await pictureProblem({ attachment, contentType, maxBytes: params.maxBytes, count: pictures.length });
    if (problem === undefined && contentType !== undefined) pictures.push({ file: attachment.path, contentType });
    else notes.push(`(attachment ${name} could not be sent by SMS: ${problem ?? 'not a picture'})`);
  }
  return { pictures, notes };
}

/** Why an attachment cannot go as an MMS picture, or undefined when it can. */
async function pictureProblem(params: { attachment: OutboundAttachment; contentType: string | undefined; maxBytes: number; count: number }): Promise<string | undefined> {
  if (params.attachment.kind !== 'image' || params.contentType === undefined) return 'only JPEG, PNG and GIF pictures go by MMS';
  if (params.count >= MAX_MMS_MEDIA) return `an MMS carries at most ${MAX_MMS_MEDIA} pictures`;
  try {
    const info = await stat(params.attachment.path);
    if (info.size > params.maxBytes) return `it is over the ${sizeText({ bytes: params.maxBytes })} MMS limit`;
  } catch {
    return 'the file cannot be read';
  }
  return undefined;
}

/**
 * The body of an SMS: the plain text, then the notes. `overflow` holds the notes that did not fit within
 * `limit` characters (they go in a message of their own).
 */
export function composeBody(params: { text: string; notes: readonly string[]; limit: number }): { body: string; overflow: string } {
  const notes = params.notes.join('\n');
  if (notes === '') return { body: params.text, overflow: '' };
  const joined = params.text === '' ? notes : `${params.text}\n\n${notes}`;
  if (joined.length <= params.limit) return { body: joined, overflow: '' };
  return { body: params.text, overflow: notes.slice(0, params.limit) };
}
