/* static/js/outbox.js under node's test runner: the order deals are sent in, what each
   answer of the server does to an entry, and that a held entry holds back the ones after
   it. IndexedDB and fetch are stand-ins (fake_indexeddb.js and a recording fetch). */
"use strict";

const test = require("node:test");
const assert = require("node:assert/strict");
const path = require("node:path");
const { FakeIndexedDB } = require("./fake_indexeddb.js");

const idb = new FakeIndexedDB();
globalThis.indexedDB = idb;
let answers = [];
let sent = [];
globalThis.fetch = async (url, init) => {
  sent.push({ url, method: init.method, headers: init.headers, body: JSON.parse(init.body) });
  const answer = answers.length ? answers.shift() : { status: 201, body: {} };
  if (answer === "offline") { throw new TypeError("Failed to fetch"); }
  return {
    ok: answer.status >= 200 && answer.status < 300,
    status: answer.status,
    json: async () => {
      if (answer.body === undefined) { throw new SyntaxError("not JSON"); }
      return answer.body;
    },
  };
};
const Outbox = require(path.join(__dirname, "..", "..", "static", "js", "outbox.js"));

const GAME = "club/7";
const URL = "/api/clubs/club/games/7/deals/";

function deal(number, extra = {}) {
  return { key: `key-${GAME}-${number}`, game: GAME, number, url: URL, body: { points: { A: number } }, ...extra };
}

function stored() { return idb.rows("clabber-offline", "outbox"); }

test.beforeEach(async () => {
  await Outbox.open();
  idb.clear();
  answers = [];
  sent = [];
});

test("a new entry waits, with no message", async () => {
  await Outbox.add(deal(1));
  const [entry] = await Outbox.list(GAME);
  assert.equal(entry.state, "waiting");
  assert.equal(entry.message, "");
  assert.equal(typeof entry.created, "number");
});

test("a game's deals are sent in the order they were made, each once, then leave the outbox", async () => {
  await Outbox.add(deal(3));
  await Outbox.add(deal(4));
  await Outbox.add(deal(5));
  const report = await Outbox.flush(GAME);
  assert.deepEqual(report, { sent: 3, held: null, offline: false });
  assert.deepEqual(sent.map((r) => [r.method, r.url]), [
    ["POST", URL + "?number=3"], ["POST", URL + "?number=4"], ["POST", URL + "?number=5"],
  ]);
  assert.deepEqual(sent.map((r) => r.headers["Idempotency-Key"]), ["key-club/7-3", "key-club/7-4", "key-club/7-5"]);
  assert.deepEqual(stored(), []);
});

test("only the flushed game's deals are sent", async () => {
  await Outbox.add(deal(1));
  await Outbox.add({ ...deal(1), key: "other", game: "club/8", url: "/api/clubs/club/games/8/deals/" });
  await Outbox.flush(GAME);
  assert.deepEqual(sent.map((r) => r.url), [URL + "?number=1"]);
  assert.deepEqual(stored().map((e) => e.key), ["other"]);
});

test("a table phone's entry carries its table token and a page's its CSRF token", async () => {
  await Outbox.add(deal(1, { table: "t0k3n" }));
  await Outbox.add(deal(2, { csrf: "c5rf" }));
  await Outbox.flush(GAME);
  assert.equal(sent[0].headers.Authorization, "Table t0k3n");
  assert.equal(sent[0].headers["X-CSRFToken"], undefined);
  assert.equal(sent[1].headers["X-CSRFToken"], "c5rf");
  assert.equal(sent[1].headers.Authorization, undefined);
});

test("a correction is a PUT to its deal's URL, after the deals made before it", async () => {
  await Outbox.add(deal(2));
  await Outbox.add({ key: "fix-1", game: GAME, number: 1, kind: "correction", url: URL + "41/", body: { passed: true } });
  await Outbox.flush(GAME);
  assert.deepEqual(sent.map((r) => [r.method, r.url]), [["POST", URL + "?number=2"], ["PUT", URL + "41/"]]);
  assert.deepEqual(sent[1].body, { passed: true });
});

for (const [what, answer] of [
  ["no network", "offline"],
  ["a server error", { status: 502, body: {} }],
  ["a throttled request", { status: 429, body: {} }],
]) {
  test(`${what} keeps the deal waiting and sends nothing after it`, async () => {
    await Outbox.add(deal(1));
    await Outbox.add(deal(2));
    answers = [answer];
    const report = await Outbox.flush(GAME);
    assert.deepEqual(report, { sent: 0, held: null, offline: true });
    assert.equal(sent.length, 1);
    assert.deepEqual(stored().map((e) => [e.number, e.state]), [[1, "waiting"], [2, "waiting"]]);
  });
}

test("a deal number the server already holds is a conflict that holds back the later deals", async () => {
  await Outbox.add(deal(4));
  await Outbox.add(deal(5));
  answers = [{ status: 409, body: { errors: [{ field: "number", message: "Deal 4 is already recorded." }] } }];
  const report = await Outbox.flush(GAME);
  assert.equal(report.sent, 0);
  assert.equal(report.held.state, "conflict");
  assert.equal(report.held.status, 409);
  assert.equal(report.held.message, "Deal 4 is already recorded.");
  assert.equal(sent.length, 1);
  assert.deepEqual(stored().map((e) => [e.number, e.state]), [[4, "conflict"], [5, "waiting"]]);
});

test("a refusal keeps the entry with every reason the server gave", async () => {
  await Outbox.add(deal(1));
  answers = [{ status: 400, body: { errors: [{ field: "points", message: "Too many points." }, { message: "Check the melds." }] } }];
  const report = await Outbox.flush(GAME);
  assert.equal(report.held.state, "refused");
  assert.equal(report.held.message, "Too many points. Check the melds.");
});

test("a clash on a correction is a refusal, not a conflict of sequences", async () => {
  await Outbox.add({ key: "fix", game: GAME, number: 1, kind: "correction", url: URL + "9/", body: {} });
  answers = [{ status: 409, body: { errors: [{ field: "number", message: "Changed meanwhile." }] } }];
  const report = await Outbox.flush(GAME);
  assert.equal(report.held.state, "refused");
});

test("an answer that is not JSON is refused with its status said", async () => {
  await Outbox.add(deal(1));
  answers = [{ status: 403 }];
  const report = await Outbox.flush(GAME);
  assert.equal(report.held.message, "The server answered 403.");
});

test("a held entry holds back the outbox until a person acts, without asking the server", async () => {
  await Outbox.add(deal(1));
  await Outbox.add(deal(2));
  answers = [{ status: 400, body: { detail: "No." } }];
  await Outbox.flush(GAME);
  sent = [];
  const again = await Outbox.flush(GAME);
  assert.equal(sent.length, 0);
  assert.equal(again.held.number, 1);
  assert.equal(again.held.message, "No.");
  // Sent again by a person: waiting once more, and the outbox empties.
  await Outbox.put({ ...again.held, state: "waiting" });
  assert.deepEqual(await Outbox.flush(GAME), { sent: 2, held: null, offline: false });
});

test("two flushes of one game at once send each deal once", async () => {
  await Outbox.add(deal(1));
  const [a, b] = await Promise.all([Outbox.flush(GAME), Outbox.flush(GAME)]);
  assert.equal(sent.length, 1);
  assert.deepEqual(a, b);
});

test("Background Sync's flushAll sends every game's outbox", async () => {
  await Outbox.add(deal(1));
  await Outbox.add({ ...deal(1), key: "other", game: "club/8", url: "/api/clubs/club/games/8/deals/" });
  const reports = await Outbox.flushAll();
  assert.equal(reports.length, 2);
  assert.equal(sent.length, 2);
  assert.deepEqual(stored(), []);
});
