import { multipartBoundary, parseMultipart } from '../telegram/multipart.js';
import type { Params } from './types.js';

/** Cap on a request body: Slack's 1 GB file limit is far beyond tests; 64 MB keeps a runaway test bounded. */
export const MAX_BODY_BYTES = 64 * 1024 * 1024;


/** Web API parameters from the query string plus a urlencoded, JSON or multipart body; undefined when unparsable. */
export function parseParams(params: { query: URLSearchParams; contentType: string; body: Buffer }): Params | undefined {
  const fields: Params = Object.fromEntries(params.query);
  const type = params.contentType.split(';')[0]?.trim().toLowerCase() ?? '';
  if (params.body.length === 0) return fields;
  if (type === 'application/json') {
    try {
      const parsed: unknown = JSON.parse(params.body.toString('utf8'));
      if (typeof parsed !== 'object' || parsed === null || Array.isArray(parsed)) return undefined;
      return { ...fields, ...(parsed as Params) };
    } catch {
      return undefined;
    }
  }
  if (type === 'application/x-www-form-urlencoded') {
    return { ...fields, ...Object.fromEntries(new URLSearchParams(params.body.toString('utf8'))) };
  }
  if (type === 'multipart/form-data') {
    const boundary = multipartBoundary({ contentType: params.contentType });
    if (boundary === undefined) return undefined;
    try {
      for (const part of parseMultipart({ body: params.body, boundary })) {
        if (part.fileName === undefined) fields[part.name] = part.data.toString('utf8');
      }
      return fields;
    } catch {
      return undefined;
    }
  }
  return fields;
}

/** The bytes of an upload: the first file part of a multipart body, else the raw body. */
export function uploadBytes(params: { contentType: string; body: Buffer }): Buffer | undefined {
  const boundary = multipartBoundary({ contentType: params.contentType });
  if (!params.contentType.toLowerCase().startsWith('multipart/form-data') || boundary === undefined) return params.body;
  try {
    const parts = parseMultipart({ body: params.body, boundary });
    const file = parts.find((p) => p.fileName !== undefined) ?? parts.find((p) => p.name === 'file' || p.name === 'body');
    return file ? Buffer.from(file.data) : undefined;
  } catch {
    return undefined;
  }
}

/** The bearer token of an Authorization header, if any. */
export function bearer(header: string | undefined): string | undefined {
  const match = /^Bearer\s+(\S+)$/i.exec(header ?? '');
  return match?.[1];
}
