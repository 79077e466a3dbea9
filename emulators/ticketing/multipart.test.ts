// The streaming multipart reader (any chunking, bytes that look like a delimiter, malformed bodies)
// and the media sniffing of uploads.
import { randomBytes } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { MultipartError, multipartBoundary, readMultipart } from './multipart.ts';
import { cleanFileName, sniffMediaType } from './uploads.ts';

const BOUNDARY = 'XyZ123';

function body(parts: { headers: string; data: Buffer }[], { preamble = '', epilogue = '' } = {}): Buffer {
  return Buffer.concat([
    Buffer.from(preamble),
    ...parts.flatMap((p) => [Buffer.from(`--${BOUNDARY}\r\n${p.headers}\r\n\r\n`), p.data, Buffer.from('\r\n')]),
    Buffer.from(`--${BOUNDARY}--\r\n${epilogue}`),
  ]);
}

async function* chunked(bytes: Buffer, sizes: () => number): AsyncGenerator<Uint8Array> {
  for (let i = 0; i < bytes.length;) {
    const n = Math.max(1, sizes());
    yield bytes.subarray(i, i + n);
    i += n;
  }
}

async function readAll(source: AsyncIterable<Uint8Array>) {
  const out: { name: string; filename?: string; contentType: string; data: Buffer }[] = [];
  for await (const { headers, body: b } of readMultipart(source, BOUNDARY)) {
    const chunks: Buffer[] = [];
    for await (const c of b) chunks.push(Buffer.from(c));
    out.push({ ...headers, data: Buffer.concat(chunks) });
  }
  return out;
}

describe('readMultipart', () => {
  // A file whose bytes contain near-delimiters: CRLF, "--", the boundary without its CRLF, a CRLF-- prefix cut short.
  const tricky = Buffer.concat([randomBytes(5000), Buffer.from(`\r\n--XyZ12\r\n-${BOUNDARY}--\r\n\r\n--XyZ`), randomBytes(70_000), Buffer.from('\r\n--')]);
  const input = body([
    { headers: 'Content-Disposition: form-data; name="operations"', data: Buffer.from('{"query":"q"}') },
    { headers: 'Content-Disposition: form-data; name="map"', data: Buffer.from('{"0":["variables.file"]}') },
    { headers: 'Content-Disposition: form-data; name="0"; filename="Schäden \\"a\\".png"\r\nContent-Type: image/png', data: tricky },
    { headers: 'content-disposition: form-data; name="1"; filename="x.bin"; filename*=UTF-8\'\'%C3%A9t%C3%A9.jpg', data: Buffer.alloc(0) },
  ], { preamble: 'ignored preamble\r\n', epilogue: 'ignored epilogue' });
  const expected = [
    { name: 'operations', filename: undefined, contentType: '', data: Buffer.from('{"query":"q"}') },
    { name: 'map', filename: undefined, contentType: '', data: Buffer.from('{"0":["variables.file"]}') },
    { name: '0', filename: 'Schäden "a".png', contentType: 'image/png', data: tricky },
    { name: '1', filename: 'été.jpg', contentType: '', data: Buffer.alloc(0) },
  ];

  it.each([
    ['one chunk', () => input.length],
    ['1-byte chunks', () => 1],
    ['7-byte chunks', () => 7],
    ['random chunks', () => Math.floor(Math.random() * 4000)],
    ['64 KiB chunks', () => 65536],
  ])('reads every part and file byte-exact from %s', async (_name, sizes) => {
    expect(await readAll(chunked(input, sizes))).toEqual(expected);
  });

  it('skips the rest of a part the reader left unread', async () => {
    const names: string[] = [];
    for await (const { headers } of readMultipart(chunked(input, () => 333), BOUNDARY)) names.push(headers.name);
    expect(names).toEqual(['operations', 'map', '0', '1']);
  });

  it.each([
    ['no closing delimiter', input.subarray(0, input.length - 30)],
    ['a part without Content-Disposition', Buffer.from(`--${BOUNDARY}\r\nContent-Type: text/plain\r\n\r\nx\r\n--${BOUNDARY}--`)],
    ['a part without a name', Buffer.from(`--${BOUNDARY}\r\nContent-Disposition: form-data\r\n\r\nx\r\n--${BOUNDARY}--`)],
    ['garbage after a delimiter', Buffer.from(`--${BOUNDARY}junk\r\nContent-Disposition: form-data; name="a"\r\n\r\nx\r\n--${BOUNDARY}--`)],
    ['no delimiter at all', Buffer.from('just text')],
    ['endless headers', Buffer.concat([Buffer.from(`--${BOUNDARY}\r\nContent-Disposition: form-data; name="a"\r\nX: `), Buffer.alloc(20_000, 97)])],
  ])('refuses %s', async (_name, bytes) => {
    await expect(readAll(chunked(bytes, () => 100))).rejects.toBeInstanceOf(MultipartError);
  });
});

describe('multipartBoundary', () => {
  it('reads the boundary of multipart/form-data only', () => {
    expect(multipartBoundary('multipart/form-data; boundary=abc')).toBe('abc');
    expect(multipartBoundary('Multipart/Form-Data; charset=utf-8; boundary="a b:c"')).toBe('a b:c');
    expect(multipartBoundary('multipart/mixed; boundary=abc')).toBeNull();
    expect(multipartBoundary('application/json')).toBeNull();
    expect(multipartBoundary('multipart/form-data')).toBeNull();
    expect(multipartBoundary(undefined)).toBeNull();
  });
});

describe('sniffMediaType', () => {
  const b = (...parts: (number[] | string)[]) => Buffer.concat(parts.map((p) => (typeof p === 'string' ? Buffer.from(p, 'latin1') : Buffer.from(p))));
  it.each([
    ['image/jpeg', b([0xff, 0xd8, 0xff, 0xe1], 'Exif')],
    ['image/png', b([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a])],
    ['image/gif', b('GIF89a')],
    ['image/webp', b('RIFF', [1, 2, 3, 4], 'WEBPVP8 ')],
    ['image/tiff', b([0x49, 0x49, 0x2a, 0x00])],
    ['image/bmp', b('BM', [0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0], [40, 0, 0, 0])],
    ['image/heic', b([0, 0, 0, 24], 'ftypheic')],
    ['image/avif', b([0, 0, 0, 24], 'ftypavif')],
    ['video/mp4', b([0, 0, 0, 32], 'ftypisom')],
    ['video/quicktime', b([0, 0, 0, 20], 'ftypqt  ')],
    ['video/webm', b([0x1a, 0x45, 0xdf, 0xa3, 0x9f, 0x42, 0x86, 0x81, 0x01], 'B\x82\x84webm')],
    ['video/x-matroska', b([0x1a, 0x45, 0xdf, 0xa3, 0x9f, 0x42, 0x86, 0x81, 0x01], 'B\x82\x88matroska')],
    ['video/x-msvideo', b('RIFF', [1, 2, 3, 4], 'AVI LIST')],
    ['video/mpeg', b([0x00, 0x00, 0x01, 0xba])],
  ])('knows %s by its first bytes', (type, head) => {
    expect(sniffMediaType(head)).toBe(type);
  });

  it.each([
    ['text', b('The blade guard is cracked.')],
    ['text starting with BM', b('BMW service report, line 2 is down')],
    ['SVG', b('<svg xmlns="http://www.w3.org/2000/svg">')],
    ['PDF', b('%PDF-1.7')],
    ['ZIP', b([0x50, 0x4b, 0x03, 0x04])],
    ['an unknown ISO media brand', b([0, 0, 0, 24], 'ftypcrx ')],
    ['nothing', b()],
  ])('refuses %s', (_name, head) => {
    expect(sniffMediaType(head)).toBeNull();
  });
});

describe('cleanFileName', () => {
  it('keeps the base name without control characters or quotes', () => {
    expect(cleanFileName('C:\\Users\\me\\photo.png')).toBe('photo.png');
    expect(cleanFileName('../../etc/passwd')).toBe('passwd');
    expect(cleanFileName('a\u0000b"\r\n.png')).toBe('ab.png');
    expect(cleanFileName('')).toBe('attachment');
    expect(cleanFileName(undefined)).toBe('attachment');
  });
});
