/** Format and pixel size of an image Telegram can process as a photo. */
export interface ImageInfo {
  /** Detected container format. */
  format: 'jpeg' | 'png' | 'gif' | 'webp';
  /** Width in pixels. */
  width: number;
  /** Height in pixels. */
  height: number;
}

/** Reads the format and dimensions from an image header, or undefined when the bytes are not a JPEG/PNG/GIF/WebP image. */
export function imageInfo(params: { bytes: Buffer }): ImageInfo | undefined {
  const b = params.bytes;
  if (b.length >= 24 && b.readUInt32BE(0) === 0x89504e47 && b.toString('latin1', 12, 16) === 'IHDR') {
    return { format: 'png', width: b.readUInt32BE(16), height: b.readUInt32BE(20) };
  }
  if (b.length >= 10 && /^GIF8[79]a$/.test(b.toString('latin1', 0, 6))) {
    return { format: 'gif', width: b.readUInt16LE(6), height: b.readUInt16LE(8) };
  }
  if (b.length >= 4 && b[0] === 0xff && b[1] === 0xd8 && b[2] === 0xff) return jpegInfo(b);
  if (b.length >= 30 && b.toString('latin1', 0, 4) === 'RIFF' && b.toString('latin1', 8, 12) === 'WEBP') return webpInfo(b);
  return undefined;
}

/** Walks JPEG segments to the first start-of-frame marker, which holds the size. */
function jpegInfo(b: Buffer): ImageInfo | undefined {
  let pos = 2;
  while (pos + 9 <= b.length) {
    if (b[pos] !== 0xff) return undefined;
    const marker = b[pos + 1] ?? 0;
    if (marker === 0xff) {
      pos += 1;
      continue;
    }
    const isFrame = marker >= 0xc0 && marker <= 0xcf && marker !== 0xc4 && marker !== 0xc8 && marker !== 0xcc;
    if (isFrame) return { format: 'jpeg', height: b.readUInt16BE(pos + 5), width: b.readUInt16BE(pos + 7) };
    pos += 2 + b.readUInt16BE(pos + 2);
  }
  return undefined;
}

function webpInfo(b: Buffer): ImageInfo | undefined {
  const chunk = b.toString('latin1', 12, 16);
  if (chunk === 'VP8X') return { format: 'webp', width: 1 + b.readUIntLE(24, 3), height: 1 + b.readUIntLE(27, 3) };
  if (chunk === 'VP8 ') return { format: 'webp', width: b.readUInt16LE(26) & 0x3fff, height: b.readUInt16LE(28) & 0x3fff };
  if (chunk === 'VP8L') {
    const bits = b.readUInt32LE(21);
    return { format: 'webp', width: 1 + (bits & 0x3fff), height: 1 + ((bits >> 14) & 0x3fff) };
  }
  return undefined;
}
