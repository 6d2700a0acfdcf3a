import {
  type AnswerStore,
  type AttemptSnapshot,
  memoryAnswerStore,
  type PendingAnswer,
} from './answer-store.js';

/**
 * A small promise wrapper over IndexedDB for the player: answers waiting for the server, the
 * last seen attempt (to reopen it without network) and the statement images, all keyed by
 * `attemptKey` (student and test: a shared lab computer never mixes two students' answers).
 */

const DB_NAME = 'podium-player';
const DB_VERSION = 1;
const PENDING = 'pending';
const ATTEMPTS = 'attempts';
const FILES = 'files';

type PendingRow = PendingAnswer & { attemptKey: string };
type AttemptRow = AttemptSnapshot & { attemptKey: string };
type FileRow = { attemptKey: string; fileId: string; blob: Blob };

/** An IDBRequest as a promise. */
export const requestResult = <T>(request: IDBRequest<T>) =>
  new Promise<T>((resolve, reject) => {
    request.onsuccess = () => resolve(request.result);
    request.onerror = () => reject(request.error);
  });

/** Resolves when the transaction has committed (not merely when its requests succeeded). */
export const transactionDone = (tx: IDBTransaction) =>
  new Promise<void>((resolve, reject) => {
    tx.oncomplete = () => resolve();
    tx.onerror = () => reject(tx.error);
    tx.onabort = () => reject(tx.error ?? new Error('transaction aborted'));
  });

let opening: Promise<IDBDatabase> | undefined;

function openDatabase(): Promise<IDBDatabase> {
  if (opening) return opening;
  opening = new Promise<IDBDatabase>((resolve, reject) => {
    if (typeof indexedDB === 'undefined') {
      reject(new Error('IndexedDB is not available'));
      return;
    }
    const request = indexedDB.open(DB_NAME, DB_VERSION);
    request.onupgradeneeded = () => {
      const db = request.result;
      if (!db.objectStoreNames.contains(PENDING)) {
        db.createObjectStore(PENDING, { keyPath: ['attemptKey', 'itemId'] });
      }
      if (!db.objectStoreNames.contains(ATTEMPTS)) {
        db.createObjectStore(ATTEMPTS, { keyPath: 'attemptKey' });
      }
      if (!db.objectStoreNames.contains(FILES)) {
        db.createObjectStore(FILES, { keyPath: ['attemptKey', 'fileId'] });
      }
    };
    request.onsuccess = () => {
      const db = request.result;
      // Another tab upgrading the database must not be blocked by this one.
      db.onversionchange = () => {
        db.close();
        opening = undefined;
      };
      resolve(db);
    };
    request.onerror = () => reject(request.error);
    request.onblocked = () => reject(new Error('IndexedDB open blocked'));
  });
  opening.catch(() => {
    opening = undefined;
  });
  return opening;
}

/**
 * Runs `work` in one transaction and resolves with its result once committed. Answers are
 * written with strict durability: an acknowledged write is on disk, not in a cache.
 */
async function inTransaction<T>(
  stores: string[],
  mode: IDBTransactionMode,
  work: (tx: IDBTransaction) => Promise<T>,
): Promise<T> {
  const db = await openDatabase();
  const tx = db.transaction(stores, mode, {
    durability: mode === 'readwrite' ? 'strict' : 'default',
  });
  const done = transactionDone(tx);
  try {
    const result = await work(tx);
    await done;
    return result;
  } catch (error) {
    done.catch(() => undefined);
    try {
      tx.abort();
    } catch {
      // Already finished or aborted.
    }
    throw error;
  }
}

const attemptRange = (attemptKey: string) =>
  IDBKeyRange.bound([attemptKey, ''], [attemptKey, '\uffff']);

const stripKey = <T extends { attemptKey: string }>({ attemptKey: _, ...rest }: T) => rest;

/** The IndexedDB store of one attempt; rejects when the browser refuses IndexedDB. */
export async function openIndexedDbStore(attemptKey: string): Promise<AnswerStore> {
  await openDatabase();
  return {
    isDurable: true,
    list: () =>
      inTransaction([PENDING], 'readonly', async (tx) => {
        const rows = await requestResult(
          tx.objectStore(PENDING).getAll(attemptRange(attemptKey)) as IDBRequest<PendingRow[]>,
        );
        return rows.map(stripKey);
      }),
    put: (answer) =>
      inTransaction([PENDING], 'readwrite', async (tx) => {
        const store = tx.objectStore(PENDING);
        const kept = (await requestResult(store.get([attemptKey, answer.itemId]))) as
          | PendingRow
          | undefined;
        if (!kept || kept.seq < answer.seq)
          store.put({ ...answer, attemptKey } satisfies PendingRow);
      }),
    ack: (itemId, seq) =>
      inTransaction([PENDING], 'readwrite', async (tx) => {
        const store = tx.objectStore(PENDING);
        const kept = (await requestResult(store.get([attemptKey, itemId]))) as
          | PendingRow
          | undefined;
        if (kept && kept.seq <= seq) store.delete([attemptKey, itemId]);
      }),
    readSnapshot: () =>
      inTransaction([ATTEMPTS], 'readonly', async (tx) => {
        const row = (await requestResult(tx.objectStore(ATTEMPTS).get(attemptKey))) as
          | AttemptRow
          | undefined;
        return row && stripKey(row);
      }),
    writeSnapshot: (snapshot) =>
      inTransaction([ATTEMPTS], 'readwrite', async (tx) => {
        tx.objectStore(ATTEMPTS).put({ ...snapshot, attemptKey } satisfies AttemptRow);
      }),
    clear: () =>
      inTransaction([PENDING, ATTEMPTS, FILES], 'readwrite', async (tx) => {
        tx.objectStore(PENDING).delete(attemptRange(attemptKey));
        tx.objectStore(FILES).delete(attemptRange(attemptKey));
        tx.objectStore(ATTEMPTS).delete(attemptKey);
      }),
  };
}

/** The attempt's store: IndexedDB when the browser allows it, else memory (and the screen says so). */
export const openAnswerStore = (attemptKey: string): Promise<AnswerStore> =>
  openIndexedDbStore(attemptKey).catch(() => memoryAnswerStore());

/** A statement image kept with the attempt, so a reload without network still shows it. */
export async function readCachedFile(
  attemptKey: string,
  fileId: string,
): Promise<Blob | undefined> {
  try {
    return await inTransaction([FILES], 'readonly', async (tx) => {
      const row = (await requestResult(tx.objectStore(FILES).get([attemptKey, fileId]))) as
        | FileRow
        | undefined;
      return row?.blob;
    });
  } catch {
    return undefined;
  }
}

export async function cacheFile(attemptKey: string, fileId: string, blob: Blob): Promise<void> {
  try {
    await inTransaction([FILES], 'readwrite', async (tx) => {
      tx.objectStore(FILES).put({ attemptKey, fileId, blob } satisfies FileRow);
    });
  } catch {
    // Only a convenience: the image is fetched again when the network allows.
  }
}

/**
 * Whether this browser keeps data in IndexedDB (the connection check): writes, reads back and
 * deletes a value in a database of its own.
 */
export async function checkIndexedDb(): Promise<boolean> {
  if (typeof indexedDB === 'undefined') return false;
  const name = 'podium-check';
  try {
    const db = await new Promise<IDBDatabase>((resolve, reject) => {
      const request = indexedDB.open(name, 1);
      request.onupgradeneeded = () => request.result.createObjectStore('probe');
      request.onsuccess = () => resolve(request.result);
      request.onerror = () => reject(request.error);
      request.onblocked = () => reject(new Error('blocked'));
    });
    const value = `probe-${Math.random()}`;
    const write = db.transaction('probe', 'readwrite', { durability: 'strict' });
    write.objectStore('probe').put(value, 'key');
    await transactionDone(write);
    const read = db.transaction('probe', 'readonly');
    const back = await requestResult(read.objectStore('probe').get('key'));
    db.close();
    await requestResult(indexedDB.deleteDatabase(name)).catch(() => undefined);
    return back === value;
  } catch {
    return false;
  }
}
