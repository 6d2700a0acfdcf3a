import { open } from 'node:fs/promises';
import { inflateRawSync } from 'node:zlib';

/**
 * What a ZIP archive (an xlsx, say) unpacks to, read before any parser sees it: a few hundred
 * kilobytes of well-compressed XML can unpack to hundreds of megabytes, and a parser holding
 * them as objects takes gigabytes. The central directory gives every entry's sizes; the
 * entries are then inflated with their declared size as a hard cap, so an archive whose
 * directory understates them is caught too. Only the entries `keep` names are returned.
 */
export type ZipLimits = {
  /** Most bytes all entries may unpack to together. */
  maxUnpackedBytes: number;
  /** Most unpacked bytes per packed byte over the whole archive, once it is over 1 MB. */
  maxRatio: number;
  maxEntries: number;
};

export type ZipCheck =
  | { ok: true; unpackedBytes: number; entries: Map<string, Buffer> }
  | { ok: false; reason: 'not_zip' | 'too_large' };

const EOCD = 0x06054b50;
const CENTRAL = 0x02014b50;
const LOCAL = 0x04034b50;
/** Sizes at 0xFFFFFFFF (or counts at 0xFFFF) mean ZIP64: far beyond any file we accept. */
const ZIP64 = 0xffffffff;
const RATIO_FLOOR = 1024 * 1024;

type Entry = { name: string; method: number; packed: number; unpacked: number; offset: number };

function findEnd(data: Buffer): number {
  if (data.length < 22) return -1;
  // The end record is 22 bytes plus a comment of at most 65,535.
  for (let at = data.length - 22; at >= Math.max(0, data.length - 22 - 65_535); at -= 1) {
    if (data.readUInt32LE(at) === EOCD) return at;
  }
  return -1;
}

/**
 * The entries named by the central directory. `data` holds the archive's bytes from `base` on
 * (the whole archive, or only its tail with the directory when the archive is on disk).
 */
function readDirectory(data: Buffer, base = 0): Entry[] | 'not_zip' | 'too_large' {
  const end = findEnd(data);
  if (end < 0) return 'not_zip';
  const count = data.readUInt16LE(end + 10);
  const size = data.readUInt32LE(end + 12);
  const start = data.readUInt32LE(end + 16);
  if (count === 0xffff || size === ZIP64 || start === ZIP64) return 'too_large';
  if (start < base || start + size > base + end) return 'not_zip';
  const entries: Entry[] = [];
  let at = start - base;
  for (let i = 0; i < count; i += 1) {
    if (at + 46 > end || data.readUInt32LE(at) !== CENTRAL) return 'not_zip';
    const nameLength = data.readUInt16LE(at + 28);
    const skip = 46 + nameLength + data.readUInt16LE(at + 30) + data.readUInt16LE(at + 32);
    entries.push({
      method: data.readUInt16LE(at + 10),
      packed: data.readUInt32LE(at + 20),
      unpacked: data.readUInt32LE(at + 24),
      name: data.subarray(at + 46, at + 46 + nameLength).toString('utf8'),
      offset: data.readUInt32LE(at + 42),
    });
    at += skip;
  }
  return entries;
}

/** The entry's bytes, never more than its declared size: too_large when it would unpack to more. */
function unpack(data: Buffer, entry: Entry): Buffer | 'not_zip' | 'too_large' {
  const at = entry.offset;
  if (at + 30 > data.length || data.readUInt32LE(at) !== LOCAL) return 'not_zip';
  const from = at + 30 + data.readUInt16LE(at + 26) + data.readUInt16LE(at + 28);
  const packed = data.subarray(from, from + entry.packed);
  if (packed.length !== entry.packed) return 'not_zip';
  if (entry.method === 0) return entry.packed === entry.unpacked ? packed : 'not_zip';
  if (entry.method !== 8) return 'not_zip';
  try {
    // One byte over the declared size is enough to know the directory understates it.
    const out = inflateRawSync(packed, { maxOutputLength: entry.unpacked + 1 });
    if (out.length > entry.unpacked) return 'too_large';
    return out.length === entry.unpacked ? out : 'not_zip';
  } catch (error) {
    return (error as { code?: string }).code === 'ERR_BUFFER_TOO_LARGE' ? 'too_large' : 'not_zip';
  }
}

/** Checks the archive against the limits; returns the entries named by `keep`, unpacked. */
export function checkZip(
  data: Buffer,
  limits: ZipLimits,
  keep: (name: string) => boolean = () => false,
): ZipCheck {
  if (data.length < 22) return { ok: false, reason: 'not_zip' };
  const entries = readDirectory(data);
  if (typeof entries === 'string') return { ok: false, reason: entries };
  if (entries.length > limits.maxEntries) return { ok: false, reason: 'too_large' };
  let unpackedBytes = 0;
  let packedBytes = 0;
  for (const entry of entries) {
    if (entry.packed === ZIP64 || entry.unpacked === ZIP64)
      return { ok: false, reason: 'too_large' };
    unpackedBytes += entry.unpacked;
    packedBytes += entry.packed;
  }
  if (unpackedBytes > limits.maxUnpackedBytes) return { ok: false, reason: 'too_large' };
  if (unpackedBytes > RATIO_FLOOR && unpackedBytes > limits.maxRatio * Math.max(1, packedBytes)) {
    return { ok: false, reason: 'too_large' };
  }
  const kept = new Map<string, Buffer>();
  for (const entry of entries) {
    // Every entry is inflated once under its cap: a directory that understates a size is a
    // bomb the parser would inflate in full.
    const bytes = unpack(data, entry);
    if (typeof bytes === 'string') return { ok: false, reason: bytes };
    if (keep(entry.name)) kept.set(entry.name, bytes);
  }
  return { ok: true, unpackedBytes, entries: kept };
}

/** The archive's checks of `checkZip` on its declared sizes, before any entry is read. */
function checkSizes(entries: Entry[], limits: ZipLimits): 'too_large' | undefined {
  if (entries.length > limits.maxEntries) return 'too_large';
  let unpackedBytes = 0;
  let packedBytes = 0;
  for (const entry of entries) {
    if (entry.packed === ZIP64 || entry.unpacked === ZIP64) return 'too_large';
    unpackedBytes += entry.unpacked;
    packedBytes += entry.packed;
  }
  if (unpackedBytes > limits.maxUnpackedBytes) return 'too_large';
  if (unpackedBytes > RATIO_FLOOR && unpackedBytes > limits.maxRatio * Math.max(1, packedBytes)) {
    return 'too_large';
  }
  return undefined;
}

export type ZipFile =
  | { ok: true; names: string[]; read(name: string): Promise<Buffer> }
  | { ok: false; reason: 'not_zip' | 'too_large' };

/**
 * An archive on disk, checked like `checkZip` against the limits on its directory, whose
 * entries named by `keep` are then read one at a time (each inflated under its declared size):
 * a scan of hundreds of megabytes is never held whole. Entries not kept are never read. Call
 * `close` when done.
 */
export async function openZipFile(
  file: string,
  limits: ZipLimits,
  keep: (name: string) => boolean,
): Promise<ZipFile & { close(): Promise<void> }> {
  const handle = await open(file, 'r');
  const close = () => handle.close();
  const failed = async (reason: 'not_zip' | 'too_large') => {
    await close();
    return { ok: false as const, reason, close: async () => undefined };
  };
  const { size } = await handle.stat();
  if (size < 22) return failed('not_zip');
  // The end record and its comment, then the directory it points at.
  const tailFrom = Math.max(0, size - 22 - 65_535);
  const tail = Buffer.alloc(size - tailFrom);
  await handle.read(tail, 0, tail.length, tailFrom);
  const end = findEnd(tail);
  if (end < 0) return failed('not_zip');
  const dirStart = tail.readUInt32LE(end + 16);
  if (dirStart === ZIP64) return failed('too_large');
  if (dirStart > tailFrom + end) return failed('not_zip');
  const dir = Buffer.alloc(size - dirStart);
  await handle.read(dir, 0, dir.length, dirStart);
  const entries = readDirectory(dir, dirStart);
  if (typeof entries === 'string') return failed(entries);
  const tooLarge = checkSizes(entries, limits);
  if (tooLarge) return failed(tooLarge);
  const byName = new Map(entries.filter((e) => keep(e.name)).map((e) => [e.name, e]));
  return {
    ok: true,
    names: [...byName.keys()],
    close,
    async read(name) {
      const entry = byName.get(name);
      if (!entry) throw new Error(`no entry ${name}`);
      const head = Buffer.alloc(30);
      await handle.read(head, 0, 30, entry.offset);
      if (head.readUInt32LE(0) !== LOCAL) throw new Error('not_zip');
      const skip = 30 + head.readUInt16LE(26) + head.readUInt16LE(28);
      // The local header and the packed bytes, read as if they were all of the archive.
      const part = Buffer.alloc(skip + entry.packed);
      const { bytesRead } = await handle.read(part, 0, part.length, entry.offset);
      const bytes = unpack(part.subarray(0, bytesRead), { ...entry, offset: 0 });
      if (typeof bytes === 'string') throw new Error(bytes);
      return bytes;
    },
  };
}
