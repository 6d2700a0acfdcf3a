import sharp from 'sharp';
import { describe, expect, it } from 'vitest';
import { stripMetadata } from './strip.js';

// What the upload tests (uploads-metadata.api.test.ts) do not reach: images of other depths.

describe('stripMetadata', () => {
  it('keeps a 16-bit PNG 16-bit, every sample the same, grey or colour, with alpha or not', async () => {
    for (const channels of [1, 2, 3, 4] as const) {
      // A Uint16Array is read as 16 bits a sample.
      const raw = Uint16Array.from({ length: 5 * 3 * channels }, (_, i) => (i * 4099) % 65536);
      const png = await sharp(raw, { raw: { width: 5, height: 3, channels } })
        .toColourspace(channels <= 2 ? 'grey16' : 'rgb16')
        .png()
        .toBuffer();
      const stripped = await stripMetadata(png, 'image/png');
      if (!stripped) throw new Error('not stripped');
      expect(await sharp(stripped).metadata()).toMatchObject({ depth: 'ushort', channels });
      const samples = (b: Buffer) => sharp(b).raw({ depth: 'ushort' }).toBuffer();
      expect(await samples(stripped)).toEqual(await samples(png));
    }
  });

  it('answers undefined for a type it does not clean', async () => {
    expect(await stripMetadata(Buffer.from('GIF89a'), 'image/gif')).toBeUndefined();
  });
});
