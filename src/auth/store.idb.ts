import { createStore, del, get, set, update, type UseStore } from 'idb-keyval';
import { MemoryCredentialStore, type CredentialStore } from './store.js';

/** IndexedDB database and object store of fx's credentials (not idb-keyval's shared default). */
export const IDB_DATABASE = 'fx';
export const IDB_OBJECT_STORE = 'credentials';

/** The browser store: IndexedDB through idb-keyval. Use {@link openBrowserStore}, which falls back to memory. */
export class IndexedDbCredentialStore implements CredentialStore {
  readonly kind = 'indexeddb';

  constructor(private readonly idb: UseStore) {}

  get<T>(key: string): Promise<T | undefined> {
    return get<T>(key, this.idb);
  }

  set(key: string, value: unknown): Promise<void> {
    return set(key, value, this.idb);
  }

  delete(key: string): Promise<void> {
    return del(key, this.idb);
  }

  async update<T>(key: string, change: (value: T | undefined) => T | undefined): Promise<void> {
    // idb-keyval's update cannot delete: a second step in its own transaction, harmless for our records.
    let deleted = false;
    await update<T | undefined>(
      key,
      (value) => {
        const next = change(value);
        deleted = next === undefined;
        return next;
      },
      this.idb,
    );
    if (deleted) await del(key, this.idb);
  }
}

/**
 * IndexedDB when it works here, else a {@link MemoryCredentialStore}: some browsers refuse IndexedDB in private
 * windows, sandboxed frames or with storage blocked, by throwing or by failing the open. One read decides.
 */
export async function openBrowserStore(): Promise<CredentialStore> {
  try {
    if (typeof indexedDB === 'undefined') return new MemoryCredentialStore();
    const store = new IndexedDbCredentialStore(createStore(IDB_DATABASE, IDB_OBJECT_STORE));
    await store.get('probe');
    return store;
  } catch {
    return new MemoryCredentialStore();
  }
}
