/**
 * A reply as it should be read aloud: code blocks and MEDIA lines left out (they are in the text reply), links read
 * by their label, bare URLs as "a link", markdown marks (emphasis, headings, bullets, table rules) dropped.
 */
export function speakableText(params: { text: string }): string {
  const lines: string[] = [];
  let inFence = false;
  let skippedCode = false;
  for (const raw of params.text.split('\n')) {
    const line = raw.trim();
    if (/^(```|~~~)/.test(line)) {
      inFence = !inFence;
      if (inFence && !skippedCode) lines.push('(The code is in the text.)');
      skippedCode = true;
      continue;
    }
    if (inFence || line.startsWith('MEDIA:') || /^\|?\s*:?-{3,}/.test(line)) continue;
    lines.push(
      line
        .replace(/!\[([^\]]*)\]\([^)]*\)/g, '$1')
        .replace(/\[([^\]]+)\]\([^)]*\)/g, '$1')
        .replace(/<?https?:\/\/[^\s>)]*[^\s>).,;:!?'"]>?/g, 'a link')
        .replace(/`([^`]*)`/g, '$1')
        .replace(/^#{1,6}\s+/, '')
        .replace(/^>\s?/, '')
        .replace(/^[-*+•]\s+/, '')
        .replace(/(\*\*|__|\*|~~|(?<![A-Za-z0-9])_(?![A-Za-z0-9]))/g, '')
        .replace(/\s*\|\s*/g, ', ')
        .replace(/^, |, $/g, ''),
    );
  }
  return lines.join('\n').replace(/\n{3,}/g, '\n\n').trim();
}

/**
 * `text` in parts of at most `maxChars` characters, each ending at a sentence (or, for a longer sentence, a word) so a
 * voice note never stops mid-word; at most `maxParts` (the rest is only in the text reply, `cut` says so).
 */
export function speechChunks(params: { text: string; maxChars: number; maxParts: number }): { parts: string[]; cut: boolean } {
  const { maxChars } = params;
  // Each sentence with the space after it (a line break stays one), so joined parts read as written.
  const sentences = params.text.match(/[^.!?\n]*(?:[.!?]+["')\]]*\s*|\n+|$)/g) ?? [];
  const parts: string[] = [];
  let current = '';
  const flush = (): void => {
    if (current.trim() !== '') parts.push(current.trim());
    current = '';
  };
  for (const sentence of sentences) {
    if ((current + sentence).length <= maxChars) {
      current += sentence;
      continue;
    }
    flush();
    // A sentence longer than a part goes by words.
    for (const word of sentence.split(/(?<=\s)/)) {
      if ((current + word).length > maxChars) flush();
      current += word.length > maxChars ? word.slice(0, maxChars) : word;
    }
  }
  flush();
  return { parts: parts.slice(0, params.maxParts), cut: parts.length > params.maxParts };
}
