import { randomBytes } from 'node:crypto';
import path from 'node:path';

/** The kinds of file the fake stores, each with its own folder in file_path like Telegram's. */
export type FileKind = 'photo' | 'document' | 'voice' | 'audio';

/** A file the fake knows: registered by a test with addFile or uploaded by the bot. */
export interface StoredFile {
  /** Identifier for getFile and for re-sending. */
  file_id: string;
  /** Stable unique identifier. */
  file_unique_id: string;
  /** Path for the download route, e.g. photos/file_3.jpg. */
  file_path: string;
  /** The content. */
  bytes: Buffer;
  /** Original file name, when known. */
  fileName?: string;
  /** MIME type, when known. */
  mimeType?: string;
  /** Pixel size for photos. */
  width?: number;
  /** Pixel size for photos. */
  height?: number;
  /** Seconds, for voice and audio. */
  duration?: number;
  /** What kind of message it came with. */
  kind: FileKind;
}

const FOLDERS: Record<FileKind, string> = { photo: 'photos', document: 'documents', voice: 'voice', audio: 'music' };
const DEFAULT_EXT: Record<FileKind, string> = { photo: '.jpg', document: '', voice: '.oga', audio: '.mp3' };
const MIME: Record<string, string> = {
  '.jpg': 'image/jpeg', '.jpeg': 'image/jpeg', '.png': 'image/png', '.gif': 'image/gif', '.webp': 'image/webp',
  '.pdf': 'application/pdf', '.txt': 'text/plain', '.md': 'text/markdown', '.csv': 'text/csv',
  '.json': 'application/json', '.zip': 'application/zip', '.ogg': 'audio/ogg', '.oga': 'audio/ogg',
  '.opus': 'audio/ogg', '.mp3': 'audio/mpeg', '.m4a': 'audio/mp4', '.wav': 'audio/x-wav', '.mp4': 'video/mp4',
};

/** Guesses a MIME type from a file name's extension, like Telegram does for uploads. */
export function mimeFor(params: { fileName: string }): string | undefined {
  return MIME[path.extname(params.fileName).toLowerCase()];
}

/** All files by file_id and by file_path. */
export class FileStore {
  private readonly byId = new Map<string, StoredFile>();
  private readonly byPath = new Map<string, StoredFile>();
  private seq = 0;

  /** Stores bytes as a new file and returns its record. */
  add(params: Omit<StoredFile, 'file_id' | 'file_unique_id' | 'file_path'>): StoredFile {
    this.seq += 1;
    const ext = params.fileName !== undefined ? path.extname(params.fileName) : DEFAULT_EXT[params.kind];
    const file: StoredFile = {
      ...params,
      file_id: `${params.kind.slice(0, 2).toUpperCase()}ACAg${randomBytes(24).toString('base64url')}`,
      file_unique_id: `AQAD${randomBytes(9).toString('base64url')}`,
      file_path: `${FOLDERS[params.kind]}/file_${this.seq}${ext}`,
    };
    if (file.mimeType === undefined && file.fileName !== undefined) {
      const mime = mimeFor({ fileName: file.fileName });
      if (mime !== undefined) file.mimeType = mime;
    }
    this.byId.set(file.file_id, file);
    this.byPath.set(file.file_path, file);
    return file;
  }

  /** The file with this file_id, if any. */
  get(fileId: string): StoredFile | undefined {
    return this.byId.get(fileId);
  }

  /** The file served at this file_path, if any. */
  atPath(filePath: string): StoredFile | undefined {
    return this.byPath.get(filePath);
  }
}
