import { readFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import sharp from 'sharp';
import { prepareZXingModule, type ReadResult, readBarcodes } from 'zxing-wasm/reader';

/**
 * One scanned page read: its QR code found with zxing-wasm (ZXing's C++ reader compiled to
 * WebAssembly; its .wasm ships in the package and is handed over from node_modules, so nothing
 * is fetched), then the page turned upright and straightened by the code's own angle, cropped
 * to the paper and written again as a grey JPEG without any of the scanner's metadata.
 *
 * The code is printed at the top right of every booklet page, so the reader looks there first
 * (a small image reads in a few milliseconds), then at the bottom left (a page fed upside
 * down), and only then searches the whole page.
 */
export type ReadPage = {
  /** The QR code's text, or null when none could be read. */
  text: string | null;
  /** The page upright and straightened (JPEG, no metadata). */
  page: Buffer;
};

/** Pages are read and kept at about 150 dpi: an A4 page 1240 points wide. */
const READ_WIDTH = 1240;
const QUALITY = 75;

let ready: Promise<unknown> | undefined;
function prepare() {
  ready ??= (async () => {
    const require = createRequire(import.meta.url);
    const wasm = await readFile(require.resolve('zxing-wasm/reader/zxing_reader.wasm'));
    const wasmBinary = wasm.buffer.slice(wasm.byteOffset, wasm.byteOffset + wasm.byteLength);
    await prepareZXingModule({
      overrides: { wasmBinary: wasmBinary as ArrayBuffer },
      fireImmediately: true,
    });
  })();
  return ready;
}

type Grey = { data: Buffer; width: number; height: number };

/** Grey pixels as the RGBA image the reader takes. */
function asImageData({ data, width, height }: Grey): ImageData {
  const rgba = new Uint8ClampedArray(width * height * 4);
  for (let i = 0, o = 0; i < data.length; i += 1, o += 4) {
    const v = data[i] ?? 255;
    rgba[o] = v;
    rgba[o + 1] = v;
    rgba[o + 2] = v;
    rgba[o + 3] = 255;
  }
  return { data: rgba, width, height, colorSpace: 'srgb' } as ImageData;
}

async function decode(image: Grey, tryHarder: boolean): Promise<ReadResult | undefined> {
  const results = await readBarcodes(asImageData(image), {
    formats: ['QRCode'],
    tryHarder,
    tryRotate: tryHarder,
    maxNumberOfSymbols: 1,
  });
  return results.find((r) => r.isValid && r.text.startsWith('PDM'));
}

/** The angle (degrees, clockwise) the code's top edge makes with the horizontal. */
function angleOf(r: ReadResult): number {
  const { topLeft, topRight } = r.position;
  return (Math.atan2(topRight.y - topLeft.y, topRight.x - topLeft.x) * 180) / Math.PI;
}

type Region = { left: number; top: number; width: number; height: number };

/**
 * Grey pixels of an image, or of a region of it; `despeckle` takes dust and toner dots off
 * (a dot on a finder pattern hides a code) at the price of blurring small modules, so it is
 * the second try, not the first.
 */
async function greyOf(
  input: Buffer,
  { region, width, despeckle = false }: { region?: Region; width?: number; despeckle?: boolean },
): Promise<Grey> {
  let image = sharp(input, { limitInputPixels: 100_000_000 });
  if (region) image = image.extract(region);
  if (width) image = image.resize({ width });
  if (despeckle) image = image.median(3);
  const { data, info } = await image
    .toColourspace('b-w')
    .raw()
    .toBuffer({ resolveWithObject: true });
  return { data, width: info.width, height: info.height };
}

/**
 * Reads a page given as an image file (PNG, JPEG, TIFF, …). The corners are searched at the
 * scan's own resolution (a 300 dpi scan's code reads better than its 150 dpi copy); the whole
 * page, and what is kept, at 150 dpi.
 */
export async function readScanPage(input: Buffer): Promise<ReadPage> {
  await prepare();
  const { width: fullWidth = 0, height: fullHeight = 0 } = await sharp(input, {
    limitInputPixels: 100_000_000,
  }).metadata();
  const w = Math.floor(fullWidth * 0.45);
  const h = Math.floor(fullHeight * 0.3);
  const corner = async (left: number, top: number, despeckle = false) =>
    decode(await greyOf(input, { region: { left, top, width: w, height: h }, despeckle }), false);
  const image = await greyOf(input, { width: READ_WIDTH });
  const found =
    (await corner(fullWidth - w, 0)) ??
    (await corner(0, fullHeight - h)) ??
    (await corner(fullWidth - w, 0, true)) ??
    (await corner(0, fullHeight - h, true)) ??
    (await decode(image, true));
  // The code's corners are given in its own orientation, so its angle turns an upside-down
  // or sideways page upright as well as straightening a slightly skewed one.
  const angle = found ? angleOf(found) : 0;
  const radians = (Math.abs(angle) * Math.PI) / 180;
  const sin = Math.abs(Math.sin(radians));
  const cos = Math.abs(Math.cos(radians));
  const turnedWidth = Math.round(image.width * cos + image.height * sin);
  const turnedHeight = Math.round(image.width * sin + image.height * cos);
  const sideways = sin > Math.SQRT1_2;
  const [width, height] = sideways ? [image.height, image.width] : [image.width, image.height];
  const page = await sharp(image.data, {
    raw: { width: image.width, height: image.height, channels: 1 },
  })
    .rotate(-angle, { background: '#ffffff' })
    .extract({
      left: Math.max(0, Math.floor((turnedWidth - width) / 2)),
      top: Math.max(0, Math.floor((turnedHeight - height) / 2)),
      width: Math.min(width, turnedWidth),
      height: Math.min(height, turnedHeight),
    })
    .jpeg({ quality: QUALITY })
    .toBuffer();
  return { text: found?.text ?? null, page };
}
