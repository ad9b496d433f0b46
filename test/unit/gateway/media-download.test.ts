import assert from 'node:assert/strict';
import { existsSync, lstatSync, mkdtempSync, rmSync, symlinkSync } from 'node:fs';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { test } from 'node:test';
import { downloadMediaItem, isMediaItem } from '../../../adapters/kit/media-download.js';

test('a download into a cache on a full disk (target -> /dev/full: a real ENOSPC) is a failure value naming the disk, not an exception', { skip: existsSync('/dev/full') ? false : 'no /dev/full' }, async () => {
  const server = createServer((_req, res) => res.end(Buffer.alloc(64 * 1024, 1)));
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const dir = mkdtempSync(path.join(os.tmpdir(), 'hermes-cache-'));
  try {
    const target = path.join(dir, 'photo.jpg');
    symlinkSync('/dev/full', target);
    const result = await downloadMediaItem({
      url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/file`,
      target,
      kind: 'image',
      maxBytes: 1024 * 1024,
      signal: new AbortController().signal,
    });
    assert.equal(isMediaItem(result), false);
    assert.deepEqual(result, { tooLarge: false, diskFull: true, reason: 'the media cache cannot be written (disk full, ENOSPC)' });
    assert.throws(() => lstatSync(target), /ENOENT/, 'the partial file (here the link) is removed');
    assert.ok(existsSync('/dev/full'), 'only the link went');
  } finally {
    await new Promise((resolve) => server.close(resolve));
    rmSync(dir, { recursive: true, force: true });
  }
});
