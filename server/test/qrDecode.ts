/**
 * Reads a QR code the way a door scanner would: the wallet's SVG is drawn into pixels (four per
 * module, black on white) and jsQR, a decoder written apart from any encoder, finds and decodes it.
 */
import jsQR from 'jsqr';

const PIXELS_PER_MODULE = 4;

/** The text of the QR code drawn by an SVG of the wallet's shape, or null when none can be read. */
export function decodeQrSvg(svg: string): string | null {
  const size = Number(/viewBox="0 0 (\d+) \1"/.exec(svg)?.[1]);
  if (!size) return null;
  const side = size * PIXELS_PER_MODULE;
  const pixels = new Uint8ClampedArray(side * side * 4).fill(255);
  for (const [, col, row] of svg.matchAll(/M(\d+) (\d+)h1v1h-1z/g)) {
    for (let y = 0; y < PIXELS_PER_MODULE; y++) {
      for (let x = 0; x < PIXELS_PER_MODULE; x++) {
        const at = ((Number(row) * PIXELS_PER_MODULE + y) * side + Number(col) * PIXELS_PER_MODULE + x) * 4;
        pixels.fill(0, at, at + 3);
      }
    }
  }
  return jsQR(pixels, side, side, { inversionAttempts: 'dontInvert' })?.data ?? null;
}
