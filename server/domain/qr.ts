/**
 * QR codes for tickets (ISO/IEC 18004): byte mode, error correction level M, versions 1 to 10,
 * which hold up to 213 bytes, far more than a ticket code. The smallest version that fits is used,
 * and of the eight masks the one with the lowest penalty score. The result is a matrix of dark
 * modules, drawn as one SVG path.
 */

/** Error-correction codewords per block and number of blocks at level M, by version (index 0 unused). */
const EC_PER_BLOCK = [0, 10, 16, 26, 18, 24, 16, 18, 22, 22, 26] as const;
const BLOCKS = [0, 1, 1, 1, 2, 2, 4, 4, 4, 5, 5] as const;
export const MAX_VERSION = 10;

/** Level M's two format bits. */
const EC_LEVEL_BITS = 0b00;

export type QrMatrix = boolean[][];

/** How many data and error-correction codewords (whole bytes) a version's symbol carries. */
function rawCodewords(version: number): number {
  let modules = (16 * version + 128) * version + 64;
  if (version >= 2) {
    const alignments = Math.floor(version / 7) + 2;
    modules -= (25 * alignments - 10) * alignments - 55;
    if (version >= 7) modules -= 36;
  }
  return Math.floor(modules / 8);
}

export function dataCodewords(version: number): number {
  return rawCodewords(version) - EC_PER_BLOCK[version]! * BLOCKS[version]!;
}

/* ---------- Reed-Solomon over GF(256), polynomial 0x11D ---------- */

const EXP = new Uint8Array(512);
const LOG = new Uint8Array(256);
{
  let x = 1;
  for (let i = 0; i < 255; i++) {
    EXP[i] = x;
    LOG[x] = i;
    x <<= 1;
    if (x & 0x100) x ^= 0x11d;
  }
  for (let i = 255; i < 512; i++) EXP[i] = EXP[i - 255]!;
}

function multiply(a: number, b: number): number {
  return a === 0 || b === 0 ? 0 : EXP[LOG[a]! + LOG[b]!]!;
}

/** The generator polynomial of the given degree, highest coefficient (always 1) left out. */
function generator(degree: number): number[] {
  let poly = [1];
  for (let i = 0; i < degree; i++) {
    const next = new Array<number>(poly.length + 1).fill(0);
    for (let j = 0; j < poly.length; j++) {
      next[j] = next[j]! ^ poly[j]!;
      next[j + 1] = next[j + 1]! ^ multiply(poly[j]!, EXP[i]!);
    }
    poly = next;
  }
  return poly.slice(1);
}

export function reedSolomon(data: readonly number[], degree: number): number[] {
  const gen = generator(degree);
  const remainder = new Array<number>(degree).fill(0);
  for (const byte of data) {
    const factor = byte ^ remainder.shift()!;
    remainder.push(0);
    for (let i = 0; i < degree; i++) remainder[i] = remainder[i]! ^ multiply(gen[i]!, factor);
  }
  return remainder;
}

/* ---------- codewords ---------- */

function smallestVersion(byteLength: number): number {
  for (let version = 1; version <= MAX_VERSION; version++) {
    const countBits = version <= 9 ? 8 : 16;
    if (4 + countBits + byteLength * 8 <= dataCodewords(version) * 8) return version;
  }
  throw new Error(`A QR code of version ${MAX_VERSION} at level M holds at most ${dataCodewords(MAX_VERSION) - 3} bytes`);
}

/** Mode, count, data, terminator and padding, split into blocks, each followed by its error correction, interleaved. */
function codewords(bytes: Uint8Array, version: number): number[] {
  const capacity = dataCodewords(version);
  const bits: number[] = [];
  const put = (value: number, length: number) => {
    for (let i = length - 1; i >= 0; i--) bits.push((value >>> i) & 1);
  };
  put(0b0100, 4);
  put(bytes.length, version <= 9 ? 8 : 16);
  for (const b of bytes) put(b, 8);
  put(0, Math.min(4, capacity * 8 - bits.length));
  put(0, (8 - (bits.length % 8)) % 8);
  const data: number[] = [];
  for (let i = 0; i < bits.length; i += 8) data.push(bits.slice(i, i + 8).reduce((acc, bit) => (acc << 1) | bit, 0));
  for (let pad = 0xec; data.length < capacity; pad ^= 0xec ^ 0x11) data.push(pad);

  const blockCount = BLOCKS[version]!;
  const ecLength = EC_PER_BLOCK[version]!;
  const shortBlocks = blockCount - (rawCodewords(version) % blockCount);
  const shortLength = Math.floor(rawCodewords(version) / blockCount) - ecLength;
  const blocks: { data: number[]; ec: number[] }[] = [];
  for (let i = 0, at = 0; i < blockCount; i++) {
    const length = shortLength + (i < shortBlocks ? 0 : 1);
    const part = data.slice(at, at + length);
    at += length;
    blocks.push({ data: part, ec: reedSolomon(part, ecLength) });
  }
  const out: number[] = [];
  for (let i = 0; i <= shortLength; i++) for (const block of blocks) if (i < block.data.length) out.push(block.data[i]!);
  for (let i = 0; i < ecLength; i++) for (const block of blocks) out.push(block.ec[i]!);
  return out;
}

/* ---------- the symbol ---------- */

function alignmentCentres(version: number): number[] {
  if (version === 1) return [];
  const count = Math.floor(version / 7) + 2;
  const size = version * 4 + 17;
  const step = Math.ceil((size - 13) / (count * 2 - 2)) * 2;
  const centres = [6];
  for (let pos = size - 7; centres.length < count; pos -= step) centres.splice(1, 0, pos);
  return centres;
}

/** BCH(15,5) format bits for level M and a mask, with the standard XOR mask applied. */
export function formatBits(mask: number): number {
  const data = (EC_LEVEL_BITS << 3) | mask;
  let rem = data;
  for (let i = 0; i < 10; i++) rem = (rem << 1) ^ ((rem >>> 9) * 0x537);
  return ((data << 10) | rem) ^ 0x5412;
}

/** BCH(18,6) version bits, for version 7 and above. */
export function versionBits(version: number): number {
  let rem = version;
  for (let i = 0; i < 12; i++) rem = (rem << 1) ^ ((rem >>> 11) * 0x1f25);
  return (version << 12) | rem;
}

const MASKS: ReadonlyArray<(row: number, col: number) => boolean> = [
  (r, c) => (r + c) % 2 === 0,
  (r) => r % 2 === 0,
  (_r, c) => c % 3 === 0,
  (r, c) => (r + c) % 3 === 0,
  (r, c) => (Math.floor(r / 2) + Math.floor(c / 3)) % 2 === 0,
  (r, c) => ((r * c) % 2) + ((r * c) % 3) === 0,
  (r, c) => (((r * c) % 2) + ((r * c) % 3)) % 2 === 0,
  (r, c) => (((r + c) % 2) + ((r * c) % 3)) % 2 === 0,
];

class Symbol {
  readonly size: number;
  readonly dark: boolean[][];
  /** Modules that belong to function patterns (finders, timing, alignment, format, version). */
  readonly fixed: boolean[][];

  constructor(readonly version: number) {
    this.size = version * 4 + 17;
    this.dark = Array.from({ length: this.size }, () => new Array<boolean>(this.size).fill(false));
    this.fixed = Array.from({ length: this.size }, () => new Array<boolean>(this.size).fill(false));
    this.drawFunctionPatterns();
  }

  private set(row: number, col: number, dark: boolean) {
    this.dark[row]![col] = dark;
    this.fixed[row]![col] = true;
  }

  private drawFunctionPatterns() {
    const { size } = this;
    for (let i = 0; i < size; i++) {
      this.set(6, i, i % 2 === 0);
      this.set(i, 6, i % 2 === 0);
    }
    for (const [row, col] of [
      [3, 3],
      [3, size - 4],
      [size - 4, 3],
    ] as const) {
      for (let dr = -4; dr <= 4; dr++) {
        for (let dc = -4; dc <= 4; dc++) {
          const r = row + dr;
          const c = col + dc;
          if (r < 0 || r >= size || c < 0 || c >= size) continue;
          const ring = Math.max(Math.abs(dr), Math.abs(dc));
          this.set(r, c, ring !== 2 && ring !== 4);
        }
      }
    }
    const centres = alignmentCentres(this.version);
    const last = centres.length - 1;
    centres.forEach((row, i) =>
      centres.forEach((col, j) => {
        // The three corners taken by finder patterns get none.
        if ((i === 0 && j === 0) || (i === 0 && j === last) || (i === last && j === 0)) return;
        for (let dr = -2; dr <= 2; dr++) {
          for (let dc = -2; dc <= 2; dc++) this.set(row + dr, col + dc, Math.max(Math.abs(dr), Math.abs(dc)) !== 1);
        }
      }),
    );
    this.drawFormat(0);
    if (this.version >= 7) {
      const bits = versionBits(this.version);
      for (let i = 0; i < 18; i++) {
        const dark = ((bits >>> i) & 1) === 1;
        const a = size - 11 + (i % 3);
        const b = Math.floor(i / 3);
        this.set(a, b, dark);
        this.set(b, a, dark);
      }
    }
  }

  drawFormat(mask: number) {
    const bits = formatBits(mask);
    const bit = (i: number) => ((bits >>> i) & 1) === 1;
    const { size } = this;
    // Around the top-left finder.
    for (let i = 0; i <= 5; i++) this.set(i, 8, bit(i));
    this.set(7, 8, bit(6));
    this.set(8, 8, bit(7));
    this.set(8, 7, bit(8));
    for (let i = 9; i < 15; i++) this.set(8, 14 - i, bit(i));
    // The copy split between the other two finders.
    for (let i = 0; i < 8; i++) this.set(8, size - 1 - i, bit(i));
    for (let i = 8; i < 15; i++) this.set(size - 15 + i, 8, bit(i));
    this.set(size - 8, 8, true);
  }

  /** Data bits in the zigzag order: two columns at a time, from the right, up then down. */
  placeData(words: number[]) {
    const { size } = this;
    let index = 0;
    for (let right = size - 1; right >= 1; right -= 2) {
      if (right === 6) right = 5;
      for (let step = 0; step < size; step++) {
        for (let j = 0; j < 2; j++) {
          const col = right - j;
          const upward = ((right + 1) & 2) === 0;
          const row = upward ? size - 1 - step : step;
          if (this.fixed[row]![col]) continue;
          if (index < words.length * 8) this.dark[row]![col] = ((words[index >>> 3]! >>> (7 - (index & 7))) & 1) === 1;
          index++;
        }
      }
    }
  }

  applyMask(mask: number) {
    const test = MASKS[mask]!;
    for (let r = 0; r < this.size; r++) {
      for (let c = 0; c < this.size; c++) if (!this.fixed[r]![c] && test(r, c)) this.dark[r]![c] = !this.dark[r]![c];
    }
  }
}

/* ---------- choosing a mask ---------- */

/** The penalty score of ISO/IEC 18004 §7.8.3: runs, 2x2 blocks, finder-like patterns, dark balance. */
export function penalty(matrix: QrMatrix): number {
  const size = matrix.length;
  let score = 0;
  const line = (get: (i: number) => boolean) => {
    let runColour = get(0);
    let run = 1;
    for (let i = 1; i <= size; i++) {
      if (i < size && get(i) === runColour) {
        run++;
        continue;
      }
      if (run >= 5) score += 3 + (run - 5);
      if (i < size) {
        runColour = get(i);
        run = 1;
      }
    }
    // 1:1:3:1:1 with four light modules on one side.
    const pattern = [true, false, true, true, true, false, true];
    for (let i = 0; i + 7 <= size; i++) {
      if (!pattern.every((p, k) => get(i + k) === p)) continue;
      const lightBefore = i >= 4 && [1, 2, 3, 4].every((k) => !get(i - k));
      const lightAfter = i + 11 <= size && [0, 1, 2, 3].every((k) => !get(i + 7 + k));
      if (lightBefore) score += 40;
      if (lightAfter) score += 40;
    }
  };
  for (let r = 0; r < size; r++) line((c) => matrix[r]![c]!);
  for (let c = 0; c < size; c++) line((r) => matrix[r]![c]!);
  for (let r = 0; r + 1 < size; r++) {
    for (let c = 0; c + 1 < size; c++) {
      const v = matrix[r]![c];
      if (matrix[r]![c + 1] === v && matrix[r + 1]![c] === v && matrix[r + 1]![c + 1] === v) score += 3;
    }
  }
  const dark = matrix.reduce((n, row) => n + row.filter(Boolean).length, 0);
  const percent = (dark * 100) / (size * size);
  score += Math.floor(Math.abs(percent - 50) / 5) * 10;
  return score;
}

/** The QR code for `text` (UTF-8, byte mode, level M); `mask` forces one of the eight masks. */
export function encodeQr(text: string, options: { mask?: number } = {}): { version: number; mask: number; matrix: QrMatrix } {
  const bytes = new TextEncoder().encode(text);
  const version = smallestVersion(bytes.length);
  const words = codewords(bytes, version);
  const build = (mask: number) => {
    const symbol = new Symbol(version);
    symbol.placeData(words);
    symbol.applyMask(mask);
    symbol.drawFormat(mask);
    return symbol.dark;
  };
  if (options.mask !== undefined) {
    if (!Number.isInteger(options.mask) || options.mask < 0 || options.mask > 7) throw new Error('A QR mask is 0 to 7');
    return { version, mask: options.mask, matrix: build(options.mask) };
  }
  let best = { version, mask: 0, matrix: build(0) };
  let bestScore = penalty(best.matrix);
  for (let mask = 1; mask < 8; mask++) {
    const matrix = build(mask);
    const score = penalty(matrix);
    if (score < bestScore) {
      best = { version, mask, matrix };
      bestScore = score;
    }
  }
  return best;
}

/**
 * The code as an SVG image: one path of dark squares on a light background, with the four-module
 * quiet zone the standard asks for. `label` becomes its accessible name.
 */
export function qrSvg(text: string, label: string): string {
  const { matrix } = encodeQr(text);
  const quiet = 4;
  const size = matrix.length + quiet * 2;
  let path = '';
  matrix.forEach((row, r) =>
    row.forEach((dark, c) => {
      if (dark) path += `M${c + quiet} ${r + quiet}h1v1h-1z`;
    }),
  );
  const escaped = label.replace(/[&<>"']/g, (ch) => `&#${ch.charCodeAt(0)};`);
  return (
    `<svg xmlns="http://www.w3.org/2000/svg" class="qr" viewBox="0 0 ${size} ${size}" role="img" aria-label="${escaped}" shape-rendering="crispEdges">` +
    `<rect width="${size}" height="${size}" fill="#fff"/><path d="${path}" fill="#000"/></svg>`
  );
}
