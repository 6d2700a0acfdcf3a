import { crc32 } from 'node:zlib';
import { cleanFileName } from './names.js';

/**
 * A ZIP archive written entry by entry to `write`, in order, stored without compression: its
 * entries (PDFs, PNGs, JPEGs) are compressed already, so deflating them again costs time and
 * saves almost nothing. Only the central directory is kept until `finish`, so an archive of any
 * size can go to a file without being held in memory. Names are UTF-8 (flag bit 11), so
 * "Țurcanu" stays "Țurcanu" in the archive. ZIP64 is not written: an archive stays under 4 GiB
 * and 65,535 entries (`add` refuses beyond).
 */
export type ZipWriter = {
  /** One entry, dated `modified` (else the writer's date). */
  add(name: string, data: Buffer, modified?: Date): void;
  /** Writes the central directory; answers the archive's size in bytes. */
  finish(): number;
  readonly count: number;
};

export type ZipEntry = { name: string; data: Buffer; modifiedAt: Date };

const MAX_ENTRIES = 65_535;
const MAX_BYTES = 0xffff_fffe;

/** MS-DOS date and time, as the zip headers keep them (2-second precision, local fields). */
function dosDateTime(d: Date): { time: number; date: number } {
  const year = Math.max(1980, d.getUTCFullYear());
  return {
    time: (d.getUTCHours() << 11) | (d.getUTCMinutes() << 5) | Math.floor(d.getUTCSeconds() / 2),
    date: ((year - 1980) << 9) | ((d.getUTCMonth() + 1) << 5) | d.getUTCDate(),
  };
}

export function createZipWriter(
  write: (bytes: Buffer) => void,
  modified: Date = new Date(),
): ZipWriter {
  const central: Buffer[] = [];
  let offset = 0;
  let entries = 0;

  return {
    get count() {
      return entries;
    },
    add(name, data, when = modified) {
      if (entries >= MAX_ENTRIES || offset + data.length > MAX_BYTES) {
        throw new Error('ZIP archive too large');
      }
      const nameBytes = Buffer.from(name, 'utf8');
      const crc = crc32(data) >>> 0;
      const { time, date } = dosDateTime(when);
      // The fields a local header and its directory entry share, from `at`: when, checksum,
      // sizes (stored: the same twice), the name's length.
      const described = (header: Buffer, at: number) => {
        header.writeUInt16LE(time, at);
        header.writeUInt16LE(date, at + 2);
        header.writeUInt32LE(crc, at + 4);
        header.writeUInt32LE(data.length, at + 8);
        header.writeUInt32LE(data.length, at + 12);
        header.writeUInt16LE(nameBytes.length, at + 16);
        return header;
      };
      const local = described(Buffer.alloc(30 + nameBytes.length), 10);
      local.writeUInt32LE(0x04034b50, 0);
      local.writeUInt16LE(20, 4); // version needed
      local.writeUInt16LE(0x0800, 6); // UTF-8 names
      local.writeUInt16LE(0, 8); // stored
      nameBytes.copy(local, 30);
      const entry = described(Buffer.alloc(46 + nameBytes.length), 12);
      entry.writeUInt32LE(0x02014b50, 0);
      entry.writeUInt16LE(20, 4); // made by
      entry.writeUInt16LE(20, 6); // version needed
      entry.writeUInt16LE(0x0800, 8); // UTF-8 names
      entry.writeUInt16LE(0, 10); // stored
      entry.writeUInt32LE(offset, 42);
      nameBytes.copy(entry, 46);
      central.push(entry);
      write(local);
      write(data);
      offset += local.length + data.length;
      entries += 1;
    },
    finish() {
      const directory = Buffer.concat(central);
      const end = Buffer.alloc(22);
      end.writeUInt32LE(0x06054b50, 0);
      end.writeUInt16LE(entries, 8);
      end.writeUInt16LE(entries, 10);
      end.writeUInt32LE(directory.length, 12);
      end.writeUInt32LE(offset, 16);
      write(Buffer.concat([directory, end]));
      return offset + directory.length + end.length;
    },
  };
}

/**
 * A zip archive of the entries in memory, their names cleaned (no folders, no control or
 * bidirectional characters): an entry is what its name shows, wherever it is unpacked. For
 * small archives (an answer's pages, a person's data); a large one is written to a file with
 * `createZipWriter`.
 */
export function buildZip(entries: readonly ZipEntry[]): Buffer {
  const parts: Buffer[] = [];
  const zip = createZipWriter((bytes) => {
    parts.push(bytes);
  });
  for (const [i, entry] of entries.entries()) {
    zip.add(cleanFileName(entry.name, `file-${i + 1}`), entry.data, entry.modifiedAt);
  }
  zip.finish();
  return Buffer.concat(parts);
}
