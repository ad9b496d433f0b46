import { stat } from 'node:fs/promises';
import path from 'node:path';
import type { AttachmentPayload } from 'discord.js';
import type { OutboundMessage } from '../../src/core/adapter.js';
import { voiceMessageMeta } from './voice-message.js';

/** A size people read: KB below one MB, else MB with one decimal. */
function readable(params: { bytes: number }): string {
  const { bytes } = params;
  return bytes < 1024 * 1024 ? `${Math.ceil(bytes / 1024)} KB` : `${(bytes / 1024 / 1024).toFixed(1)} MB`;
}

/** The line a reply carries instead of a file over the upload limit: what happened and what to do. */
export function oversizeNote(params: { name: string; size: number; limit: number }): string {
  return `⚠️ Could not attach ${params.name}: it is ${readable({ bytes: params.size })}, over the ${readable({ bytes: params.limit })} Discord upload limit `
    + '(platforms.discord.max_file_size). Ask for a smaller file, or raise the limit if the server allows bigger uploads.';
}

/**
 * The upload of a message that is one OGG/Opus voice note and nothing else (a spoken reply), as a Discord voice
 * message (its duration and waveform read from the file); undefined for any other message, or a file over the limit.
 */
export async function voiceMessageFiles(params: { message: OutboundMessage; maxFileSize: number }): Promise<AttachmentPayload[] | undefined> {
  const { message } = params;
  const only = message.attachments?.length === 1 ? message.attachments[0] : undefined;
  if (only === undefined || only.kind !== 'voice' || message.text.trim() !== '' || (message.choices?.length ?? 0) > 0) return undefined;
  if ((await stat(only.path)).size > params.maxFileSize) return undefined;
  const meta = await voiceMessageMeta({ path: only.path }).catch(() => undefined);
  if (meta === undefined) return undefined;
  return [{ attachment: only.path, name: path.basename(only.path), duration: meta.duration, waveform: meta.waveform }];
}
