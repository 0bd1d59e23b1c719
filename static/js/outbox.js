/* The outbox: deals recorded with no network, kept in IndexedDB until the server has them.

   Loaded by the deal page and by the service worker (importScripts), so Background Sync and
   the page send the same way. An entry is one deal of one game: its Idempotency-Key (the
   entry's key), the deal's number at the table, the deal's JSON as the deal API takes it,
   and a state:
     "waiting"   not sent yet (or the network failed): sent again on the next chance;
     "refused"   the server said no (400, 403, 409 other than a number clash): kept, shown
                 with the server's reason, until a person sends it again or discards it;
     "conflict"  the server already holds a deal at that number (another phone): kept,
                 shown, until a person keeps one sequence.
   A correction of a deal the server holds (``kind: "correction"``) is an entry too: a PUT
   to that deal's API URL with its own Idempotency-Key.
   A game's entries are sent one at a time in the order they were made (a correction after
   the deals recorded before it); a refused or clashing entry holds back the ones after it. The server re-checks every deal; nothing here scores one. */
(function (root) {
  "use strict";
  var DB_NAME = "clabber-offline";
  var STORE = "outbox";
  var dbPromise = null;
  // Django's JavaScript catalog on the deal page; the English text in the service worker.
  function _(text) { return typeof root.gettext === "function" ? root.gettext(text) : text; }

  function open() {
    if (dbPromise) { return dbPromise; }
    dbPromise = new Promise(function (resolve, reject) {
      var request = root.indexedDB.open(DB_NAME, 1);
      request.onupgradeneeded = function () {
        var store = request.result.createObjectStore(STORE, { keyPath: "key" });
        store.createIndex("game", "game");
      };
      request.onsuccess = function () { resolve(request.result); };
      request.onerror = function () { dbPromise = null; reject(request.error); };
    });
    return dbPromise;
  }

  function run(mode, work) {
    return open().then(function (db) {
      return new Promise(function (resolve, reject) {
        var tx = db.transaction(STORE, mode);
        var result = work(tx.objectStore(STORE));
        tx.oncomplete = function () { resolve(result && "result" in result ? result.result : result); };
        tx.onerror = function () { reject(tx.error); };
      });
    });
  }

  function inOrder(a, b) { return a.created - b.created || a.number - b.number; }

  /* Every entry of one game (``game`` is its URL-unique "club/id"), in number order. */
  function list(game) {
    return run("readonly", function (store) {
      return game ? store.index("game").getAll(game) : store.getAll();
    }).then(function (entries) { return (entries || []).sort(inOrder); });
  }
  function put(entry) { return run("readwrite", function (store) { store.put(entry); }); }
  function remove(key) { return run("readwrite", function (store) { store.delete(key); }); }

  /* Entries are sent in the order they were saved: two saved in one millisecond (a deal,
     then a correction of an earlier deal) still get distinct, rising times. */
  var lastCreated = 0;
  function add(entry) {
    entry.state = "waiting";
    entry.created = lastCreated = Math.max(Date.now(), lastCreated + 1);
    entry.message = "";
    return put(entry);
  }

  function firstMessage(body, fallback) {
    var errors = body && body.errors;
    if (errors && errors.length) {
      return errors.map(function (e) { return e.message; }).join(" ");
    }
    return (body && body.detail) || fallback;
  }

  /* Send one entry: "sent", "retry" (no network or the server is down) or the entry as
     changed (refused or conflict). */
  function send(entry) {
    var correction = entry.kind === "correction";
    var url = correction ? entry.url : entry.url + (entry.url.indexOf("?") < 0 ? "?" : "&") + "number=" + entry.number;
    var headers = { "Content-Type": "application/json", "Idempotency-Key": entry.key, "Accept": "application/json" };
    if (entry.csrf) { headers["X-CSRFToken"] = entry.csrf; }
    if (entry.table) { headers.Authorization = "Table " + entry.table; }
    return root.fetch(url, {
      method: correction ? "PUT" : "POST", headers: headers, body: JSON.stringify(entry.body),
      credentials: "same-origin", redirect: "error"
    }).then(function (response) {
      if (response.ok) { return "sent"; }
      if (response.status >= 500 || response.status === 429) { return "retry"; }
      return response.json().catch(function () { return {}; }).then(function (body) {
        var clash = !correction && response.status === 409 && body.errors && body.errors.some(function (e) { return e.field === "number"; });
        entry.state = clash ? "conflict" : "refused";
        entry.status = response.status;
        entry.message = firstMessage(body, _("The server answered %(status)s.").replace("%(status)s", response.status));
        return entry;
      });
    }, function () { return "retry"; });
  }

  var flushing = {};
  /* Send a game's waiting deals in order; stops at the first that is not sent. Answers
     {sent: n, held: entry or null, offline: bool}. */
  function flush(game) {
    if (flushing[game]) { return flushing[game]; }
    var report = { sent: 0, held: null, offline: false };
    flushing[game] = list(game).then(function (entries) {
      var step = function (i) {
        if (i >= entries.length) { return report; }
        var entry = entries[i];
        if (entry.state !== "waiting") { report.held = entry; return report; }
        return send(entry).then(function (outcome) {
          if (outcome === "sent") { report.sent += 1; return remove(entry.key).then(function () { return step(i + 1); }); }
          if (outcome === "retry") { report.offline = true; return report; }
          report.held = outcome;
          return put(outcome).then(function () { return report; });
        });
      };
      return step(0);
    }).then(function (result) { delete flushing[game]; return result; },
            function (error) { delete flushing[game]; throw error; });
    return flushing[game];
  }

  /* Every game's outbox (Background Sync). */
  function flushAll() {
    return list(null).then(function (entries) {
      var games = [];
      entries.forEach(function (e) { if (games.indexOf(e.game) < 0) { games.push(e.game); } });
      return Promise.all(games.map(flush));
    });
  }

  root.ClabberOutbox = { open: open, list: list, add: add, put: put, remove: remove, flush: flush, flushAll: flushAll };
  // node's test runner (tests/js/) loads it with require(), its IndexedDB and fetch stand-ins on globalThis.
  if (typeof module === "object" && module.exports) { module.exports = root.ClabberOutbox; }
})(typeof self !== "undefined" ? self : typeof window !== "undefined" ? window : globalThis);
