/* The offline deal page's decisions that need no page: what a filled form says as the deal
   API's JSON, which state the page stands on with deals still in the outbox, and what
   "keep this phone's deals" sends. No DOM, no network, no storage: the deal page
   (static/js/offline_entry.js) loads it as a plain script (window.ClabberOfflineLogic) and
   node's test runner with require() (tests/js/), without a bundler. */
(function (root, factory) {
  "use strict";
  if (typeof module === "object" && module.exports) {
    module.exports = factory();
  } else {
    root.ClabberOfflineLogic = factory();
  }
})(typeof self !== "undefined" ? self : this, function () {
  "use strict";

  function isDeal(entry) { return entry.kind !== "correction"; }

  /* The form read into the deal API's JSON (the server's DealForm.to_engine).
     ``value(name)`` answers a field's value as the page reads it: a string, a list of the
     ticked boxes' values, or null when empty. ``game`` gives the sides (in seat order) and
     how many meld rows the form has. Answers {data, maker_seat}. */
  function readDeal(value, game) {
    function whole(name) {
      var v = value(name);
      return v === null || !/^-?\d+$/.test(v) ? v : parseInt(v, 10);
    }
    function sideOf(seat) { return game.sides[seat % game.sides.length]; }

    if (game.klaverjas) { return readKlaverjas(value, game, whole, sideOf); }
    if (value("passed")) { return { data: { passed: true }, maker_seat: null }; }
    var data = {}, makerSeat = whole("maker_seat");
    if (makerSeat !== null) { data.maker = sideOf(makerSeat); }
    var round = whole("round"), turned = value("turned");
    var trump = value("trump") || (round === 1 ? turned : null);
    if (trump) { data.trump = trump; }
    if (round) { data.bidding = { round: round }; if (turned) { data.bidding.turned = turned; } }
    var renege = value("renege");
    var renegeList = renege ? [].concat(renege) : [];
    var points = {}, anyPoints = false;
    game.sides.forEach(function (s) { var p = whole("points_" + s); if (p !== null) { points[s] = p; anyPoints = true; } });
    if (anyPoints || !renegeList.length) { data.points = points; }
    var last = value("last_trick");
    if (last) { data.last_trick = last; }
    var tricks = {}, anyTricks = false;
    game.sides.forEach(function (s) { var t = whole("tricks_" + s); if (t !== null) { tricks[s] = t; anyTricks = true; } });
    if (anyTricks) { data.tricks = tricks; }
    var melds = {}, anyMelds = false;
    for (var i = 0; i < game.meld_rows; i++) {
      var kind = value("meld_" + i + "_kind"), seat = whole("meld_" + i + "_seat");
      if (!kind || seat === null) { continue; }
      var meld = kind.indexOf("run-") === 0
        ? { kind: "sequence", suit: value("meld_" + i + "_suit"), top: value("meld_" + i + "_top"), length: parseInt(kind.slice(4), 10) }
        : { kind: "four", rank: kind.slice(5) };
      meld.player = seat;
      (melds[sideOf(seat)] = melds[sideOf(seat)] || []).push(meld);
      anyMelds = true;
    }
    if (anyMelds) { data.melds = melds; }
    var bell = whole("bell");
    if (bell !== null) { data.bell = sideOf(bell); }
    if (renegeList.length) { data.renege = renegeList; }
    return { data: data, maker_seat: makerSeat };
  }

  /* A klaverjas deal as the tally sheet's form holds it (the server's
     KlaverjasDealForm.to_engine): points with the last trick (one pair's is enough: the
     other has the rest of 162), roem totals or claims per trick, pit, renege, dealer. */
  function readKlaverjas(value, game, whole, sideOf) {
    var sides = game.sides, data = {}, makerSeat = whole("maker_seat");
    if (makerSeat !== null) { data.maker = sideOf(makerSeat); }
    var trump = value("trump");
    if (trump) { data.trump = trump; }
    var pit = sides.filter(function (s) { return value("pit_" + s); })[0] || null;
    var given = {}, count = 0;
    sides.forEach(function (s) { var p = whole("points_" + s); if (p !== null) { given[s] = p; count += 1; } });
    if (pit !== null && !count) {
      sides.forEach(function (s) { given[s] = s === pit ? 162 : 0; });
      count = sides.length;
    }
    if (count === sides.length - 1) {
      var missing = sides.filter(function (s) { return !(s in given); })[0], sum = 0;
      sides.forEach(function (s) { if (s in given) { sum += given[s]; } });
      given[missing] = 162 - sum;
      count += 1;
    }
    var renege = value("renege");
    var renegeList = renege ? [].concat(renege) : [];
    if (count && !(renegeList.length && count < sides.length)) { data.points_with_last = given; }
    var last = value("last_trick") || pit;
    if (last) { data.last_trick = last; }
    if (pit !== null) {
      data.tricks = {};
      sides.forEach(function (s) { data.tricks[s] = s === pit ? 8 : 0; });
    } else {
      var tricks = {}, known = 0;
      sides.forEach(function (s) { var t = whole("tricks_" + s); if (t !== null) { tricks[s] = t; known += 1; } });
      if (known === sides.length - 1) {
        var rest = 8;
        sides.forEach(function (s) { if (s in tricks) { rest -= tricks[s]; } });
        tricks[sides.filter(function (s) { return !(s in tricks); })[0]] = rest;
      }
      if (known) { data.tricks = tricks; }
    }
    var roem = {}, anyRoem = false;
    for (var i = 0; i < (game.claim_rows || 0); i++) {
      var kind = value("claim_" + i + "_kind"), side = value("claim_" + i + "_side");
      if (!kind || !side) { continue; }
      (roem[side] = roem[side] || []).push({ trick: whole("claim_" + i + "_trick"), kind: kind });
      anyRoem = true;
    }
    sides.forEach(function (s) {
      var total = whole("roem_" + s);
      if (!(s in roem) && total) { roem[s] = total; anyRoem = true; }
    });
    if (anyRoem) { data.roem = roem; }
    if (renegeList.length) { data.renege = renegeList; }
    var dealer = whole("dealer");
    if (dealer !== null) { data.dealer = dealer; }
    return { data: data, maker_seat: makerSeat };
  }

  /* The state the page stands on: the engine's answer after the outbox's last deal when
     that deal is past the server's, else the server's (``base``). */
  function stateWithOutbox(base, entries) {
    var deals = entries.filter(isDeal);
    var last = deals.length ? deals[deals.length - 1] : null;
    return last && last.after && last.number > base.number ? last.after : base;
  }

  /* "Keep this phone's deals" from the clashing entry on, as requests in the order they
     are sent: each of this phone's deals corrects the server's deal of its number (PUT) or
     is recorded at its number (POST, with its own Idempotency-Key); then the server's
     deals after this phone's last are deleted, the latest first. ``mine`` are this phone's
     deals from the clash on, in order; ``deals`` the server's, each {id, number}. */
  function keepMinePlan(mine, deals) {
    var byNumber = {};
    deals.forEach(function (d) { byNumber[d.number] = d; });
    var steps = mine.map(function (entry) {
      var theirs = byNumber[entry.number];
      return theirs
        ? { method: "PUT", deal: theirs.id, entry: entry }
        : { method: "POST", number: entry.number, entry: entry };
    });
    var lastMine = mine.length ? mine[mine.length - 1].number : Infinity;
    deals.filter(function (d) { return d.number > lastMine; })
      .sort(function (a, b) { return b.number - a.number; })
      .forEach(function (d) { steps.push({ method: "DELETE", deal: d.id }); });
    return steps;
  }

  /* The rows of the clash table: this phone's deal numbers from the clash on and the other
     phone's from there on (``theirs``: the server's deals by number, or null while they are
     read), in order; and the server's latest deal, for its running totals. */
  function clashRows(held, mine, theirs) {
    var numbers = mine.map(function (e) { return e.number; });
    var last = null;
    if (theirs) {
      Object.keys(theirs).forEach(function (key) {
        var n = parseInt(key, 10);
        if (n >= held.number && numbers.indexOf(n) < 0) { numbers.push(n); }
        if (!last || n > last.number) { last = theirs[key]; }
      });
    }
    return { numbers: numbers.sort(function (a, b) { return a - b; }), last: last };
  }

  /* A Python format string of the rules engine (``"Side {side} took no trick, so it cannot
     have {card_points}."``) filled with ``params``: ``{{``/``}}`` are braces, ``{name!r}``
     quotes a text as Python's repr does, ``{name:,}`` groups a number's thousands. Answers
     null when the template names a value ``params`` does not have (or a placeholder it
     cannot read), so the caller falls back to the English text. */
  function formatTemplate(template, params) {
    var failed = false;
    var text = String(template).replace(/\{\{|\}\}|\{([A-Za-z_][A-Za-z0-9_]*)(![rsa])?(?::([^{}]*))?\}|[{}]/g,
      function (match, name, conversion, spec) {
        if (match === "{{") { return "{"; }
        if (match === "}}") { return "}"; }
        if (!name || !params || !Object.prototype.hasOwnProperty.call(params, name)) {
          failed = true;
          return match;
        }
        var value = params[name];
        if (conversion === "!r" && typeof value === "string") {
          return value.indexOf("'") >= 0 && value.indexOf('"') < 0 ? '"' + value + '"' : "'" + value + "'";
        }
        if (spec === "," && typeof value === "number") {
          return String(value).replace(/\B(?=(\d{3})+(?!\d))/g, ",");
        }
        return String(value);
      });
    return failed ? null : text;
  }

  /* One error of the engine on the phone in the page's language: ``gettext(template)``
     filled with its values (rules/offline.py gives both; the JavaScript catalog holds the
     templates, static/js/engine_messages.js), else its English ``message``. A translation
     whose placeholders do not fit falls back to the English text rather than show braces. */
  function engineMessage(error, gettext) {
    if (!error || typeof error.template !== "string") { return error ? error.message : ""; }
    var translated = typeof gettext === "function" ? gettext(error.template) : error.template;
    var text = formatTemplate(translated, error.params || {});
    return text === null ? error.message : text;
  }

  return {
    isDeal: isDeal, readDeal: readDeal, stateWithOutbox: stateWithOutbox,
    keepMinePlan: keepMinePlan, clashRows: clashRows,
    formatTemplate: formatTemplate, engineMessage: engineMessage
  };
});
