/* static/js/offline_logic.js under node's test runner: the deal form read into the deal
   API's JSON, the state the page stands on with deals in the outbox, and what "keep this
   phone's deals" sends. */
"use strict";

const test = require("node:test");
const assert = require("node:assert/strict");
const path = require("node:path");
const Logic = require(path.join(__dirname, "..", "..", "static", "js", "offline_logic.js"));

const GAME = { sides: ["A", "B"], meld_rows: 3 };

/** A form's fields as the page reads them: empty fields answer null. */
function form(fields) { return (name) => (name in fields ? fields[name] : null); }

test("a passed deal is only that", () => {
  assert.deepEqual(Logic.readDeal(form({ passed: "on", maker_seat: "1", points_A: "30" }), GAME), {
    data: { passed: true }, maker_seat: null,
  });
});

test("a played deal: the maker's side from the seat, trump, bidding, points, last trick", () => {
  const read = Logic.readDeal(form({
    maker_seat: "3", round: "2", trump: "hearts", turned: "spades",
    points_A: "62", points_B: "100", last_trick: "B",
  }), GAME);
  assert.deepEqual(read, {
    data: {
      maker: "B", trump: "hearts", bidding: { round: 2, turned: "spades" },
      points: { A: 62, B: 100 }, last_trick: "B",
    },
    maker_seat: 3,
  });
});

test("in the first round the turned card is trump when no trump is picked", () => {
  const { data } = Logic.readDeal(form({ maker_seat: "0", round: "1", turned: "clubs" }), GAME);
  assert.equal(data.trump, "clubs");
  assert.deepEqual(data.bidding, { round: 1, turned: "clubs" });
});

test("melds go to the side of the player's seat; empty meld rows are left out", () => {
  const { data } = Logic.readDeal(form({
    maker_seat: "0",
    meld_0_kind: "run-3", meld_0_seat: "2", meld_0_suit: "hearts", meld_0_top: "K",
    meld_1_kind: "four-J", meld_1_seat: "1",
    meld_2_kind: "run-4", // no seat: not a meld yet
  }), GAME);
  assert.deepEqual(data.melds, {
    A: [{ kind: "sequence", suit: "hearts", top: "K", length: 3, player: 2 }],
    B: [{ kind: "four", rank: "J", player: 1 }],
  });
});

test("tricks and the bell are read when given", () => {
  const { data } = Logic.readDeal(form({ maker_seat: "1", tricks_A: "5", tricks_B: "3", bell: "2" }), GAME);
  assert.deepEqual(data.tricks, { A: 5, B: 3 });
  assert.equal(data.bell, "A");
});

test("a renege with no points sends no points; with points it sends both", () => {
  const without = Logic.readDeal(form({ maker_seat: "0", renege: ["B"] }), GAME).data;
  assert.deepEqual(without.renege, ["B"]);
  assert.equal("points" in without, false);
  const withPoints = Logic.readDeal(form({ maker_seat: "0", renege: "A", points_A: "10" }), GAME).data;
  assert.deepEqual(withPoints.renege, ["A"]);
  assert.deepEqual(withPoints.points, { A: 10 });
});

test("a number that is not whole is passed on as typed, for the server to refuse", () => {
  const { data } = Logic.readDeal(form({ maker_seat: "0", points_A: "1.5", points_B: "-4" }), GAME);
  assert.deepEqual(data.points, { A: "1.5", B: -4 });
});

const BASE = { number: 4, totals: { A: 300, B: 250 }, dealer: 1 };

test("with nothing in the outbox the page stands on the server's state", () => {
  assert.equal(Logic.stateWithOutbox(BASE, []), BASE);
});

test("the outbox's last deal past the server's gives the state, corrections aside", () => {
  const after6 = { number: 6, totals: { A: 400, B: 260 } };
  const entries = [
    { number: 5, after: { number: 5 } },
    { number: 6, after: after6 },
    { number: 2, kind: "correction", after: { number: 99 } },
  ];
  assert.equal(Logic.stateWithOutbox(BASE, entries), after6);
});

test("a deal the server already counts, or one without the engine's answer, leaves the server's state", () => {
  assert.equal(Logic.stateWithOutbox(BASE, [{ number: 4, after: { number: 4 } }]), BASE);
  assert.equal(Logic.stateWithOutbox(BASE, [{ number: 5 }]), BASE);
});

test("keeping this phone's deals corrects the server's at their numbers, records the rest, deletes the server's later ones latest first", () => {
  const mine = [{ number: 5, key: "k5" }, { number: 6, key: "k6" }];
  const theirs = [{ id: 50, number: 5 }, { id: 80, number: 8 }, { id: 70, number: 7 }, { id: 40, number: 4 }];
  const plan = Logic.keepMinePlan(mine, theirs);
  assert.deepEqual(plan.map((s) => [s.method, s.deal ?? s.number]), [
    ["PUT", 50], ["POST", 6], ["DELETE", 80], ["DELETE", 70],
  ]);
  assert.equal(plan[0].entry, mine[0]);
  assert.equal(plan[1].entry, mine[1]);
});

test("the clash table lists both phones' numbers from the clash on, and the server's latest deal", () => {
  const held = { number: 5 };
  const mine = [{ number: 6 }, { number: 5 }];
  const theirs = { 3: { number: 3 }, 5: { number: 5 }, 7: { number: 7 } };
  const rows = Logic.clashRows(held, mine, theirs);
  assert.deepEqual(rows.numbers, [5, 6, 7]);
  assert.equal(rows.last, theirs[7]);
});

test("while the server's deals are read the clash table shows this phone's alone", () => {
  assert.deepEqual(Logic.clashRows({ number: 5 }, [{ number: 5 }], null), { numbers: [5], last: null });
});

const KLAVERJAS = { sides: ["A", "B"], meld_rows: 3, klaverjas: true, claim_rows: 8 };

test("a klaverjas deal: one pair's points with the last trick, the other has the rest of 162", () => {
  const read = Logic.readDeal(form({
    maker_seat: "1", trump: "hearts", points_B: "90", last_trick: "B", dealer: "0",
    claim_0_side: "B", claim_0_kind: "run-3", claim_0_trick: "2", roem_A: "20",
  }), KLAVERJAS);
  assert.deepEqual(read, {
    data: {
      maker: "B", trump: "hearts", points_with_last: { B: 90, A: 72 }, last_trick: "B",
      roem: { B: [{ trick: 2, kind: "run-3" }], A: 20 }, dealer: 0,
    },
    maker_seat: 1,
  });
});

test("a klaverjas pit needs no points: 162, the last trick and all eight tricks", () => {
  const { data } = Logic.readDeal(form({ maker_seat: "0", trump: "clubs", pit_A: "on" }), KLAVERJAS);
  assert.deepEqual(data.points_with_last, { A: 162, B: 0 });
  assert.equal(data.last_trick, "A");
  assert.deepEqual(data.tricks, { A: 8, B: 0 });
});

test("a klaverjas renege needs no points", () => {
  const { data } = Logic.readDeal(form({ maker_seat: "0", trump: "clubs", renege: ["B"] }), KLAVERJAS);
  assert.deepEqual(data, { maker: "A", trump: "clubs", renege: ["B"] });
});
