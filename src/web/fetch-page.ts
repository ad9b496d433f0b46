import http, { type IncomingMessage } from 'node:http';
import https from 'node:https';
import { isIP } from 'node:net';
import type { Readable } from 'node:stream';
import { createBrotliDecompress, createGunzip, createInflate } from 'node:zlib';
import { BlockedAddressError, isPublicAddress, publicOnlyLookup } from './address-guard.js';

/** Redirects followed before a fetch gives up. */
const MAX_REDIRECTS = 5;

/** What a page fetch got. */
export interface FetchedPage {
  /** Where the content came from, after redirects. */
  readonly url: string;
  readonly status: number;
  /** The Content-Type header, lower case ("" when absent). */
  readonly contentType: string;
  /** The body, decompressed, at most `maxBytes`. */
  readonly body: Buffer;
  /** True when the body was cut at `maxBytes`. */
  readonly truncated: boolean;
}

/** A fetch that did not get a page (refused address, bad URL, HTTP error, too many redirects). */
export class PageFetchError extends Error {
  override readonly name = 'PageFetchError';
}

/** What a fetch needs. */
export interface FetchPageParams {
  readonly url: string;
  /** Let the fetch reach private, loopback and link-local addresses (`web.allow_private`). */
  readonly allowPrivate: boolean;
  /** Most bytes of body read (decompressed); the rest is not downloaded. */
  readonly maxBytes: number;
  /** Aborts the fetch (the turn's signal, with the fetch's timeout). */
  readonly signal: AbortSignal;
  readonly userAgent: string;
  /** Which addresses are public (default: isPublicAddress); tests let their own server on 127.0.0.1 through. */
  readonly isPublic?: (address: string) => boolean;
}

/** The URL if it is one a fetch may ask for: http(s), and a public address unless private ones are allowed. */
function checkedUrl(params: { url: string; allowPrivate: boolean; isPublic: (address: string) => boolean }): URL {
  let url: URL;
  try {
    url = new URL(params.url);
  } catch {
    throw new PageFetchError(`not a URL: ${params.url}`);
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') throw new PageFetchError(`only http and https pages are fetched, not ${url.protocol}`);
  if (url.username !== '' || url.password !== '') throw new PageFetchError('URLs with a user name or password are not fetched');
  // An address written as such is connected to without a lookup: it is checked here.
  const host = url.hostname.replace(/^\[|\]$/g, '');
  if (!params.allowPrivate && isIP(host) !== 0 && !params.isPublic(host)) throw new BlockedAddressError({ host, address: host });
  if (!params.allowPrivate && /(^|\.)localhost$/i.test(host)) throw new BlockedAddressError({ host, address: '127.0.0.1' });
  return url;
}

/** The response of one request (no redirect followed). */
function requestOnce(params: { url: URL; allowPrivate: boolean; isPublic: (address: string) => boolean; signal: AbortSignal; userAgent: string }): Promise<IncomingMessage> {
  const { url } = params;
  const client = url.protocol === 'https:' ? https : http;
  return new Promise((resolve, reject) => {
    const request = client.request(
      url,
      {
        method: 'GET',
        signal: params.signal,
        headers: { 'user-agent': params.userAgent, accept: 'text/html,application/xhtml+xml,text/plain;q=0.9,*/*;q=0.5', 'accept-encoding': 'gzip, deflate, br' },
        ...(params.allowPrivate ? {} : { lookup: publicOnlyLookup({ allowed: params.isPublic }) }),
      },
      resolve,
    );
    request.on('error', reject);
    request.end();
  });
}

/** The response's body stream, decompressed as its Content-Encoding says. */
function decoded(params: { response: IncomingMessage }): Readable {
  const { response } = params;
  const encoding = String(response.headers['content-encoding'] ?? '').trim().toLowerCase();
  if (encoding === 'gzip' || encoding === 'x-gzip') return response.pipe(createGunzip());
  if (encoding === 'deflate') return response.pipe(createInflate());
  if (encoding === 'br') return response.pipe(createBrotliDecompress());
  return response;
}

/** Reads at most `maxBytes` of the body; the download stops there. */
async function readCapped(params: { response: IncomingMessage; maxBytes: number }): Promise<{ body: Buffer; truncated: boolean }> {
  const chunks: Buffer[] = [];
  let size = 0;
  let truncated = false;
  const stream = decoded(params);
  try {
    for await (const chunk of stream) {
      const piece = Buffer.isBuffer(chunk) ? chunk : Buffer.from(String(chunk));
      const room = params.maxBytes - size;
      if (piece.length >= room) {
        chunks.push(piece.subarray(0, room));
        size += room;
        truncated = piece.length > room;
        break;
      }
      chunks.push(piece);
      size += piece.length;
    }
  } finally {
    params.response.destroy();
    stream.destroy();
  }
  return { body: Buffer.concat(chunks, size), truncated };
}

/**
 * Fetches a page the model asked for: GET with redirects followed by hand (each hop's URL and resolved address checked
 * again), the body decompressed and cut at `maxBytes`. Throws PageFetchError (or BlockedAddressError) for what is
 * refused, and the request's own error for the rest (DNS, TLS, timeout via `signal`).
 */
export async function fetchPage(params: FetchPageParams): Promise<FetchedPage> {
  const isPublic = params.isPublic ?? ((address: string) => isPublicAddress({ address }));
  const { allowPrivate } = params;
  let url = checkedUrl({ url: params.url, allowPrivate, isPublic });
  for (let hop = 0; ; hop++) {
    const response = await requestOnce({ url, allowPrivate, isPublic, signal: params.signal, userAgent: params.userAgent });
    const status = response.statusCode ?? 0;
    const location = response.headers.location;
    if (status >= 300 && status < 400 && location !== undefined) {
      response.destroy();
      if (hop >= MAX_REDIRECTS) throw new PageFetchError(`more than ${MAX_REDIRECTS} redirects from ${params.url}`);
      url = checkedUrl({ url: new URL(location, url).href, allowPrivate, isPublic });
      continue;
    }
    if (status >= 400) {
      response.destroy();
      throw new PageFetchError(`${url.href} answered HTTP ${status}${response.statusMessage ? ` ${response.statusMessage}` : ''}`);
    }
    const { body, truncated } = await readCapped({ response, maxBytes: params.maxBytes });
    return { url: url.href, status, contentType: String(response.headers['content-type'] ?? '').toLowerCase(), body, truncated };
  }
}
