import { crc32, deflateSync } from "node:zlib";

// A QR code's modules as a PNG, written directly: two colours in a palette, one bit a
// pixel, compressed by Node's native zlib. The qrcode package's own PNG writer (pngjs,
// in JavaScript, four bytes a pixel) took over a second for a 2048-pixel image, blocking
// the event loop; this takes a few milliseconds.

/** `modules` (size × size, 1 = dark) as a `width`-pixel square PNG, `margin` modules of background around. */
export function qrPng(modules: Uint8Array, size: number, width: number, margin: number, dark: string, light: string): Buffer {
  const total = size + 2 * margin;
  const rowBytes = Math.ceil(width / 8);
  // Which module each pixel column and row falls in (-1: the margin), as qrcode's renderer maps them.
  const moduleAt = new Int32Array(width);
  for (let p = 0; p < width; p++) {
    const m = Math.floor((p * total) / width) - margin;
    moduleAt[p] = m >= 0 && m < size ? m : -1;
  }
  const raw = Buffer.alloc((rowBytes + 1) * width); // each row: filter byte 0, then the bits
  let previous = -2;
  for (let y = 0; y < width; y++) {
    const row = y * (rowBytes + 1);
    const my = moduleAt[y]!;
    if (my === previous && y > 0) {
      raw.copy(raw, row, row - rowBytes - 1, row); // the same module row: the same pixels
      continue;
    }
    previous = my;
    if (my === -1) continue; // background: palette index 0, all zero bits
    for (let x = 0; x < width; x++) {
      const mx = moduleAt[x]!;
      if (mx !== -1 && modules[my * size + mx] === 1) raw[row + 1 + (x >> 3)]! |= 0x80 >> (x & 7);
    }
  }
  const header = Buffer.alloc(13);
  header.writeUInt32BE(width, 0);
  header.writeUInt32BE(width, 4);
  header.set([1, 3, 0, 0, 0], 8); // bit depth 1, colour type 3 (palette), deflate, no filter method, no interlace
  return Buffer.concat([
    Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
    chunk("IHDR", header),
    chunk("PLTE", Buffer.from([...rgb(light), ...rgb(dark)])),
    chunk("IDAT", deflateSync(raw)),
    chunk("IEND", Buffer.alloc(0)),
  ]);
}

function rgb(hex: string): number[] {
  return [1, 3, 5].map((i) => parseInt(hex.slice(i, i + 2), 16));
}

function chunk(type: string, data: Buffer): Buffer {
  const out = Buffer.alloc(12 + data.length);
  out.writeUInt32BE(data.length, 0);
  out.write(type, 4, "latin1");
  data.copy(out, 8);
  out.writeUInt32BE(crc32(out.subarray(4, 8 + data.length)), 8 + data.length);
  return out;
}
