import { gzipSync } from 'node:zlib';
import { Header } from 'tar';

/** One entry of a hand-built archive: any path and type, including the ones tar.c would never write. */
export interface RawEntry {
  readonly path: string;
  readonly type?: 'File' | 'Directory' | 'SymbolicLink' | 'Link' | 'CharacterDevice' | 'FIFO';
  readonly body?: Buffer | string;
  readonly linkpath?: string;
}

/**
 * A gzipped tar of exactly these entries, built with tar's Header (no path sanitising), so tests can hand the
 * installer `..` entries, absolute paths, symlinks, hard links, device files and oversize files.
 */
export function rawTarGz(params: { entries: readonly RawEntry[] }): Buffer {
  const blocks: Buffer[] = [];
  for (const entry of params.entries) {
    const type = entry.type ?? 'File';
    const body = Buffer.from(entry.body ?? '');
    const header = new Header({
      path: entry.path,
      type,
      size: type === 'File' ? body.length : 0,
      mode: type === 'Directory' ? 0o755 : 0o644,
      mtime: new Date(0),
      uid: 0,
      gid: 0,
      ...(entry.linkpath !== undefined ? { linkpath: entry.linkpath } : {}),
    });
    const block = Buffer.alloc(512);
    header.encode(block, 0);
    blocks.push(block);
    if (type === 'File' && body.length > 0) {
      blocks.push(body, Buffer.alloc((512 - (body.length % 512)) % 512));
    }
  }
  blocks.push(Buffer.alloc(1024));
  return gzipSync(Buffer.concat(blocks));
}
