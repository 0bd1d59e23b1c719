// The live pages and the stream overlay (clabber_league/live, docs/live.md).
//
// Follows the board's Server-Sent Events (EventSource): each event is one game's news
// ({game, scores, deals, status}) and patches that table's numbers in place. Where the
// stream does not work (a WSGI server answers 204, a proxy buffers it, Redis is down and
// the server says "fallback") the page polls the board's JSON instead, with its ETag (a
// 304 most of the time), and tries the stream again later. A table it does not know (a
// new round drawn) or a "reset" (it missed too much) fetches the board's HTML again.
// No text is built here: every word is in the page, from the server's templates.
(function () {
  'use strict';
  var root = document.getElementById('live');
  if (!root) { return; }
  var cfg = root.dataset;
  var mode = cfg.mode || 'page';
  var pollMs = parseInt(cfg.pollMs, 10) || 1500;
  var READY_MS = 5000;           // no "ready" from the stream by then: a proxy buffers it
  var etag = null;
  var pollTimer = null;
  var polling = false;
  var source = null;
  var lastId = '';
  var streamRetryMs = 30000;
  var streamTimer = null;
  var refreshTimer = null;
  var boardTimer = null;
  var lastOverlayRefresh = 0;

  function boardStatus(status, deals) {
    if (status === 'waiting' || status === 'playing' || status === 'finished') { return status; }
    if (status === 'in_progress') { return deals ? 'playing' : 'waiting'; }
    return 'finished';
  }

  function setText(el, value) {
    var text = String(value);
    if (el && el.textContent !== text) { el.textContent = text; }
  }

  function showStatus(kind) {
    var el = document.getElementById('live-status');
    if (el && el.dataset[kind]) { setText(el, el.dataset[kind]); }
  }

  // One game's news onto its table; false when the page has no such table.
  function patch(news) {
    var el = root.querySelector('[data-game="' + String(news.game) + '"]');
    if (!el) { return false; }
    var scores = news.scores || {};
    Object.keys(scores).forEach(function (side) {
      setText(el.querySelector('.score[data-side="' + side + '"]'), scores[side]);
    });
    setText(el.querySelector('.deals'), news.deals);
    var status = boardStatus(news.status, news.deals);
    if (el.dataset.status !== status) {
      el.classList.remove('status-' + el.dataset.status);
      el.classList.add('status-' + status);
      el.dataset.status = status;
      if (status === 'finished') { soonBoard(2000); }  // the top five moved on
    }
    return true;
  }

  function renderTop(lines) {
    var list = document.getElementById('live-top');
    if (!list || !lines) { return; }
    var items = list.querySelectorAll('li');
    if (items.length !== lines.length) {
      while (list.firstChild) { list.removeChild(list.firstChild); }
      lines.forEach(function () {
        var li = document.createElement('li');
        ['place', 'name'].forEach(function (cls) {
          var span = document.createElement('span');
          span.className = cls;
          li.appendChild(span);
          li.appendChild(document.createTextNode(' '));
        });
        var b = document.createElement('b');
        b.className = 'points';
        li.appendChild(b);
        list.appendChild(li);
      });
      items = list.querySelectorAll('li');
    }
    lines.forEach(function (line, i) {
      setText(items[i].querySelector('.place'), line.place);
      setText(items[i].querySelector('.name'), line.name);
      setText(items[i].querySelector('.points'), line.points);
    });
  }

  // The whole board (the JSON): every table patched, the top five written again.
  function applyBoard(board) {
    var known = root.querySelectorAll('[data-game]');
    var expected = mode === 'page' ? board.tables.length : known.length;
    var missing = known.length !== expected;
    board.tables.forEach(function (table) {
      if (table.game === null) { return; }
      var scores = {};
      table.sides.forEach(function (side) { scores[side.side] = side.score; });
      var found = patch({game: table.game, scores: scores, deals: table.deals, status: table.status});
      if (!found && mode === 'page') { missing = true; }
    });
    if (mode === 'overlay-table') {
      var number = parseInt(cfg.table, 10);
      var mine = board.tables.filter(function (t) { return t.number === number; })[0];
      var shown = root.querySelector('[data-game]');
      var game = mine && mine.game !== null ? String(mine.game) : '';
      if ((shown ? shown.dataset.game : '') !== game) { missing = true; }
    }
    setText(document.getElementById('live-heading'), board.heading);
    renderTop(board.top);
    if (board.over) { showStatus('over'); }
    if (missing) { refresh(); }
  }

  // The board's HTML again (a new round, a reset): swapped in place, never a reload.
  function refresh() {
    clearTimeout(refreshTimer);
    refreshTimer = setTimeout(function () {
      fetch(cfg.fragmentUrl, {credentials: 'same-origin', cache: 'no-store'})
        .then(function (r) { return r.ok ? r.text() : null; })
        .then(function (html) {
          if (html === null) { return; }
          var holder = document.createElement('div');
          holder.innerHTML = html;  // the server's own template: names escaped there
          var fresh = holder.querySelector('#live-board');
          var old = document.getElementById('live-board');
          if (fresh && old) { old.replaceWith(fresh); }
        })
        .catch(function () {});
    }, 300);
  }

  function fetchBoard() {
    var headers = etag ? {'If-None-Match': etag} : {};
    return fetch(cfg.jsonUrl, {headers: headers, credentials: 'same-origin', cache: 'no-store'})
      .then(function (r) {
        if (r.status === 200) {
          etag = r.headers.get('ETag');
          return r.json().then(applyBoard);
        }
        return null;
      });
  }

  // The board's JSON once, a little later (the top five after a finished table).
  function soonBoard(spreadMs) {
    if (polling || boardTimer) { return; }
    boardTimer = setTimeout(function () {
      boardTimer = null;
      fetchBoard().catch(function () {});
    }, Math.random() * spreadMs);
  }

  function poll() {
    fetchBoard().catch(function () {}).then(function () {
      if (polling) { pollTimer = setTimeout(poll, pollMs); }
    });
  }

  function startPolling() {
    if (polling) { return; }
    polling = true;
    showStatus('polling');
    poll();
  }

  function stopPolling() {
    polling = false;
    clearTimeout(pollTimer);
  }

  function fallBack() {
    if (source) { source.close(); source = null; }
    startPolling();
    clearTimeout(streamTimer);
    streamTimer = setTimeout(startStream, streamRetryMs);
    streamRetryMs = Math.min(streamRetryMs * 2, 300000);
  }

  function onNews(event) {
    if (event.lastEventId) { lastId = event.lastEventId; }
    var news;
    try { news = JSON.parse(event.data); } catch (e) { return; }
    var known = patch(news);
    if (mode === 'overlay-top') { soonBoard(1000); return; }
    if (known) { return; }
    if (mode === 'page') { refresh(); return; }
    // One table's overlay: another table's news, or its own table's game of a new round.
    if (Date.now() - lastOverlayRefresh > 10000) {
      lastOverlayRefresh = Date.now();
      refresh();
    }
  }

  function startStream() {
    if (!window.EventSource || !cfg.streamUrl) { startPolling(); return; }
    var url = cfg.streamUrl + (lastId ? '?last=' + encodeURIComponent(lastId) : '');
    var ready = false;
    source = new EventSource(url);
    var watchdog = setTimeout(function () { if (!ready) { fallBack(); } }, READY_MS);
    source.addEventListener('ready', function () {
      ready = true;
      clearTimeout(watchdog);
      streamRetryMs = 30000;
      var wasPolling = polling;
      stopPolling();
      showStatus('live');
      if (wasPolling) { fetchBoard().catch(function () {}); }  // catch up once
    });
    source.onmessage = onNews;
    source.addEventListener('reset', function () { etag = null; fetchBoard().catch(refresh); });
    source.addEventListener('fallback', function () { clearTimeout(watchdog); fallBack(); });
    source.onerror = function () {
      // Closed for good (204, an error status): poll. Otherwise the browser reconnects
      // by itself and sends Last-Event-ID: the server replays what was missed.
      if (source && source.readyState === EventSource.CLOSED) {
        clearTimeout(watchdog);
        fallBack();
      }
    };
  }

  startStream();
})();
