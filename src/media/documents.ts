import { open, readFile } from 'node:fs/promises';
import path from 'node:path';

/** A document's text as a turn gets it. */
export interface DocumentText {
  readonly kind: 'pdf' | 'text';
  /** A PDF's page count, and how many of its pages the text covers. */
  readonly pages?: number;
  readonly pagesRead?: number;
  readonly text: string;
  /** True when the text stops at the character cap. */
  readonly truncated: boolean;
}

/** MIME types read as text. */
const TEXT_TYPES = /^(text\/|application\/(json|xml|yaml|x-yaml|toml|x-sh|javascript|x-python|sql|csv)\b|application\/[a-z.+-]+\+(json|xml)\b)/;

/** File names read as text whatever their MIME type says (chat apps often send application/octet-stream). */
const TEXT_EXTENSIONS = new Set(['.txt', '.md', '.markdown', '.csv', '.tsv', '.json', '.jsonl', '.yaml', '.yml', '.toml', '.xml', '.html', '.htm', '.log', '.ini', '.cfg', '.conf', '.py', '.js', '.ts', '.sh', '.sql', '.rs', '.go', '.java', '.c', '.h', '.cpp', '.rb', '.php', '.css']);

/** What kind of document a file is, by its MIME type and name; undefined: not one read here (images, audio, archives). */
export function documentKind(params: { mimeType?: string | undefined; fileName?: string | undefined; path: string }): 'pdf' | 'text' | undefined {
  const mime = (params.mimeType ?? '').toLowerCase();
  const ext = path.extname(params.fileName ?? params.path).toLowerCase();
  if (mime === 'application/pdf' || ext === '.pdf') return 'pdf';
  if (TEXT_TYPES.test(mime) || TEXT_EXTENSIONS.has(ext)) return 'text';
  return undefined;
}

/** A text file's start: at most `maxChars` characters (UTF-8), or undefined when it holds NUL bytes (binary after all). */
async function textFile(params: { path: string; maxChars: number }): Promise<DocumentText | undefined> {
  const handle = await open(params.path, 'r');
  try {
    // Up to four bytes a character, and one more to tell whether there was more.
    const buffer = Buffer.alloc(params.maxChars * 4 + 1);
    const { bytesRead } = await handle.read(buffer, 0, buffer.length, 0);
    const bytes = buffer.subarray(0, bytesRead);
    if (bytes.includes(0)) return undefined;
    const text = new TextDecoder('utf-8').decode(bytes);
    const truncated = text.length > params.maxChars || bytesRead === buffer.length;
    return { kind: 'text', text: truncated ? text.slice(0, params.maxChars) : text, truncated };
  } finally {
    await handle.close();
  }
}

/** The parts of pdf.js's text items read here. */
interface TextItem {
  readonly str?: string;
  readonly hasEOL?: boolean;
}

/** A PDF's text, page by page, until `maxChars`: pdf.js (Mozilla's), loaded with the first PDF. */
async function pdfFile(params: { path: string; maxChars: number }): Promise<DocumentText> {
  const { getDocument } = await import('pdfjs-dist/legacy/build/pdf.mjs');
  const data = new Uint8Array(await readFile(params.path));
  const document = await getDocument({ data, isEvalSupported: false, disableFontFace: true, useSystemFonts: false, verbosity: 0 }).promise;
  try {
    const pages: string[] = [];
    let chars = 0;
    for (let number = 1; number <= document.numPages && chars < params.maxChars; number++) {
      const page = await document.getPage(number);
      const content = await page.getTextContent();
      const text = (content.items as TextItem[])
        .map((item) => `${item.str ?? ''}${item.hasEOL === true ? '\n' : ' '}`)
        .join('')
        .replace(/[ \t]+\n/g, '\n')
        .trim();
      page.cleanup();
      pages.push(text);
      chars += text.length + 2;
    }
    const joined = pages.join('\n\n');
    const truncated = joined.length > params.maxChars || pages.length < document.numPages;
    return { kind: 'pdf', pages: document.numPages, pagesRead: pages.length, text: joined.slice(0, params.maxChars), truncated };
  } finally {
    await document.destroy();
  }
}

/**
 * The text of a document someone sent: a PDF's (with its page count) or a text file's, at most `maxChars`; undefined
 * for a file that is neither (or a "text" file that turns out binary). Throws for a file that cannot be read or parsed.
 */
export async function documentText(params: { path: string; mimeType?: string | undefined; fileName?: string | undefined; maxChars: number }): Promise<DocumentText | undefined> {
  const kind = documentKind(params);
  if (kind === 'pdf') return pdfFile(params);
  if (kind === 'text') return textFile(params);
  return undefined;
}
