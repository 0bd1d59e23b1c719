/* Offline deal entry: the deal page keeps working with no network.

   - Registers the service worker (/sw.js), which caches this page, the game's sheet, the
     page's assets, Pyodide and the packed rules engine.
   - With no network (or while deals wait in the outbox, so they stay in order), Save puts
     the deal into the outbox (static/js/outbox.js) instead of posting the form, and the
     preview comes from the rules engine running on the phone (static/js/engine_worker.js:
     the server's own clabber_league/rules/ through Pyodide). The engine decides the score,
     the totals, the end of the game and the next dealer; this script only reads the form
     into the deal API's JSON and shows the engine's answers.
   - The outbox is sent, in order, when the network is back; its state is always shown in
     #outbox-status, with a way to send again, discard, or resolve a clash with deals
     another phone recorded meanwhile.
   - On a correction's page (game.correcting) Save with no network queues the correction
     in the same outbox, after the deals saved before it.
   - While online the page reads the game's history now and then and shows deals of another
     phone that a person set aside (they clashed with this phone's), until dismissed. */
(function () {
  "use strict";
  var dataNode = document.getElementById("offline-game");
  var form = document.querySelector(".deal-form");
  if (!dataNode || !form) { return; }
  var game = JSON.parse(dataNode.textContent);
  // Django's JavaScript catalog where the page loads it; the English text otherwise.
  var _ = window.gettext || function (text) { return text; };
  var ngettext = window.ngettext || function (one, many, n) { return n === 1 ? one : many; };
  function fill(text, values) { return text.replace(/%\((\w+)\)s/g, function (m, k) { return values[k]; }); }
  var statusBox = document.getElementById("outbox-status");
  var Outbox = window.ClabberOutbox;
  // The decisions that need no page (static/js/offline_logic.js, unit-tested with node).
  var Logic = window.ClabberOfflineLogic;
  var correcting = game.correcting || null;
  var isDeal = Logic.isDeal;

  if ("serviceWorker" in navigator && window.isSecureContext) {
    navigator.serviceWorker.register(game.sw, { scope: "/" }).then(function () {
      return navigator.serviceWorker.ready;
    }).then(function (registration) {
      if (registration.active) {
        registration.active.postMessage({
          type: "cache-game", urls: [game.deal_page, game.sheet_page].concat(game.catalog ? [game.catalog] : []),
          // Table links that open this game: offline, the worker answers them with this page.
          aliases: (game.table_pages || []).map(function (path) { return { from: path, to: game.deal_page }; })
        });
      }
    }).catch(function () { /* no service worker: online entry still works */ });
  }

  // --- the rules engine, in a worker ---------------------------------------------------
  var worker = null, calls = {}, nextId = 1, engineReady = null;
  function engine() {
    if (engineReady) { return engineReady; }
    engineReady = new Promise(function (resolve, reject) {
      worker = new Worker(game.engine.worker, { type: "module" });
      worker.onerror = function (event) {
        reject(new Error(event && event.message
          ? fill(_("The rules engine did not start: %(reason)s"), { reason: event.message })
          : _("The rules engine did not start.")));
      };
      worker.onmessage = function (event) {
        var m = event.data;
        if (m.id === 0) {
          if (m.ready) { resolve(); } else if (m.failed) { reject(new Error(_(m.failed))); }
          return;
        }
        var call = calls[m.id];
        delete calls[m.id];
        if (!call) { return; }
        if (m.failed) { call.reject(new Error(_(m.failed))); } else { call.resolve(JSON.parse(m.answer)); }
      };
      worker.postMessage({ boot: { pyodide: game.engine.pyodide, rules: game.engine.rules } });
    });
    engineReady.catch(function () { engineReady = null; });
    return engineReady;
  }
  function engineCall(name, data) {
    return engine().then(function () {
      return new Promise(function (resolve, reject) {
        var id = nextId++;
        calls[id] = { resolve: resolve, reject: reject };
        worker.postMessage({ id: id, name: name, payload: JSON.stringify(data) });
      });
    });
  }
  window.ClabberEngine = { call: engineCall, ready: engine };

  // --- the game's state: the server's, then every deal still in the outbox ------------
  var base = {
    number: game.deal_count, totals: game.totals, pot: game.pot, dealer: game.next_dealer,
    finished: game.status !== "in_progress", winner: null
  };
  var state = base, entries = [];

  function refresh() {
    return Outbox.list(game.key).then(function (list) {
      var before = entries.length;
      // Deals that left the outbox were sent, by this page or by the service worker
      // (Background Sync, often first when the network comes back), unless a person
      // dropped them here: remember them, to tell when another phone's deals replace them.
      var still = {};
      list.forEach(function (e) { still[e.key] = true; });
      entries.filter(function (e) { return isDeal(e) && !still[e.key] && !droppedHere[e.key]; })
        .forEach(function (e) { noteSent(e.number, e.body); });
      entries = list;
      if (before && !list.length && navigator.onLine) {
        // Every deal is on the server (sent from here or by the service worker): show
        // the server's page, its sheet once the game is over; but never under a scorer's
        // fingers: a started form stays, on the totals of the deals just sent (the server's
        // own, which the next Save, online, goes to).
        try { sessionStorage.setItem("outbox-sent:" + game.key, "1"); } catch (e) { /* private mode */ }
        if (!formStarted()) {
          window.location.replace(state.finished || correcting ? game.sheet_page : game.deal_page);
          return list;
        }
        base = state;
      }
      var input = keyInput();
      if (input && list.some(function (e) { return e.key === input.value; })) { input.value = newKey(); }
      state = Logic.stateWithOutbox(base, list);
      show();
      return list;
    });
  }

  function pending() { return entries.length > 0; }
  // Every keystroke and tap in the form counts: nothing done in the background (a deal sent,
  // another phone's deals found) resets or reloads a form the scorer has started.
  var edits = 0, editsAtReset = 0;
  function formStarted() { return edits !== editsAtReset; }
  form.addEventListener("input", function () { edits += 1; });
  form.addEventListener("change", function () { edits += 1; });
  function clearForm() {
    form.reset();
    form.querySelectorAll(".meld-card").forEach(function (row) { row.classList.add("is-empty"); });
    editsAtReset = edits;
  }
  function offlineMode() { return !navigator.onLine || pending(); }

  // --- the form read into the deal API's JSON (the server's DealForm.to_engine) -------
  function value(name) {
    var field = form.elements[name];
    if (!field) { return null; }
    if (field instanceof RadioNodeList || (field.length && !field.tagName)) {
      var picked = Array.prototype.filter.call(field, function (f) { return f.checked; });
      if (!picked.length) { return null; }
      if (field[0].type === "checkbox") { return picked.map(function (f) { return f.value; }); }
      return picked[0].value === "" ? null : picked[0].value;
    }
    if (field.type === "checkbox") { return field.checked ? field.value : null; }
    return field.value === "" ? null : field.value;
  }
  function readDeal() { return Logic.readDeal(value, game); }

  function nextDeal(read) {
    return engineCall("next_deal", {
      ruleset: game.rules.ruleset, options: game.rules.options, totals: state.totals,
      pot: state.pot, deals_before: correcting ? correcting.number - 1 : state.number,
      dealer: state.dealer, deal: read.data
    });
  }

  // --- showing things ---------------------------------------------------------------
  function el(tag, attrs, text) {
    var node = document.createElement(tag);
    Object.keys(attrs || {}).forEach(function (k) { node.setAttribute(k, attrs[k]); });
    if (text !== undefined) { node.textContent = text; }
    return node;
  }
  function sideName(side) { return side === "tie" ? _("a tie") : (game.side_names[side] || side); }
  function scoreText(values) {
    return game.sides.filter(function (s) { return s in values; }).map(function (s) { return sideName(s) + " " + values[s]; }).join(", ");
  }

  function showPreview(answer, read) {
    var box = document.getElementById("preview");
    if (!box) { return; }
    box.classList.remove("preview-errors");
    box.textContent = "";
    if (answer.errors) {
      box.classList.add("preview-errors");
      box.appendChild(el("p", { "class": "error" }, fill(_("Not saved yet: %(errors)s"),
        { errors: answer.errors.map(function (e) { return Logic.engineMessage(e, _); }).join(" ") })));
      return;
    }
    var ok = answer.ok;
    box.appendChild(el("p", { "class": "preview-line" },
      fill(_("Deal %(n)s: %(outcome)s · %(score)s"),
        { n: correcting ? correcting.number : state.number + 1, outcome: ok.deal.outcome, score: scoreText(ok.deal.score) })));
    if (correcting) { return; }  // the server works out the totals after a correction
    var running, values = { score: scoreText(ok.scores), winner: sideName(ok.winner), dealer: game.seat_names[ok.next_dealer] || "" };
    if (ok.finished) {
      running = fill(ok.winner === "tie" ? _("Running %(score)s. Game over: a tied game.") : _("Running %(score)s. Game over: won by %(winner)s."), values);
    } else { running = fill(_("Running %(score)s · next dealer %(dealer)s"), values); }
    box.appendChild(el("p", { "class": "preview-line" }, running));
  }

  function showErrors(errors) {
    var summary = document.getElementById("offline-errors");
    if (!summary) {
      summary = el("div", { id: "offline-errors", "class": "error-summary", role: "alert", tabindex: "-1" });
      form.insertBefore(summary, form.firstChild.nextSibling);
    }
    summary.textContent = "";
    summary.hidden = !errors;
    if (!errors) { return; }
    summary.appendChild(el("h2", {}, fill(ngettext("Not saved: %(count)s thing to put right", "Not saved: %(count)s things to put right", errors.length),
      { count: errors.length })));
    var list = el("ul");
    errors.forEach(function (e) { list.appendChild(el("li", {}, Logic.engineMessage(e, _))); });
    summary.appendChild(list);
    summary.focus({ preventScroll: false });
  }

  function showState() {
    if (correcting) { return; }  // a correction's page: its heading and form stay
    var heading = document.querySelector(".deal-head h1");
    var save = form.querySelector("button.save");
    if (state.finished) {
      if (heading) { heading.textContent = _("Game over"); }
      form.hidden = true;
      var over = document.getElementById("offline-over");
      if (!over) {
        over = el("p", { id: "offline-over", "class": "preview-end" });
        form.parentNode.insertBefore(over, form);
      }
      over.textContent = fill(state.winner === "tie" ? _("Game over: a tied game (%(score)s).") : _("Game over: won by %(winner)s (%(score)s)."),
        { winner: sideName(state.winner), score: scoreText(state.totals) });
    } else {
      if (heading) { heading.textContent = fill(_("Deal %(n)s"), { n: state.number + 1 }); }
      if (save) { save.textContent = fill(_("Save deal %(n)s"), { n: state.number + 1 }); }
    }
    var dealer = document.querySelector(".deal-head .dealer strong");
    if (dealer && state.dealer !== null && state.dealer !== undefined) { dealer.textContent = game.seat_names[state.dealer] || ""; }
    var totals = document.querySelectorAll(".deal-head .totals .total b");
    game.sides.forEach(function (s, i) { if (totals[i]) { totals[i].textContent = state.totals[s]; } });
  }

  function button(label, action, entry) {
    var b = el("button", { type: "button", "class": "button secondary", "data-outbox": action }, label);
    if (entry) { b.dataset.key = entry.key; }
    return b;
  }

  var lastSent = 0;
  function showStatus() {
    if (!statusBox) { return; }
    statusBox.textContent = "";
    var held = entries.filter(function (e) { return e.state !== "waiting"; })[0];
    var waiting = entries.length;
    if (held && held.state === "conflict") {
      var mine = entries.filter(function (e) { return isDeal(e) && e.number >= held.number; });
      statusBox.appendChild(el("p", { "class": "outbox-problem" },
        fill(mine.length === 1
          ? _("Another phone already recorded deal %(n)s: %(message)s This phone's deal %(n)s is kept here until you choose which to keep; the other is kept in the game's history.")
          : _("Another phone already recorded deal %(n)s: %(message)s This phone's deals %(n)s to %(last)s are kept here until you choose which to keep; the other is kept in the game's history."),
          { n: held.number, message: held.message, last: mine.length ? mine[mine.length - 1].number : held.number })));
      statusBox.appendChild(clashTable(held, mine));
      var actions = el("div", { "class": "actions" });
      actions.appendChild(button(_("Keep this phone's deals"), "keep-mine", held));
      actions.appendChild(button(_("Keep the server's deals"), "keep-theirs", held));
      statusBox.appendChild(actions);
    } else if (held) {
      var heldValues = { n: held.number, message: held.message };
      statusBox.appendChild(el("p", { "class": "outbox-problem" }, fill(isDeal(held)
        ? _("Deal %(n)s was refused by the server: %(message)s")
        : _("The correction of deal %(n)s was refused by the server: %(message)s"), heldValues)));
      var fix = el("div", { "class": "actions" });
      fix.appendChild(button(fill(isDeal(held) ? _("Send deal %(n)s again") : _("Send correction of deal %(n)s again"), heldValues), "retry", held));
      fix.appendChild(button(fill(isDeal(held) ? _("Discard deal %(n)s") : _("Discard correction of deal %(n)s"), heldValues), "discard", held));
      statusBox.appendChild(fix);
    } else if (waiting) {
      var fixes = entries.filter(function (e) { return !isDeal(e); }).length, plain = waiting - fixes;
      var dealsCount = fill(ngettext("%(count)s deal", "%(count)s deals", plain), { count: plain });
      var fixesCount = fill(ngettext("%(count)s correction", "%(count)s corrections", fixes), { count: fixes });
      var what = plain && fixes
        ? fill(_("%(deals)s and %(corrections)s"), { deals: dealsCount, corrections: fixesCount })
        : (plain ? dealsCount : fixesCount);
      statusBox.appendChild(el("p", {}, fill(navigator.onLine
        ? _("%(what)s waiting to send…")
        : _("%(what)s waiting to send: no network; they are sent when it is back."), { what: what })));
    } else if (lastSent || !navigator.onLine || sessionStorage.getItem("outbox-sent:" + game.key)) {
      statusBox.appendChild(el("p", {}, navigator.onLine ? _("All deals sent.") : _("All deals sent. No network: deals you save now wait on this phone.")));
    }
    showResolved();
    showAside();
    statusBox.hidden = !statusBox.firstChild;
    statusBox.dataset.state = held ? held.state : (waiting ? "waiting" : "sent");
  }

  function show() { showState(); showStatus(); }

  /* The clash, side by side: each deal number from the clash on, as this phone recorded it
     and as the other phone did (the server's deals, read when the clash is first shown),
     with the running totals each sequence ends on. */
  var theirs = null, theirsAsked = false;
  function dealText(outcome, score) {
    return scoreText(score) + (outcome ? " (" + outcome + ")" : "");
  }
  function clashTable(held, mine) {
    if (!theirsAsked && navigator.onLine) {
      theirsAsked = true;
      serverDeals().then(function (rows) {
        theirs = {};
        rows.forEach(function (d) { theirs[d.number] = d; });
        showStatus();
      }, function () { theirsAsked = false; });
    }
    var table = el("table", { "class": "clash" });
    table.appendChild(el("caption", {}, _("Deals recorded on each phone")));
    var head = el("tr");
    [_("Deal"), _("This phone"), _("The other phone")].forEach(function (t) { head.appendChild(el("th", { scope: "col" }, t)); });
    table.appendChild(head);
    var rows = Logic.clashRows(held, mine, theirs), last = rows.last;
    rows.numbers.forEach(function (n) {
      var entry = mine.filter(function (e) { return e.number === n; })[0];
      var row = el("tr");
      row.appendChild(el("th", { scope: "row" }, String(n)));
      row.appendChild(el("td", {}, entry && entry.after ? dealText(entry.after.outcome, entry.after.score) : "—"));
      var other = theirs ? theirs[n] : null;
      row.appendChild(el("td", {}, other ? dealText(other.outcome, other.score) : (theirs ? "—" : _("reading…"))));
      table.appendChild(row);
    });
    var mineLast = mine.length ? mine[mine.length - 1].after : null;
    var totals = el("tr");
    totals.appendChild(el("th", { scope: "row" }, _("Totals")));
    totals.appendChild(el("td", {}, mineLast ? scoreText(mineLast.totals) : "—"));
    totals.appendChild(el("td", {}, last ? scoreText(last.running_totals) : (theirs ? "—" : _("reading…"))));
    table.appendChild(totals);
    return table;
  }

  /* What a person chose here, said once the page has the server's deals again. */
  var RESOLVED = "outbox-resolved:" + game.key;
  function noteResolved(kept, numbers) {
    try { sessionStorage.setItem(RESOLVED, JSON.stringify({ kept: kept, numbers: numbers })); } catch (e) { /* private mode */ }
  }
  function showResolved() {
    var note = null;
    try { note = JSON.parse(sessionStorage.getItem(RESOLVED) || "null"); } catch (e) { note = null; }
    if (!note || !note.numbers || !note.numbers.length) { return; }
    var first = note.numbers[0], last = note.numbers[note.numbers.length - 1];
    var values = { n: first, first: first, last: last };
    var text;
    if (note.kept === "mine") {
      text = fill(first === last
        ? _("You kept this phone's deal %(n)s: the other phone's deals from deal %(n)s on are kept in the game's history, counted nowhere.")
        : _("You kept this phone's deals %(first)s to %(last)s: the other phone's deals from deal %(first)s on are kept in the game's history, counted nowhere."), values);
    } else {
      text = fill(first === last
        ? _("You kept the other phone's deals: this phone's deal %(n)s is kept in the game's history, set aside and counted nowhere.")
        : _("You kept the other phone's deals: this phone's deals %(first)s to %(last)s are kept in the game's history, set aside and counted nowhere."), values);
    }
    var box = el("div", { "class": "outbox-aside" });
    var p = el("p", {}, text + " ");
    p.appendChild(el("a", { href: game.sheet_page + "#history" }, _("See the game's history")));
    box.appendChild(p);
    var actions = el("div", { "class": "actions" });
    actions.appendChild(el("button", { type: "button", "class": "button secondary", "data-resolved": "seen" }, _("Got it")));
    box.appendChild(actions);
    statusBox.appendChild(box);
  }

  // --- saving ---------------------------------------------------------------------------
  function newKey() {
    if (window.crypto && crypto.randomUUID) { return crypto.randomUUID().replace(/-/g, ""); }
    return Array.from({ length: 32 }, function () { return Math.floor(Math.random() * 16).toString(16); }).join("");
  }
  function csrfToken() {
    var match = document.cookie.match(/(?:^|;\s*)csrftoken=([^;]+)/);
    var input = form.querySelector("[name=csrfmiddlewaretoken]");
    return match ? decodeURIComponent(match[1]) : (input ? input.value : "");
  }
  function keyInput() { return form.querySelector("[name=idempotency_key]"); }

  /* Save answers at once: the deal is read from the form, the form is held (inert: no tap
     or keystroke can go into it, so none is lost) and the status says what is happening,
     while the engine on the phone checks and scores the deal; then the deal waits in the
     outbox and the form is cleared for the next one, or the form comes back with what is
     wrong. */
  var saving = false;
  function hold(label) {
    saving = true;
    form.setAttribute("inert", "");
    form.setAttribute("aria-busy", "true");
    var box = document.getElementById("preview");
    if (box) {
      box.classList.remove("preview-errors");
      box.textContent = "";
      box.appendChild(el("p", { "class": "muted", role: "status" }, label));
    }
  }
  function release() {
    saving = false;
    form.removeAttribute("inert");
    form.removeAttribute("aria-busy");
  }
  function acknowledged(text) {
    var box = document.getElementById("preview");
    if (box) { box.textContent = ""; box.appendChild(el("p", { "class": "muted", role: "status" }, text)); }
  }
  function askSync() {
    if (navigator.serviceWorker && navigator.serviceWorker.ready && "SyncManager" in window) {
      navigator.serviceWorker.ready.then(function (r) { return r.sync.register("clabber-outbox"); }).catch(function () {});
    }
  }

  form.addEventListener("submit", function (event) {
    if (!offlineMode()) { return; }
    event.preventDefault();
    if (saving) { return; }
    previewsCancel();
    var read = readDeal();
    if (correcting) { queueCorrection(read); return; }
    var number = state.number + 1;
    hold(fill(_("Saving deal %(n)s on this phone…"), { n: number }));
    nextDeal(read).then(function (answer) {
      if (answer.errors) { release(); showErrors(answer.errors); showPreview(answer, read); return null; }
      showErrors(null);
      var ok = answer.ok;
      var body = Object.assign({}, read.data);
      if (read.maker_seat !== null) { body.maker_seat = read.maker_seat; }
      var key = (keyInput() && keyInput().value) || newKey();
      return Outbox.add({
        key: key, game: game.key, url: game.deals_url, number: number, body: body,
        csrf: csrfToken(), table: game.table_token || null,
        after: { number: number, totals: ok.scores, pot: ok.pot, dealer: ok.next_dealer,
                 finished: ok.finished, winner: ok.winner, score: ok.deal.score, outcome: ok.deal.outcome }
      }).then(function () {
        if (keyInput()) { keyInput().value = newKey(); }
        clearForm();
        release();
        acknowledged(fill(_("Deal %(n)s saved on this phone (%(outcome)s: %(score)s); it is sent when the network is back."),
          { n: number, outcome: ok.deal.outcome, score: scoreText(ok.deal.score) }));
        return refresh();
      }).then(function () {
        window.scrollTo(0, 0);
        askSync();
        send();
      });
    }).catch(function (error) {
      release();
      showErrors([{ message: _("The rules engine on this phone is not ready:") + " " + error.message }]);
    });
  });

  /* A correction with no network: the engine checks the deal as the deal at its number
     (only its errors matter here: the server scores it again with the deals around it),
     then it waits in the outbox, sent after the deals saved before it. */
  function queueCorrection(read) {
    hold(fill(_("Saving the correction of deal %(n)s on this phone…"), { n: correcting.number }));
    nextDeal(read).then(function (answer) {
      release();
      if (answer.errors) { showErrors(answer.errors); showPreview(answer, read); return null; }
      showErrors(null);
      var body = Object.assign({}, read.data);
      if (read.maker_seat !== null) { body.maker_seat = read.maker_seat; }
      return Outbox.add({
        key: newKey(), kind: "correction", game: game.key, url: correcting.url,
        number: correcting.number, body: body, csrf: csrfToken(), table: game.table_token || null
      }).then(function () {
        editsAtReset = edits;  // what the form holds now is saved: nothing new typed in it
        var box = document.getElementById("preview");
        if (box) {
          box.textContent = "";
          box.appendChild(el("p", { "class": "muted" }, fill(_("Correction of deal %(n)s saved on this phone (%(outcome)s: %(score)s)."),
            { n: correcting.number, outcome: answer.ok.deal.outcome, score: scoreText(answer.ok.deal.score) })));
        }
        return refresh();
      }).then(function () {
        if (navigator.serviceWorker && navigator.serviceWorker.ready && "SyncManager" in window) {
          navigator.serviceWorker.ready.then(function (r) { return r.sync.register("clabber-outbox"); }).catch(function () {});
        }
        send();
      });
    }).catch(function (error) {
      release();
      showErrors([{ message: _("The rules engine on this phone is not ready:") + " " + error.message }]);
    });
  }

  /* A preview is of the form as it was typed: one asked for before a Save (its timer
     still running, or the engine still answering) must not replace what the Save says. */
  var previewTimer = null, previewsAsked = 0, previewsVoid = 0;
  function livePreview() {
    if (!offlineMode()) { return; }
    clearTimeout(previewTimer);
    previewTimer = setTimeout(function () {
      if (saving) { return; }
      var asked = ++previewsAsked;
      var read = readDeal();
      nextDeal(read).then(function (answer) {
        if (asked > previewsVoid && !saving) { showPreview(answer, read); }
      }, function () {});
    }, 150);
  }
  function previewsCancel() { clearTimeout(previewTimer); previewsVoid = previewsAsked; }
  form.addEventListener("change", livePreview);
  form.addEventListener("input", livePreview);
  // The server's preview (htmx) only while online with nothing waiting: it counts the
  // server's deals, not the ones on this phone.
  document.body.addEventListener("htmx:beforeRequest", function (event) {
    if (offlineMode() && event.target === form) { event.preventDefault(); }
  });

  // --- sending ----------------------------------------------------------------------
  var sending = false, retryTimer = null;
  function send() {
    if (sending || !navigator.onLine || !pending()) { return Promise.resolve(); }
    sending = true;
    return Outbox.flush(game.key).then(function (report) {
      sending = false;
      if (report.offline && navigator.onLine) {
        retryTimer = retryTimer || setTimeout(function () { retryTimer = null; send(); }, 2000);
      }
      if (report.sent) {
        lastSent += report.sent;
        try { sessionStorage.setItem("outbox-sent:" + game.key, "1"); } catch (e) { /* private mode */ }
      }
      return refresh();
    }, function () { sending = false; });
  }

  function serverDeals() {
    var found = [];
    function page(url) {
      var headers = { Accept: "application/json" };
      if (game.table_token) { headers.Authorization = "Table " + game.table_token; }
      return fetch(url, { headers: headers, credentials: "same-origin" }).then(function (r) {
        if (!r.ok) { throw new Error(fill(_("The server answered %(status)s."), { status: r.status })); }
        return r.json();
      }).then(function (body) {
        var rows = Array.isArray(body) ? body : body.results;
        found = found.concat(rows);
        return body.next ? page(body.next) : found;
      });
    }
    return page(game.deals_url);
  }

  function request(method, url, body, key) {
    var headers = { "Content-Type": "application/json", "X-CSRFToken": csrfToken(), Accept: "application/json" };
    if (key) { headers["Idempotency-Key"] = key; }
    if (game.table_token) { headers.Authorization = "Table " + game.table_token; }
    return fetch(url, { method: method, headers: headers, credentials: "same-origin", body: body ? JSON.stringify(body) : undefined })
      .then(function (r) {
        if (r.ok) { return r; }
        return r.json().catch(function () { return {}; }).then(function (b) {
          throw new Error((b.errors || []).map(function (e) { return e.message; }).join(" ") || fill(_("The server answered %(status)s."), { status: r.status }));
        });
      });
  }

  /* Keep this phone's deals from the clash on: the server's deals at those numbers are
     corrected to this phone's (the server keeps what they were in the game's history),
     the server's later ones deleted (kept in the history too), this phone's later ones
     recorded. */
  function keepMine(held) {
    var mine = entries.filter(function (e) { return isDeal(e) && e.number >= held.number; });
    return serverDeals().then(function (deals) {
      var chain = Promise.resolve();
      Logic.keepMinePlan(mine, deals).forEach(function (step) {
        chain = chain.then(function () {
          if (step.method === "DELETE") { return request("DELETE", game.deals_url + step.deal + "/"); }
          var done = step.method === "PUT"
            ? request("PUT", game.deals_url + step.deal + "/", step.entry.body)
            : request("POST", game.deals_url + "?number=" + step.number, step.entry.body, step.entry.key);
          return done.then(function () { return Outbox.remove(step.entry.key); });
        });
      });
      // This phone made those corrections and deletions: its own history rows are not news
      // to it (they would read as this phone's deals replaced, the opposite of what happened).
      return chain.then(function () {
        return historyRows().then(function (rows) {
          markSeen(rows.filter(function (r) {
            return (r.action === "update" || r.action === "delete") && r.deal_number >= held.number;
          }).map(function (r) { return r.id; }));
        }, function () {});
      }).then(function () { noteResolved("mine", mine.map(function (e) { return e.number; })); });
    });
  }

  /* Keep the server's deals: this phone's deals from the clash on are set aside on the
     server (kept in the game's history, counted nowhere) and leave the outbox. */
  function keepTheirs(held) {
    var mine = entries.filter(function (e) { return isDeal(e) && e.number >= held.number; });
    var chain = Promise.resolve();
    mine.forEach(function (entry) {
      chain = chain.then(function () {
        return request("POST", game.set_aside_url, { number: entry.number, deal: entry.body }, entry.key + "-aside");
      }).then(function (response) {
        return response.json().then(function (revision) { markSeen([revision.id]); }, function () {});
      }).then(function () { droppedHere[entry.key] = true; return Outbox.remove(entry.key); });
    });
    return chain.then(function () { noteResolved("theirs", mine.map(function (e) { return e.number; })); });
  }

  // --- another phone's deals set aside (this phone's were kept) ----------------------
  var SEEN = "outbox-aside-seen:" + game.key, SENT = "outbox-sent-deals:" + game.key;
  var aside = [], replaced = [];
  var droppedHere = {};  // outbox keys a person discarded or set aside on this page
  function sentDeals() {
    try { return JSON.parse(localStorage.getItem(SENT) || "{}"); } catch (e) { return {}; }
  }
  function noteSent(number, body) {
    var sent = sentDeals();
    sent[number] = JSON.stringify((body || {}).points || null);
    try { localStorage.setItem(SENT, JSON.stringify(sent)); } catch (e) { /* private mode */ }
  }
  function seen() {
    try { return JSON.parse(localStorage.getItem(SEEN) || "[]"); } catch (e) { return []; }
  }
  function markSeen(ids) {
    try { localStorage.setItem(SEEN, JSON.stringify(seen().concat(ids).slice(-200))); } catch (e) { /* private mode */ }
  }
  /* The game's history (its first pages: bounded), for set-aside deals not seen here. */
  function historyRows() {
    var found = [], pages = 0;
    function page(url) {
      var headers = { Accept: "application/json" };
      if (game.table_token) { headers.Authorization = "Table " + game.table_token; }
      return fetch(url, { headers: headers, credentials: "same-origin" }).then(function (r) {
        return r.ok ? r.json() : { results: [] };
      }).then(function (body) {
        var rows = Array.isArray(body) ? body : (body.results || []);
        found = found.concat(rows);
        pages += 1;
        return body.next && pages < 5 ? page(body.next) : found;
      });
    }
    return page(game.history_url);
  }
  var reloadedFor = "outbox-reloaded-for:" + game.key;
  function checkHistory() {
    if (!navigator.onLine || !game.history_url) { return Promise.resolve(); }
    return historyRows().then(function (rows) {
      var known = seen();
      aside = rows.filter(function (r) {
        return r.action === "delete" && r.before && r.before.set_aside && known.indexOf(r.id) < 0;
      }).sort(function (a, b) { return a.deal_number - b.deal_number; });
      // This phone's sent deals that another phone's sequence replaced (corrected to other
      // points, or deleted) when a person kept that phone's deals.
      var sent = sentDeals();
      replaced = rows.filter(function (r) {
        if (known.indexOf(r.id) >= 0 || !(r.deal_number in sent)) { return false; }
        if (r.action === "delete") { return !(r.before && r.before.set_aside); }
        return r.action === "update" && r.after &&
          JSON.stringify((r.after.data || {}).points || null) !== sent[r.deal_number];
      }).sort(function (a, b) { return a.deal_number - b.deal_number; });
      // Another phone's choice changed the server's deals: this phone takes the server's
      // totals (its page again, once: the message stays until dismissed), unless deals
      // wait here or the scorer has started the next deal.
      var news = aside.concat(replaced).map(function (r) { return r.id; }).sort().join(",");
      var already = null;
      try { already = sessionStorage.getItem(reloadedFor); } catch (e) { already = news; }
      if (news && already !== news && !pending() && !formStarted() && !correcting) {
        try { sessionStorage.setItem(reloadedFor, news); } catch (e) { /* private mode */ }
        window.location.replace(game.deal_page);
        return;
      }
      showStatus();
    }, function () { /* the network went: try again later */ });
  }
  /* The deal numbers of ``rows`` ("4", "4-6" or "4, 7") and how many they are. */
  function dealsText(rows) {
    var numbers = rows.map(function (r) { return r.deal_number; }).filter(function (n, i, all) { return all.indexOf(n) === i; });
    var first = numbers[0], last = numbers[numbers.length - 1];
    var text = numbers.length === 1 ? String(first) : (last - first + 1 === numbers.length ? first + "-" + last : numbers.join(", "));
    return { count: numbers.length, deals: text };
  }
  function showAside() {
    if ((!aside || !aside.length) && (!replaced || !replaced.length)) { return; }
    var which = dealsText(aside.length ? aside : replaced);
    var text = fill(aside.length
      ? ngettext("Another phone recorded this game's deals too: its deal %(deals)s was set aside and this phone's kept.",
        "Another phone recorded this game's deals too: its deals %(deals)s were set aside and this phone's kept.", which.count)
      : ngettext("Another phone recorded this game's deals too: this phone's deal %(deals)s was replaced by the other phone's.",
        "Another phone recorded this game's deals too: this phone's deals %(deals)s were replaced by the other phone's.", which.count),
      which) + " ";
    var box = el("div", { "class": "outbox-aside" });
    var p = el("p", { "class": "outbox-problem" }, text);
    p.appendChild(el("a", { href: game.sheet_page + "#history" }, _("See the game's history")));
    box.appendChild(p);
    var actions = el("div", { "class": "actions" });
    actions.appendChild(el("button", { type: "button", "class": "button secondary", "data-aside": "seen" }, _("Got it")));
    box.appendChild(actions);
    statusBox.appendChild(box);
  }

  if (statusBox) {
    statusBox.addEventListener("click", function (event) {
      if (event.target.closest("[data-resolved]")) {
        try { sessionStorage.removeItem(RESOLVED); } catch (e) { /* private mode */ }
        showStatus();
        return;
      }
      if (event.target.closest("[data-aside]")) {
        markSeen(aside.concat(replaced).map(function (r) { return r.id; }));
        aside = [];
        replaced = [];
        showStatus();
        return;
      }
      var b = event.target.closest("[data-outbox]");
      if (!b) { return; }
      var entry = entries.filter(function (e) { return e.key === b.dataset.key; })[0];
      if (!entry) { return; }
      var action = b.dataset.outbox;
      b.disabled = true;
      var work;
      if (action === "retry") { entry.state = "waiting"; entry.message = ""; work = Outbox.put(entry); }
      else if (action === "discard") { droppedHere[entry.key] = true; work = Outbox.remove(entry.key); }
      else if (action === "keep-mine") { work = keepMine(entry); }
      else { work = keepTheirs(entry); }
      work.then(function () {
        return refresh();
      }).then(function () {
        if ((action === "keep-mine" || action === "keep-theirs") && navigator.onLine) {
          window.location.replace(game.deal_page);
          return;
        }
        send();
      }).catch(function (error) {
        b.disabled = false;
        statusBox.appendChild(el("p", { "class": "error" }, error.message));
      });
    });
  }

  window.addEventListener("online", function () { showStatus(); send(); });
  window.addEventListener("offline", showStatus);
  document.addEventListener("visibilitychange", function () { if (!document.hidden) { send(); } });
  setInterval(send, 15000);
  setInterval(function () { if (!document.hidden) { checkHistory(); } }, 10000);
  if ("serviceWorker" in navigator) {
    navigator.serviceWorker.addEventListener("message", function (event) {
      if (event.data && event.data.type === "outbox-sent") { refresh(); }
    });
  }

  // The engine (a few seconds of work on a phone) starts as soon as the page has loaded,
  // online too: the network can go at any moment, and a Save made offline should find it
  // ready rather than wait for it. The form is ready first; a Save or a preview before the
  // engine is ready waits for it, and says so at once.
  function startEngineLater() {
    var start = function () {
      var boot = function () { engine().catch(function () {}); };
      // A page the service worker does not control yet (the phone's first visit) is
      // fetching the engine into its precache meanwhile: boot then only with no network,
      // so that the runtime is not downloaded twice.
      var kept = navigator.serviceWorker && navigator.serviceWorker.controller;
      if (!kept && !offlineMode()) { return; }
      if ("requestIdleCallback" in window) { window.requestIdleCallback(boot, { timeout: 1000 }); } else { setTimeout(boot, 0); }
    };
    if (document.readyState === "complete") { start(); } else { window.addEventListener("load", start); }
  }
  refresh().then(function () {
    startEngineLater();
    send();
    checkHistory();
  });
  window.addEventListener("offline", function () { engine().catch(function () {}); });
})();
