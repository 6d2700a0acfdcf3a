import { crc32 } from 'node:zlib';

/**
 * A ZIP archive written entry by entry, stored without compression: its entries (PDFs) are
 * compressed already, so deflating them again costs time and saves almost nothing. Names are
 * UTF-8 (flag bit 11), so "Țurcanu" stays "Țurcanu" in the archive. ZIP64 is not written:
 * an archive stays under 4 GiB and 65,535 entries (`add` refuses beyond).
 */
export type ZipWriter = {
  add(name: string, data: Buffer): void;
  /** The whole archive. */
  finish(): Buffer;
  readonly count: number;
};

const MAX_ENTRIES = 65_535;
const MAX_BYTES = 0xffff_fffe;

function dosDateTime(date: Date): { time: number; day: number } {
  const time = (date.getHours() << 11) | (date.getMinutes() << 5) | (date.getSeconds() >> 1);
  const day = ((date.getFullYear() - 1980) << 9) | ((date.getMonth() + 1) << 5) | date.getDate();
  return { time, day };
}

export function createZipWriter(modified: Date = new Date()): ZipWriter {
  const parts: Buffer[] = [];
  const central: Buffer[] = [];
  let offset = 0;
  let entries = 0;
  const { time, day } = dosDateTime(modified);

  return {
    get count() {
      return entries;
    },
    add(name, data) {
      if (entries >= MAX_ENTRIES || offset + data.length > MAX_BYTES) {
        throw new Error('ZIP archive too large');
      }
      const nameBytes = Buffer.from(name, 'utf8');
      const crc = crc32(data);
      const local = Buffer.alloc(30);
      local.writeUInt32LE(0x04034b50, 0);
      local.writeUInt16LE(20, 4); // version needed
      local.writeUInt16LE(0x0800, 6); // UTF-8 names
      local.writeUInt16LE(0, 8); // stored
      local.writeUInt16LE(time, 10);
      local.writeUInt16LE(day, 12);
      local.writeUInt32LE(crc, 14);
      local.writeUInt32LE(data.length, 18);
      local.writeUInt32LE(data.length, 22);
      local.writeUInt16LE(nameBytes.length, 26);
      local.writeUInt16LE(0, 28);
      const entry = Buffer.alloc(46);
      entry.writeUInt32LE(0x02014b50, 0);
      entry.writeUInt16LE(20, 4); // made by
      entry.writeUInt16LE(20, 6);
      entry.writeUInt16LE(0x0800, 8);
      entry.writeUInt16LE(0, 10);
      entry.writeUInt16LE(time, 12);
      entry.writeUInt16LE(day, 14);
      entry.writeUInt32LE(crc, 16);
      entry.writeUInt32LE(data.length, 20);
      entry.writeUInt32LE(data.length, 24);
      entry.writeUInt16LE(nameBytes.length, 28);
      entry.writeUInt32LE(offset, 42);
      central.push(entry, nameBytes);
      parts.push(local, nameBytes, data);
      offset += local.length + nameBytes.length + data.length;
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
      return Buffer.concat([...parts, directory, end]);
    },
  };
}
