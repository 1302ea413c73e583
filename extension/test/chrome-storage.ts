// chrome.storage.local for unit tests of the service worker's modules: a plain object behind the same
// three calls, copied in and out as the real storage serializes. The real one is exercised by e2e.test.ts.

/** The stand-in's `local` area, over `storage` (changed in place, so a test reads and seeds it directly). */
export function localArea(storage: Record<string, unknown>) {
  return {
    async get() {
      return structuredClone(storage);
    },
    async set(values: Record<string, unknown>) {
      Object.assign(storage, structuredClone(values));
    },
    async remove(keys: string[]) {
      for (const k of keys) delete storage[k];
    },
  };
}
