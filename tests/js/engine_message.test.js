/* The rules engine's errors on the phone in the page's language (static/js/offline_logic.js:
   formatTemplate and engineMessage), as core.i18n.translated does on the server. */
"use strict";

const test = require("node:test");
const assert = require("node:assert/strict");
const path = require("node:path");
const Logic = require(path.join(__dirname, "..", "..", "static", "js", "offline_logic.js"));

const ERROR = {
  field: "points.B",
  message: "Side B took no trick, so it cannot have 12.",
  template: "Side {side} took no trick, so it cannot have {card_points}.",
  params: { side: "B", card_points: 12 },
};

/** A catalog of one language: the translations it has, the msgid itself otherwise. */
function catalog(entries) { return (text) => (text in entries ? entries[text] : text); }

test("an error is shown from its translated template, filled with its values", () => {
  const dutch = catalog({
    "Side {side} took no trick, so it cannot have {card_points}.":
      "Partij {side} haalde geen slag en kan dus geen {card_points} hebben.",
  });
  assert.equal(Logic.engineMessage(ERROR, dutch), "Partij B haalde geen slag en kan dus geen 12 hebben.");
});

test("a translation may put the values in another order", () => {
  const german = catalog({
    "Side {side} took no trick, so it cannot have {card_points}.":
      "{card_points} Punkte sind unmöglich: Partei {side} machte keinen Stich.",
  });
  assert.equal(Logic.engineMessage(ERROR, german), "12 Punkte sind unmöglich: Partei B machte keinen Stich.");
});

test("without a catalog the English template gives the English message", () => {
  assert.equal(Logic.engineMessage(ERROR, undefined), ERROR.message);
  assert.equal(Logic.engineMessage(ERROR, (text) => text), ERROR.message);
});

test("a translation with a placeholder the values lack falls back to the English text", () => {
  const broken = catalog({
    "Side {side} took no trick, so it cannot have {card_points}.": "Strana {strana} nevzala žádný štych.",
  });
  assert.equal(Logic.engineMessage(ERROR, broken), ERROR.message);
});

test("an error without a template (the server's, an old engine's) shows its message", () => {
  assert.equal(Logic.engineMessage({ field: "", message: "The server answered 502." }, (t) => "x" + t),
    "The server answered 502.");
});

test("Python's format: doubled braces, repr of a text, grouped thousands", () => {
  assert.equal(Logic.formatTemplate("{{literal}} {name}", { name: "x" }), "{literal} x");
  assert.equal(Logic.formatTemplate("Dealer {dealer!r} is not a seat.", { dealer: "7" }), "Dealer '7' is not a seat.");
  assert.equal(Logic.formatTemplate("at most {most:,}", { most: 1000000 }), "at most 1,000,000");
  assert.equal(Logic.formatTemplate("a lone { brace", {}), null);
});
