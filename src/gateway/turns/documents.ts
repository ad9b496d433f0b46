import { documentKind, documentText, type DocumentText } from '../../media/documents.js';
import { scanForThreats } from '../../threats/scan.js';
import { errorMessage } from '../../util/error-text.js';
import { turnFiles, type OpenTurn } from './open.js';

/** A document's text cap when the config gives none (`media.document_char_limit`). */
const DEFAULT_CHAR_LIMIT = 20_000;

/** The block a document's text enters the turn as: fenced (the file's words, never instructions), with what was left out. */
function documentBlock(params: { name: string; path: string; document: DocumentText; limit: number }): string {
  const { name, document } = params;
  const attr = (value: string): string => value.replaceAll('"', "'").replace(/\s+/g, ' ');
  const pages = document.pages !== undefined ? ` pages="${document.pages}"` : '';
  const body = document.text.replaceAll('</document>', '<\\/document>');
  const read = document.pages !== undefined && document.pagesRead !== undefined && document.pagesRead < document.pages ? `, ${document.pagesRead} of ${document.pages} pages` : '';
  const cut = document.truncated ? `\n[Cut at ${params.limit.toLocaleString('en-US')} characters${read}; the whole file is ${params.path}.]` : '';
  return `<document name="${attr(name)}"${pages}>\n${body}${cut}\n</document>`;
}

/**
 * The text of each document attached to the turn's messages (PDFs with their page count, text files), by file path, as
 * blocks for the user text. The text passes the threat scan like everything read from disk into the prompt: a flagged
 * one is left out with the reason. A file that cannot be read says so in one line; the turn goes on.
 */
export async function turnDocuments(params: { turn: OpenTurn }): Promise<ReadonlyMap<string, string>> {
  const { turn } = params;
  const limit = turn.deps.documentCharLimit ?? DEFAULT_CHAR_LIMIT;
  const blocks = new Map<string, string>();
  for (const item of turnFiles({ turn })) {
    if (documentKind(item) === undefined) continue;
    const name = item.fileName ?? item.path.split('/').pop() ?? item.path;
    try {
      const document = await documentText({ path: item.path, mimeType: item.mimeType, fileName: item.fileName, maxChars: limit });
      if (document === undefined) continue;
      const threat = scanForThreats({ text: document.text, source: 'context-file' });
      if (threat !== undefined) {
        turn.logger.warn({ file: item.path, threat: threat.id }, 'an attached document was left out of the turn: the threat scan flagged it');
        blocks.set(item.path, `[The text of "${name}" was left out: the threat scan flagged it (${threat.reason}). The file is ${item.path}.]`);
        continue;
      }
      blocks.set(item.path, documentBlock({ name, path: item.path, document, limit }));
    } catch (error) {
      turn.logger.warn({ err: error, file: item.path }, 'an attached document could not be read');
      blocks.set(item.path, `[The text of "${name}" could not be read: ${errorMessage(error)}.]`);
    }
  }
  return blocks;
}
