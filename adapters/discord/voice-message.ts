import { readFile } from 'node:fs/promises';

/** What Discord needs to show an audio attachment as a voice message: its length, and a waveform preview. */
export interface VoiceMessageMeta {
  /** Seconds. */
  readonly duration: number;
  /** Base64 of up to 256 bytes, one per point, 0–255 (Discord's preview). */
  readonly waveform: string;
}

/** Opus granule positions count 48 kHz samples, whatever the input rate. */
const OPUS_RATE = 48_000;
/** Discord draws at most this many points. */
const MAX_POINTS = 256;

interface OggPage {
  readonly granule: number;
  readonly payload: Buffer;
  /** The sizes of the packets that end on this page (a lacing value under 255 ends one). */
  readonly packets: readonly number[];
}

/** The pages of an OGG file, or undefined when it is not one. */
function oggPages(params: { bytes: Buffer }): OggPage[] | undefined {
  const { bytes } = params;
  const pages: OggPage[] = [];
  let at = 0;
  while (at + 27 <= bytes.length) {
    if (bytes.toString('latin1', at, at + 4) !== 'OggS') return undefined;
    const segments = bytes[at + 26] ?? 0;
    const header = 27 + segments;
    let size = 0;
    const packets: number[] = [];
    let packet = 0;
    for (let i = 0; i < segments; i++) {
      const lacing = bytes[at + 27 + i] ?? 0;
      size += lacing;
      packet += lacing;
      if (lacing < 255) {
        packets.push(packet);
        packet = 0;
      }
    }
    pages.push({ granule: Number(bytes.readBigInt64LE(at + 6)), payload: bytes.subarray(at + header, at + header + size), packets });
    at += header + size;
  }
  return pages.length > 0 ? pages : undefined;
}

/**
 * The duration and a waveform of an OGG/Opus file (a spoken reply), read from its pages: the last granule position
 * less the pre-skip is the length; each packet's bytes per sample stand for its loudness (Opus spends more bytes on
 * speech than on silence), averaged to at most 256 points (10 a second) and scaled to 0–255. Undefined when the file is not OGG/Opus.
 */
export async function voiceMessageMeta(params: { path: string }): Promise<VoiceMessageMeta | undefined> {
  const pages = oggPages({ bytes: await readFile(params.path) });
  const head = pages?.[0]?.payload;
  if (pages === undefined || head === undefined || head.toString('latin1', 0, 8) !== 'OpusHead') return undefined;
  const preSkip = head.readUInt16LE(10);
  const end = Math.max(...pages.map((page) => page.granule));
  const duration = Math.max(0, end - preSkip) / OPUS_RATE;
  // Each audio packet's bytes per sample (the first two pages hold the headers); a page's samples are shared evenly by
  // its packets (Opus frames of one length).
  const density: number[] = [];
  let previous = 0;
  for (const page of pages.slice(2)) {
    const samples = page.granule - previous;
    previous = page.granule;
    if (samples <= 0 || page.packets.length === 0) continue;
    for (const size of page.packets) density.push(size / (samples / page.packets.length));
  }
  // Discord's own clients sample at most every 100 ms.
  const points = Math.min(MAX_POINTS, density.length, Math.max(1, Math.ceil(duration * 10)));
  const averages: number[] = [];
  for (let i = 0; i < points; i++) {
    const from = Math.floor((i * density.length) / points);
    const to = Math.max(from + 1, Math.floor(((i + 1) * density.length) / points));
    const slice = density.slice(from, to);
    averages.push(slice.reduce((sum, value) => sum + value, 0) / slice.length);
  }
  const peak = Math.max(...averages, Number.EPSILON);
  const waveform = Buffer.from(averages.map((value) => Math.round((255 * value) / peak)));
  return { duration: Math.round(duration * 100) / 100, waveform: waveform.toString('base64') };
}
