/* The New game page: the "who deals first" choices name whoever sits in each seat now,
   as the scorer changes a seat's player or types a substitute. No rules here. */
(function () {
  "use strict";
  // Django's JavaScript catalog where the page loads it; the English text otherwise.
  function _(text) { return typeof window.gettext === "function" ? window.gettext(text) : text; }
  function seatName(seat) {
    var sub = document.querySelector('[data-seat-sub="' + seat + '"]');
    if (sub && sub.value.trim()) { return sub.value.trim(); }
    var select = document.querySelector('[data-seat="' + seat + '"]');
    if (select && select.value) { return select.options[select.selectedIndex].text; }
    return _("a substitute");
  }
  function refresh() {
    document.querySelectorAll("[data-dealer-name]").forEach(function (span) {
      var seat = span.getAttribute("data-dealer-name");
      var name = seatName(seat);
      span.textContent = _("Seat %(seat)s: %(name)s").replace("%(seat)s", String(Number(seat) + 1))
        .replace("%(name)s", function () { return name; });
    });
  }
  document.addEventListener("change", function (event) {
    if (event.target.closest("[data-seat]")) { refresh(); }
  });
  document.addEventListener("input", function (event) {
    if (event.target.closest("[data-seat-sub]")) { refresh(); }
  });
})();
