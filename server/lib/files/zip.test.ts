import { execFileSync } from 'node:child_process';
import { closeSync, mkdtempSync, openSync, rmSync, writeFileSync, writeSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { crc32 } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildZip, createZipWriter } from './zip.js';

/** Reads the central directory back: what any unzip tool relies on. */
function readZip(zip: Buffer) {
  const end = zip.length - 22;
  expect(zip.readUInt32LE(end)).toBe(0x06054b50);
  const count = zip.readUInt16LE(end + 10);
  let at = zip.readUInt32LE(end + 16);
  const entries: { name: string; data: Buffer; flags: number }[] = [];
  for (let i = 0; i < count; i++) {
    expect(zip.readUInt32LE(at)).toBe(0x02014b50);
    const flags = zip.readUInt16LE(at + 8);
    const crc = zip.readUInt32LE(at + 16);
    const size = zip.readUInt32LE(at + 20);
    const nameLength = zip.readUInt16LE(at + 28);
    const offset = zip.readUInt32LE(at + 42);
    const name = zip.subarray(at + 46, at + 46 + nameLength).toString('utf8');
    expect(zip.readUInt32LE(offset)).toBe(0x04034b50);
    const localName = zip.readUInt16LE(offset + 26);
    const start = offset + 30 + localName;
    const data = zip.subarray(start, start + size);
    expect(crc32(data) >>> 0).toBe(crc);
    entries.push({ name, data, flags });
    at += 46 + nameLength;
  }
  return entries;
}

describe('buildZip', () => {
  it('stores every entry with its UTF-8 name, size and checksum, in order', () => {
    const entries = [
      { name: '01-pagină ț.png', data: Buffer.from('unu'), modifiedAt: new Date() },
      { name: '02-scan.pdf', data: Buffer.alloc(70_000, 7), modifiedAt: new Date(0) },
      { name: '03-gol.pdf', data: Buffer.alloc(0), modifiedAt: new Date() },
    ];
    const back = readZip(buildZip(entries));
    expect(back.map((e) => e.name)).toEqual(entries.map((e) => e.name));
    back.forEach((e, i) => {
      expect(e.data.equals(entries[i]?.data ?? Buffer.alloc(1))).toBe(true);
      expect(e.flags & 0x0800).toBe(0x0800);
    });
  });

  it('names no entry with folders, control or direction characters', () => {
    const data = Buffer.from('x');
    const modifiedAt = new Date();
    const back = readZip(
      buildZip([
        { name: '01-invoice\u202Efdp.exe', data, modifiedAt },
        { name: '../../etc/02-passwd', data, modifiedAt },
        { name: '\u0007\u2066', data, modifiedAt },
      ]),
    );
    expect(back.map((e) => e.name)).toEqual(['01-invoicefdp.exe', '02-passwd', 'file-3']);
  });

  it('makes an empty archive of no entries', () => {
    expect(readZip(buildZip([]))).toEqual([]);
  });
});

describe('createZipWriter', () => {
  it('writes each entry as it is added, keeping only the directory for the end', () => {
    const written: Buffer[] = [];
    const zip = createZipWriter((bytes) => written.push(bytes), new Date('2026-06-20T10:00:00Z'));
    zip.add('Ana Țurcanu - 7K3M.pdf', Buffer.alloc(100_000, 1));
    const afterFirst = Buffer.concat(written).length;
    // The entry is out before the next one is added: its header, name and bytes.
    expect(afterFirst).toBe(30 + Buffer.byteLength('Ana Țurcanu - 7K3M.pdf') + 100_000);
    zip.add('profesori/Ion Pop.pdf', Buffer.from('%PDF-'));
    const size = zip.finish();
    const archive = Buffer.concat(written);
    expect(size).toBe(archive.length);
    expect(zip.count).toBe(2);
    const back = readZip(archive);
    expect(back.map((e) => e.name)).toEqual(['Ana Țurcanu - 7K3M.pdf', 'profesori/Ion Pop.pdf']);
    expect(back[1]?.data.toString()).toBe('%PDF-');
  });
});

describe('an archive past the classic limits (ZIP64)', () => {
  let scratch: string;
  beforeAll(() => {
    scratch = mkdtempSync(path.join(tmpdir(), 'zip64-'));
  });
  afterAll(() => rmSync(scratch, { recursive: true, force: true }));

  /** Python's zipfile: the entries it lists, and the named entry's bytes (checksum checked). */
  const python = (file: string, name: string) =>
    JSON.parse(
      execFileSync(
        'python3',
        [
          '-c',
          'import json, sys, zipfile\nz = zipfile.ZipFile(sys.argv[1])\n' +
            'print(json.dumps([len(z.infolist()), z.read(sys.argv[2]).decode()]))',
          file,
          name,
        ],
        { encoding: 'utf8' },
      ),
    ) as [number, string];

  it('holds more than 65,535 entries, and other readers find every one', () => {
    const parts: Buffer[] = [];
    const zip = createZipWriter((bytes) => parts.push(bytes));
    for (let i = 0; i < 70_000; i += 1) zip.add(`e${i}.txt`, Buffer.from(`entry ${i}`));
    const size = zip.finish();
    const file = path.join(scratch, 'many.zip');
    writeFileSync(file, Buffer.concat(parts));
    expect(Buffer.concat(parts).length).toBe(size);
    expect(python(file, 'e69999.txt')).toEqual([70_000, 'entry 69999']);
    // Info-ZIP tests every entry's checksum.
    expect(execFileSync('unzip', ['-tq', file], { encoding: 'utf8' })).toMatch(/^No errors/);
  });

  it('places entries past 4 GiB, and another reader finds them by their ZIP64 offsets', () => {
    // 65 entries of 64 MiB of zeros: 4.06 GiB, written as the holes of a sparse file.
    const zeros = Buffer.alloc(64 * 1024 * 1024);
    const file = path.join(scratch, 'big.zip');
    const fd = openSync(file, 'wx');
    let position = 0;
    const zip = createZipWriter((bytes) => {
      if (bytes !== zeros) writeSync(fd, bytes, 0, bytes.length, position);
      position += bytes.length;
    });
    for (let i = 0; i < 65; i += 1) zip.add(`zeros-${i}.bin`, zeros);
    zip.add('după.txt', Buffer.from('Țurcanu'));
    const size = zip.finish();
    closeSync(fd);
    expect(size).toBe(position);
    expect(size).toBeGreaterThan(2 ** 32);
    expect(python(file, 'după.txt')).toEqual([66, 'Țurcanu']);
  }, 60_000);

  it('refuses one entry of 4 GiB or more, whose sizes would not fit', () => {
    const zip = createZipWriter(() => {});
    const tooLarge = { length: 2 ** 32 } as Buffer;
    expect(() => zip.add('big.bin', tooLarge)).toThrow('ZIP entry over 4 GiB');
    expect(zip.count).toBe(0);
  });
});
