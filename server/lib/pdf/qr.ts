import QRCode from 'qrcode';

/**
 * The dark modules of a QR code of `text` on its grid, rows merged into runs so a code is a
 * few hundred boxes. Error
 * correction M: a printed diploma survives a fold or a stain over a corner.
 *
 * The text is one byte segment and the mask is fixed: letting the encoder search the
 * segmentation and score all eight masks made each code cost about 4 ms, most of a diploma's
 * time (a thousand diplomas were a QR benchmark); any mask is valid and readers accept it.
 */
export type QrGrid = {
  /** Modules per side, quiet zone included. */
  size: number;
  /** Dark runs as [column, row, columns, 1], row 0 at the bottom. */
  boxes: [number, number, number, number][];
};

/**
 * `alphanumeric` (digits, capitals, space and `$%*+-./:` only) packs 5.5 bits a character
 * instead of 8: a smaller symbol, so bigger modules in the same printed square (scanned answer
 * pages, read back at 150 dpi).
 */
export function qrGrid(text: string, mode: 'byte' | 'alphanumeric' = 'byte'): QrGrid {
  const segment =
    mode === 'byte'
      ? { data: Buffer.from(text, 'utf8'), mode: 'byte' as const }
      : { data: text, mode: 'alphanumeric' as const };
  const qr = QRCode.create([segment], {
    errorCorrectionLevel: 'M',
    maskPattern: 0,
  });
  const count = qr.modules.size;
  // Four modules of quiet zone on each side.
  const size = count + 8;
  const boxes: [number, number, number, number][] = [];
  for (let row = 0; row < count; row += 1) {
    let col = 0;
    while (col < count) {
      if (!qr.modules.get(row, col)) {
        col += 1;
        continue;
      }
      const start = col;
      while (col < count && qr.modules.get(row, col)) col += 1;
      boxes.push([4 + start, size - 5 - row, col - start, 1]);
    }
  }
  return { size, boxes };
}
