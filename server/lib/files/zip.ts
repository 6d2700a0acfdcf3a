import { crc32 } from 'node:zlib';
import { cleanFileName } from './names.js';

/**
 * A ZIP archive written entry by entry to `write`, in order, stored without compression: its
 * entries (PDFs, PNGs, JPEGs) are compressed already, so deflating them again costs time and
 * saves almost nothing. Only the central directory is kept until `finish`, so an archive of any
 * size can go to a file without being held in memory. Names are UTF-8 (flag bit 11), so
 * "Țurcanu" stays "Țurcanu" in the archive. From 65,535 entries or 4 GiB on, the archive's end
 * and the far entries' offsets are written as ZIP64 (APPNOTE 4.3.14–15, 4.5.3), which Info-ZIP's
 * unzip and Python's zipfile read back in zip.test.ts; one entry stays under 4 GiB (`add` refuses
 * a larger one), which no caller nears: a diploma is ~42 kB, an uploaded file at most
 * UPLOAD_MAX_BYTES (10 MB unless set), and the in-memory archives are built from such files.
 *
 * Why this and not a library (yazl, well kept, writes the same stored ZIP64): `write` is called
 * synchronously, so the diploma job draws, writes and flushes its archive with blocking calls on
 * its worker thread, 256 kB at a time (diploma-zip.ts says why), holding one diploma at a time.
 * yazl queues what it is given and hands out a stream that only the event loop drains: fed as
 * the job draws, it held every diploma until the end. `NODE_OPTIONS=--expose-gc npm run bench
 * -- zip`, 2,000 diplomas of 42 kB (84 MB), 2026-11-29, on the 2-core machine at load 23–36:
 * drawn while written, this writer held 0.4 MB above its start, yazl 111 MB (31.6 s and 41.2 s
 * with the drawing); already drawn, 0.8–1.4 s against 2.3–3.4 s to the file; 70,000 tiny
 * entries 5.6 s against 144 s. Every archive passed `python3 -m zipfile -t` and `unzip -t`,
 * the one of 4.06 GiB too (bench/README.md, "ZIP and font hinting").
 */
export type ZipWriter = {
  /** One entry, dated `modified` (else the writer's date). */
  add(name: string, data: Buffer, modified?: Date): void;
  /** Writes the central directory; answers the archive's size in bytes. */
  finish(): number;
  readonly count: number;
};

export type ZipEntry = { name: string; data: Buffer; modifiedAt: Date };

/** The largest entry: its sizes stay 32-bit fields (0xffffffff would mean "see ZIP64"). */
const MAX_ENTRY_BYTES = 0xffff_fffe;
/** At or past these, the end of the archive (and an entry's offset) is written as ZIP64. */
const MAX_SHORT_COUNT = 0xffff;
const MAX_SHORT_OFFSET = 0xffff_ffff;

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
      if (data.length > MAX_ENTRY_BYTES) throw new Error('ZIP entry over 4 GiB');
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
      // An entry that begins at or past 4 GiB keeps its offset in a ZIP64 extra field.
      const far = offset >= MAX_SHORT_OFFSET;
      const entry = described(Buffer.alloc(46 + nameBytes.length + (far ? 12 : 0)), 12);
      entry.writeUInt32LE(0x02014b50, 0);
      entry.writeUInt16LE(far ? 45 : 20, 4); // made by
      entry.writeUInt16LE(far ? 45 : 20, 6); // version needed
      entry.writeUInt16LE(0x0800, 8); // UTF-8 names
      entry.writeUInt16LE(0, 10); // stored
      entry.writeUInt32LE(far ? MAX_SHORT_OFFSET : offset, 42);
      nameBytes.copy(entry, 46);
      if (far) {
        entry.writeUInt16LE(12, 30); // extra field length
        const extra = 46 + nameBytes.length;
        entry.writeUInt16LE(0x0001, extra); // ZIP64 extended information
        entry.writeUInt16LE(8, extra + 2);
        entry.writeBigUInt64LE(BigInt(offset), extra + 4);
      }
      central.push(entry);
      write(local);
      write(data);
      offset += local.length + data.length;
      entries += 1;
    },
    finish() {
      const directory = Buffer.concat(central);
      const wide =
        entries >= MAX_SHORT_COUNT ||
        offset >= MAX_SHORT_OFFSET ||
        directory.length >= MAX_SHORT_OFFSET;
      // ZIP64's end record and its locator go before the classic end, whose fields then say 0xff….
      const wideEnd = Buffer.alloc(wide ? 56 + 20 : 0);
      if (wide) {
        wideEnd.writeUInt32LE(0x06064b50, 0);
        wideEnd.writeBigUInt64LE(44n, 4); // the record's size after this field
        wideEnd.writeUInt16LE(45, 12); // made by
        wideEnd.writeUInt16LE(45, 14); // version needed
        wideEnd.writeBigUInt64LE(BigInt(entries), 24);
        wideEnd.writeBigUInt64LE(BigInt(entries), 32);
        wideEnd.writeBigUInt64LE(BigInt(directory.length), 40);
        wideEnd.writeBigUInt64LE(BigInt(offset), 48);
        wideEnd.writeUInt32LE(0x07064b50, 56);
        wideEnd.writeBigUInt64LE(BigInt(offset + directory.length), 64);
        wideEnd.writeUInt32LE(1, 72); // disks
      }
      const end = Buffer.alloc(22);
      end.writeUInt32LE(0x06054b50, 0);
      end.writeUInt16LE(Math.min(entries, MAX_SHORT_COUNT), 8);
      end.writeUInt16LE(Math.min(entries, MAX_SHORT_COUNT), 10);
      end.writeUInt32LE(Math.min(directory.length, MAX_SHORT_OFFSET), 12);
      end.writeUInt32LE(Math.min(offset, MAX_SHORT_OFFSET), 16);
      write(Buffer.concat([directory, wideEnd, end]));
      return offset + directory.length + wideEnd.length + end.length;
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
