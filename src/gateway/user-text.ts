import type { MessageEvent } from './contracts.js';

/** The text the agent sees for one inbound message: the words, then the files that came with it. */
export function userTextFor(params: { event: MessageEvent }): string {
  const { event } = params;
  const lines: string[] = [];
  if (event.text.trim() !== '') lines.push(event.text);
  for (const item of event.media) {
    const details = [item.kind, item.mimeType, item.sizeBytes !== undefined ? `${item.sizeBytes} bytes` : undefined]
      .filter((x): x is string => x !== undefined)
      .join(', ');
    lines.push(`[Attached file: ${item.path} (${details})${item.fileName ? ` named "${item.fileName}"` : ''}]`);
  }
  if (event.replyToId !== undefined && lines.length === 0) lines.push('(empty message)');
  return lines.join('\n');
}

/** A short session title from the first message. */
export function titleFor(params: { text: string }): string | null {
  const line = params.text.trim().split('\n')[0]?.trim() ?? '';
  if (line === '') return null;
  return line.length > 60 ? `${line.slice(0, 57)}...` : line;
}
