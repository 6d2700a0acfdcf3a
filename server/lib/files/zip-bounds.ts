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
  // The end record is 22 bytes plus a comment of at most 65,535.
  for (let at = data.length - 22; at >= Math.max(0, data.length - 22 - 65_535); at -= 1) {
    if (data.readUInt32LE(at) === EOCD) return at;
  }
  return -1;
}

function readDirectory(data: Buffer): Entry[] | 'not_zip' | 'too_large' {
  const end = findEnd(data);
  if (end < 0) return 'not_zip';
  const count = data.readUInt16LE(end + 10);
  const size = data.readUInt32LE(end + 12);
  const start = data.readUInt32LE(end + 16);
  if (count === 0xffff || size === ZIP64 || start === ZIP64) return 'too_large';
  if (start + size > end) return 'not_zip';
  const entries: Entry[] = [];
  let at = start;
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
