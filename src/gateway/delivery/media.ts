import { extname } from 'node:path';
import type { MediaKind } from '../../core/adapter.js';
import { nextFenceState } from './fence.js';

/** A file the agent asked to attach with a `MEDIA:/abs/path` line. */
export interface MediaRef {
  readonly path: string;
  readonly kind: MediaKind;
}

/** Text with its MEDIA lines taken out, and the files they named (in order, each path once). */
export interface ExtractedMedia {
  readonly text: string;
  readonly media: MediaRef[];
}

const MEDIA_TAG = 'MEDIA:';

const KIND_BY_EXTENSION: Readonly<Record<string, MediaKind>> = {
  png: 'image', jpg: 'image', jpeg: 'image', gif: 'image', webp: 'image',
  ogg: 'voice', opus: 'voice',
  mp3: 'audio', m4a: 'audio', wav: 'audio', flac: 'audio', aac: 'audio',
  mp4: 'video', mov: 'video', webm: 'video', mkv: 'video',
};

/** How a platform should show a file, judged by its extension (anything unknown is a document). */
export function mediaKindFor(params: { path: string }): MediaKind {
  const extension = extname(params.path).slice(1).toLowerCase();
  return KIND_BY_EXTENSION[extension] ?? 'document';
}

/** The absolute path a line names when it is a MEDIA line (`MEDIA:/abs` or `MEDIA: /abs`), else undefined. */
export function mediaPathOf(params: { line: string }): string | undefined {
  const trimmed = params.line.trim();
  if (!trimmed.startsWith(MEDIA_TAG)) return undefined;
  const path = trimmed.slice(MEDIA_TAG.length).trim();
  return path.startsWith('/') ? path : undefined;
}

/** Removes MEDIA lines outside code fences from `text` and lists the files they name. */
export function extractMedia(params: { text: string }): ExtractedMedia {
  const media: MediaRef[] = [];
  const seen = new Set<string>();
  const text = filterLines({
    text: params.text,
    onMedia: (path) => {
      if (seen.has(path)) return;
      seen.add(path);
      media.push({ path, kind: mediaKindFor({ path }) });
    },
  }).kept;
  return { text, media };
}

/**
 * What may be shown of a reply still streaming: MEDIA lines removed, and a last, unfinished line held back
 * while it could still turn into a MEDIA line. Each result is a prefix of the next one as `text` grows.
 */
export function visibleStreamingText(params: { text: string }): string {
  const lastBreak = params.text.lastIndexOf('\n');
  const complete = params.text.slice(0, lastBreak + 1);
  const partial = params.text.slice(lastBreak + 1);
  const { kept, open } = filterLines({ text: complete, onMedia: () => undefined });
  if (open !== null) return kept + partial;
  const start = partial.trimStart();
  const mayBeMedia = MEDIA_TAG.startsWith(start) || start.startsWith(MEDIA_TAG);
  return mayBeMedia ? kept : kept + partial;
}

/** Drops MEDIA lines (with their line breaks) outside fences; reports the fence state at the end. */
function filterLines(params: { text: string; onMedia: (path: string) => void }): { kept: string; open: string | null } {
  let kept = '';
  let open: string | null = null;
  let start = 0;
  while (start < params.text.length) {
    const lineBreak = params.text.indexOf('\n', start);
    const end = lineBreak === -1 ? params.text.length : lineBreak + 1;
    const line = params.text.slice(start, lineBreak === -1 ? end : lineBreak);
    const path = open === null ? mediaPathOf({ line }) : undefined;
    if (path === undefined) kept += params.text.slice(start, end);
    else params.onMedia(path);
    open = nextFenceState({ line, open });
    start = end;
  }
  return { kept, open };
}
