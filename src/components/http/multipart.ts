// multipart/mixed bodies (RFC 2046) for sending a batch in one HTTP request, and reading one.
import { nodeCrypto } from '../../base/lazy_builtins.js';

export interface MultipartPart {
  headers: Record<string, string>;
  body: Uint8Array;
}

export function encodeMultipart(
  parts: readonly MultipartPart[],
  subtype = 'mixed',
): { body: Buffer; contentType: string } {
  const boundary = nodeCrypto().randomBytes(16).toString('hex');
  const chunks: Buffer[] = [];
  for (const part of parts) {
    let head = `--${boundary}\r\n`;
    for (const [k, v] of Object.entries(part.headers)) head += `${k}: ${v}\r\n`;
    chunks.push(
      Buffer.from(`${head}\r\n`),
      Buffer.from(part.body.buffer, part.body.byteOffset, part.body.byteLength),
    );
    chunks.push(Buffer.from('\r\n'));
  }
  chunks.push(Buffer.from(`--${boundary}--\r\n`));
  return { body: Buffer.concat(chunks), contentType: `multipart/${subtype}; boundary=${boundary}` };
}

/** The part bodies of a multipart payload (part headers are skipped). */
export function decodeMultipart(body: Buffer, boundary: string): Buffer[] {
  const delimiter = Buffer.from(`--${boundary}`);
  const parts: Buffer[] = [];
  let pos = body.indexOf(delimiter);
  while (pos !== -1) {
    let start = pos + delimiter.length;
    if (body[start] === 0x2d && body[start + 1] === 0x2d) break; // closing delimiter
    const headersEnd = body.indexOf('\r\n\r\n', start);
    if (headersEnd === -1) break;
    start = headersEnd + 4;
    const next = body.indexOf(Buffer.from(`\r\n--${boundary}`), start);
    if (next === -1) break;
    parts.push(body.subarray(start, next));
    pos = next + 2;
  }
  return parts;
}
