/* An in-memory stand-in for the little of IndexedDB that static/js/outbox.js uses: one
   database of object stores with a key path and single-field indexes; getAll, put and
   delete; a transaction that completes once the work is done. Values are copied in and
   out, as IndexedDB's structured clone does. */
"use strict";

function copy(value) { return value === undefined ? undefined : structuredClone(value); }

function request(result) { return { result: copy(result) }; }

class Store {
  constructor(keyPath) { this.keyPath = keyPath; this.rows = new Map(); this.indexes = {}; }
  createIndex(name, field) { this.indexes[name] = field; }
  getAll() { return request([...this.rows.values()]); }
  put(value) { this.rows.set(value[this.keyPath], copy(value)); return request(value[this.keyPath]); }
  delete(key) { this.rows.delete(key); return request(undefined); }
  index(name) {
    const field = this.indexes[name];
    return { getAll: (v) => request([...this.rows.values()].filter((row) => row[field] === v)) };
  }
}

class FakeIndexedDB {
  constructor() { this.databases = new Map(); this.opened = 0; }

  open(name) {
    const req = {};
    setTimeout(() => {
      this.opened += 1;
      let db = this.databases.get(name);
      const fresh = !db;
      if (fresh) {
        db = {
          stores: {},
          createObjectStore(storeName, { keyPath }) { return (this.stores[storeName] = new Store(keyPath)); },
          transaction(storeName) {
            const tx = { objectStore: () => db.stores[storeName] };
            setTimeout(() => tx.oncomplete && tx.oncomplete(), 0);
            return tx;
          },
        };
        this.databases.set(name, db);
      }
      req.result = db;
      if (fresh && req.onupgradeneeded) { req.onupgradeneeded(); }
      req.onsuccess && req.onsuccess();
    }, 0);
    return req;
  }

  /** Every row of one store (copies), for a test to look at. */
  rows(name, storeName) {
    const db = this.databases.get(name);
    return db ? [...db.stores[storeName].rows.values()].map(copy) : [];
  }

  /** Empty every store: a test starts with nothing in the outbox. */
  clear() {
    for (const db of this.databases.values()) {
      for (const store of Object.values(db.stores)) { store.rows.clear(); }
    }
  }
}

module.exports = { FakeIndexedDB };
