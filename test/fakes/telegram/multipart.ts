/** One part of a multipart/form-data body. */
export interface MultipartPart {
  /** The form field name. */
  name: string;
  /** The file name when the part is a file upload. */
  fileName?: string;
  /** The part's own content type, if it sent one. */
  contentType?: string;
  /** The raw bytes of the part. */
  data: Buffer;
}

const CRLF = Buffer.from('\r\n');
const HEADER_END = Buffer.from('\r\n\r\n');

/** Extracts the boundary from a `multipart/form-data; boundary=...` content type, or undefined. */
export function multipartBoundary(params: { contentType: string }): string | undefined {
  const match = /;\s*boundary=(?:"([^"]+)"|([^;\s]+))/i.exec(params.contentType);
  return match?.[1] ?? match?.[2];
}

/**
 * Parses a multipart/form-data body (RFC 7578). Accepts the compact headers grammy writes
 * (`content-disposition:form-data;name="x";filename=y` with no spaces and unquoted file names).
 * Throws an Error naming the problem when the body is malformed.
 */
export function parseMultipart(params: { body: Buffer; boundary: string }): MultipartPart[] {
  const { body } = params;
  const delimiter = Buffer.from(`--${params.boundary}`);
  const parts: MultipartPart[] = [];
  let pos = body.indexOf(delimiter);
  if (pos < 0) throw new Error('multipart body does not contain its boundary');
  for (;;) {
    pos += delimiter.length;
    if (body.subarray(pos, pos + 2).toString('latin1') === '--') return parts;
    if (!body.subarray(pos, pos + 2).equals(CRLF)) throw new Error('multipart boundary is not followed by CRLF');
    pos += 2;
    const headerEnd = body.indexOf(HEADER_END, pos);
    if (headerEnd < 0) throw new Error('multipart part has no blank line after its headers');
    const headers = parseHeaders(body.subarray(pos, headerEnd).toString('utf8'));
    const dataStart = headerEnd + HEADER_END.length;
    const next = body.indexOf(Buffer.concat([CRLF, delimiter]), dataStart);
    if (next < 0) throw new Error('multipart body ends without a closing boundary');
    parts.push({ ...describePart(headers), data: body.subarray(dataStart, next) });
    pos = next + CRLF.length;
  }
}

function parseHeaders(text: string): Map<string, string> {
  const headers = new Map<string, string>();
  for (const line of text.split('\r\n')) {
    const colon = line.indexOf(':');
    if (colon <= 0) throw new Error(`multipart header line without a name: ${JSON.stringify(line)}`);
    headers.set(line.slice(0, colon).trim().toLowerCase(), line.slice(colon + 1).trim());
  }
  return headers;
}

function describePart(headers: Map<string, string>): Omit<MultipartPart, 'data'> {
  const disposition = headers.get('content-disposition');
  if (disposition === undefined) throw new Error('multipart part has no content-disposition header');
  const fields = dispositionFields(disposition);
  const name = fields.get('name');
  if (name === undefined) throw new Error('multipart part has no name in its content-disposition');
  const part: Omit<MultipartPart, 'data'> = { name };
  const fileName = fields.get('filename');
  if (fileName !== undefined) part.fileName = fileName;
  const contentType = headers.get('content-type');
  if (contentType !== undefined) part.contentType = contentType;
  return part;
}

/** Reads `form-data; name="a"; filename=b.txt` into {name: a, filename: b.txt}; values may be quoted or bare. */
function dispositionFields(value: string): Map<string, string> {
  const fields = new Map<string, string>();
  const pattern = /;\s*([\w*-]+)\s*=\s*(?:"((?:[^"\\]|\\.)*)"|([^;]*))/g;
  for (const match of value.matchAll(pattern)) {
    const key = (match[1] ?? '').toLowerCase();
    const quoted = match[2];
    fields.set(key, quoted !== undefined ? quoted.replace(/\\(.)/g, '$1') : (match[3] ?? '').trim());
  }
  return fields;
}
