/**
 * The wallet's QR codes: decoded by an independent decoder (jsQR) back to the text they carry, and
 * compared with reference symbols made by an independent encoder (python-qrcode 8.2, byte mode,
 * level M, the mask given): one version-1 symbol module by module, and one symbol of every version
 * from 1 to 10, with every mask, by the SHA-256 of its rows ('1' dark, one line per row).
 */
import { createHash } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { newTicketCode } from '../domain/tickets.ts';
import { decodeQrSvg } from '../test/qrDecode.ts';
import { qrModules, qrSvg } from './qrSvg.ts';

const rowsOf = (matrix: boolean[][]) => matrix.map((row) => row.map((dark) => (dark ? '1' : '0')).join(''));
const digest = (matrix: boolean[][]) => createHash('sha256').update(rowsOf(matrix).join('\n')).digest('hex');

const HF_7Q2X_MASK_2 = [
  '111111100010101111111',
  '100000100010001000001',
  '101110101100001011101',
  '101110101011001011101',
  '101110101010101011101',
  '100000101011001000001',
  '111111101010101111111',
  '000000001100000000000',
  '101111100011001111100',
  '100001000011111101100',
  '011000101000101100010',
  '111101000011111100100',
  '000110110100100110001',
  '000000001100100001000',
  '111111100101010001110',
  '100000101110000110111',
  '101110101101010101010',
  '101110101101111011100',
  '101110101100101101000',
  '100000100111111001100',
  '111111101000100101110',
];

const REFERENCES = [
  { text: 'HF-7Q2X', mask: 2, version: 1, sha256: '602faef47e4898aad69d6651b71c9dc34b3890e654fd0c2edaa6f6c635b61279' },
  {
    text: 'b'.repeat(20),
    mask: 3,
    version: 2,
    sha256: '7aeef8bfe1c9f870f66c328965157a434d1ed4446884657161e2bed8799b16c9',
  },
  {
    text: 'c'.repeat(35),
    mask: 4,
    version: 3,
    sha256: 'aaa971e0b873f04602fc74ae01e11a5ce9e385a82f5502e182498c22121ed021',
  },
  {
    text: 'd'.repeat(115),
    mask: 5,
    version: 7,
    sha256: '021f0ab46ce0b1d81f07ea1b1243fe7f671029aee4e310ce52d3f038cebcd534',
  },
  {
    text: 'hello world',
    mask: 6,
    version: 1,
    sha256: '168bb9a544e0be1c0b8bfe2e6750fc2816281c9b677e98c9c556cf4600226dcb',
  },
  {
    text: 'https://holdfast.example/t/ABCDEFGHJKLMNPQRSTUVWXYZ23',
    mask: 7,
    version: 4,
    sha256: '9f19c434f31b1f0e57a709b14348cd2fcd62ec99b081f9d3b98794b7d2d2bd9d',
  },
  {
    text: 'x'.repeat(50),
    mask: 0,
    version: 4,
    sha256: '7e6b8037a78662d1bc16f95d04e9dc81283d514deec637b0e7ebb10569625131',
  },
  {
    text: 'y'.repeat(70),
    mask: 1,
    version: 5,
    sha256: '1d238646509aa7b183804de916c9b3cca474301be33659bcfa47d97a860bbfbe',
  },
  {
    text: 'z'.repeat(90),
    mask: 2,
    version: 6,
    sha256: 'ff025a134219552ddd9708b7bf68a617e7041366d3848f6b4159edfe9324b180',
  },
  {
    text: 'Ünïcødé ticket ✓ '.repeat(6),
    mask: 3,
    version: 8,
    sha256: '1a9b64709b654da3117dc0469586f2436d1f0bc96345691932e87f516262909d',
  },
  {
    text: 'p'.repeat(140),
    mask: 4,
    version: 8,
    sha256: 'cb5db9a401375c918f907750058fa8e8f6581f040149e75faba718f6cbf94221',
  },
  {
    text: 'q'.repeat(170),
    mask: 5,
    version: 9,
    sha256: 'fc97fe4a4c7c992d9806f87d6d65316f124280aaa16ae96fff660e265e15f75b',
  },
  {
    text: 'w'.repeat(213),
    mask: 6,
    version: 10,
    sha256: '8b26bac8f5400ff35ef58718036a413dd89b119207b8a6caa503a3ebab8f9565',
  },
  { text: 'A', mask: 7, version: 1, sha256: '23eee31305a65603663d1cc2f2e7c7f71fa05e2010f7942e342aa4f4dca2d95e' },
];

describe('wallet QR codes', () => {
  it('decode to the ticket code they were drawn for', () => {
    for (let i = 0; i < 20; i++) {
      const code = newTicketCode();
      expect(decodeQrSvg(qrSvg(code, `QR code of ticket ${code}`))).toBe(code);
    }
  });

  it.each(REFERENCES)('decode to the text of version $version', ({ text }) => {
    expect(decodeQrSvg(qrSvg(text, 'QR code'))).toBe(text);
  });

  it('draws a version-1 symbol module for module as the reference does', () => {
    const { version, matrix } = qrModules('HF-7Q2X', { mask: 2 });
    expect(version).toBe(1);
    expect(rowsOf(matrix)).toEqual(HF_7Q2X_MASK_2);
  });

  it.each(REFERENCES)('matches the reference symbol for $version / mask $mask', ({ text, mask, version, sha256 }) => {
    const encoded = qrModules(text, { mask });
    expect(encoded.version).toBe(version);
    expect(encoded.mask).toBe(mask);
    expect(encoded.matrix).toHaveLength(version * 4 + 17);
    expect(digest(encoded.matrix)).toBe(sha256);
  });

  it('draws an SVG with a quiet zone and an accessible name', () => {
    const svg = qrSvg('HF-7Q2X', 'Ticket <1>');
    expect(svg).toMatch(/^<svg [^>]*viewBox="0 0 29 29"[^>]*role="img"[^>]*aria-label="Ticket &#60;1&#62;"/);
    const { matrix } = qrModules('HF-7Q2X');
    const darkCount = matrix.flat().filter(Boolean).length;
    expect(svg.match(/h1v1h-1z/g)).toHaveLength(darkCount);
    // The top-left finder's corner sits inside the four-module quiet zone.
    expect(svg).toContain('M4 4h1v1h-1z');
  });
});
