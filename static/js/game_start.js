/* The New game page: the "who deals first" choices name whoever sits in each seat now,
   as the scorer changes a seat's player or types a substitute. No rules here. */
(function () {
  "use strict";
  function seatName(seat) {
    var sub = document.querySelector('[data-seat-sub="' + seat + '"]');
    if (sub && sub.value.trim()) { return sub.value.trim(); }
    var select = document.querySelector('[data-seat="' + seat + '"]');
    if (select && select.value) { return select.options[select.selectedIndex].text; }
    return "a substitute";
  }
  function refresh() {
    document.querySelectorAll("[data-dealer-name]").forEach(function (span) {
      var seat = span.getAttribute("data-dealer-name");
      span.textContent = "Seat " + (Number(seat) + 1) + ": " + seatName(seat);
    });
  }
  document.addEventListener("change", function (event) {
    if (event.target.closest("[data-seat]")) { refresh(); }
  });
  document.addEventListener("input", function (event) {
    if (event.target.closest("[data-seat-sub]")) { refresh(); }
  });
})();
