/**
 * QR codes for tickets (ISO/IEC 18004), encoded by uqr: byte mode (the text's UTF-8), error
 * correction level M, the smallest version that fits and the mask with the lowest penalty score.
 * The symbol is drawn here as one SVG path, so the wallet's markup is ours.
 */
import { encode } from 'uqr';

export type QrMatrix = boolean[][];

/** The code's dark modules, without a quiet zone; `mask` forces one of the eight masks. */
export function qrModules(
  text: string,
  options: { mask?: number } = {},
): { version: number; mask: number; matrix: QrMatrix } {
  const bytes = Array.from(new TextEncoder().encode(text));
  const { version, maskPattern, data } = encode(bytes, {
    ecc: 'M',
    border: 0,
    ...(options.mask === undefined ? {} : { maskPattern: options.mask }),
  });
  return { version, mask: maskPattern, matrix: data };
}

/**
 * The code as an SVG image: one path of dark squares on a light background, with the four-module
 * quiet zone the standard asks for. `label` becomes its accessible name.
 */
export function qrSvg(text: string, label: string): string {
  const { matrix } = qrModules(text);
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
