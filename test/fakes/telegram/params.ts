import { badRequest } from './errors.js';
import { multipartBoundary, parseMultipart, type MultipartPart } from './multipart.js';

/** Method parameters as Telegram receives them (JSON values, or strings from forms and query strings). */
export type Params = Record<string, unknown>;

/** A file sent in a multipart request. */
export interface UploadedPart {
  /** Name the client gave the file. */
  fileName: string;
  /** The bytes. */
  bytes: Buffer;
}

/** A parsed request: parameters plus uploaded files keyed by their form field name. */
export interface ParsedRequest {
  /** Parameters from the query string and body. */
  params: Params;
  /** Uploaded files by form field (grammy names them randomly and refers to them with attach://name). */
  uploads: Map<string, UploadedPart>;
}

/** Parameters whose values are JSON-serialized objects or arrays when sent as form fields. */
const JSON_FIELDS = new Set([
  'reply_parameters', 'reply_markup', 'entities', 'caption_entities', 'allowed_updates',
  'commands', 'scope', 'link_preview_options', 'media',
]);

/** Reads parameters the way the Bot API does: query string, then a JSON, urlencoded or multipart body. */
export function parseRequest(params: { query: URLSearchParams; contentType: string; body: Buffer }): ParsedRequest {
  const fields: Params = {};
  const uploads = new Map<string, UploadedPart>();
  for (const [key, value] of params.query) fields[key] = decodeField(key, value);
  const type = params.contentType.split(';')[0]?.trim().toLowerCase() ?? '';
  if (params.body.length === 0) return { params: fields, uploads };
  if (type === 'application/json') {
    Object.assign(fields, parseJsonBody(params.body));
  } else if (type === 'application/x-www-form-urlencoded') {
    for (const [key, value] of new URLSearchParams(params.body.toString('utf8'))) fields[key] = decodeField(key, value);
  } else if (type === 'multipart/form-data') {
    const boundary = multipartBoundary({ contentType: params.contentType });
    if (boundary === undefined) throw badRequest('multipart/form-data request without a boundary');
    let parts: MultipartPart[];
    try {
      parts = parseMultipart({ body: params.body, boundary });
    } catch (error) {
      throw badRequest(`can't parse multipart body: ${(error as Error).message}`);
    }
    for (const part of parts) {
      if (part.fileName !== undefined) uploads.set(part.name, { fileName: part.fileName, bytes: Buffer.from(part.data) });
      else fields[part.name] = decodeField(part.name, part.data.toString('utf8'));
    }
  }
  return { params: fields, uploads };
}

function parseJsonBody(body: Buffer): Params {
  let parsed: unknown;
  try {
    parsed = JSON.parse(body.toString('utf8'));
  } catch {
    throw badRequest("can't parse JSON body");
  }
  if (typeof parsed !== 'object' || parsed === null || Array.isArray(parsed)) {
    throw badRequest('the JSON body must be an object of parameters');
  }
  return parsed as Params;
}

function decodeField(key: string, value: string): unknown {
  if (!JSON_FIELDS.has(key)) return value;
  try {
    return JSON.parse(value) as unknown;
  } catch {
    throw badRequest(`can't parse ${key} JSON object`);
  }
}

/** Typed, Telegram-tolerant access to parameters (numbers may arrive as strings from forms). */
export class ParamReader {
  private readonly params: Params;

  constructor(params: Params) {
    this.params = params;
  }

  /** An integer parameter (number or numeric string), or undefined when absent. */
  int(key: string): number | undefined {
    const value = this.params[key];
    if (value === undefined || value === null || value === '') return undefined;
    const number = typeof value === 'number' ? value : typeof value === 'string' ? Number(value) : Number.NaN;
    if (!Number.isInteger(number)) throw badRequest(`wrong parameter ${key} in request`);
    return number;
  }

  /** A string parameter, or undefined when absent; numbers and booleans are converted, as Telegram does. */
  string(key: string): string | undefined {
    const value = this.params[key];
    if (value === undefined || value === null) return undefined;
    if (typeof value === 'string') return value;
    if (typeof value === 'number' || typeof value === 'boolean') return String(value);
    throw badRequest(`wrong parameter ${key} in request`);
  }

  /** A boolean parameter (true/false, "true"/"false", 1/0), false when absent. */
  flag(key: string): boolean {
    const value = this.params[key];
    return value === true || value === 'true' || value === 1 || value === '1';
  }

  /** An object parameter, or undefined when absent. */
  object(key: string): Record<string, unknown> | undefined {
    const value = this.params[key];
    if (value === undefined || value === null) return undefined;
    if (typeof value !== 'object' || Array.isArray(value)) throw badRequest(`can't parse ${key} JSON object`);
    return value as Record<string, unknown>;
  }

  /** An array parameter, or undefined when absent. */
  array(key: string): unknown[] | undefined {
    const value = this.params[key];
    if (value === undefined || value === null) return undefined;
    if (!Array.isArray(value)) throw badRequest(`can't parse ${key} JSON array`);
    return value;
  }
}

/** A reader over a parameter object. */
export function read(params: Params): ParamReader {
  return new ParamReader(params);
}
