/* The deal form's chips: one tap puts a meld on a player, then only the suit and top card a
   run needs (the likeliest top card is already picked); one tap gives a player the bell.
   Underneath they fill the plain form's fields (meld rows of player, meld, suit, top; the
   bell's radio buttons), so the page works without this script and the server sees one
   form either way. After a rejected save the summary of what is wrong takes the focus.
   No scoring here: the preview comes from the server (htmx). */
(function () {
  "use strict";
  document.documentElement.classList.add("js");
  var form = document.querySelector(".deal-form");
  if (!form) { return; }

  var summary = document.getElementById("error-summary");
  if (summary) {
    summary.scrollIntoView({ block: "start" });
    summary.focus({ preventScroll: true });
  }

  var rowsBox = form.querySelector(".meld-rows:not(.claim-rows)");
  if (!rowsBox) { return; } // a klaverjas deal: static/js/klaverjas_form.js
  var tops = {};
  (rowsBox.getAttribute("data-run-tops") || "").split(";").forEach(function (item) {
    var parts = item.split(":");
    if (parts.length === 2) { tops[parts[0]] = parts[1].split(","); }
  });

  function changed(element) {
    element.dispatchEvent(new Event("change", { bubbles: true }));
  }
  function select(row, part) { return row.querySelector("[name=meld_" + row.dataset.meldRow + "_" + part + "]"); }
  function radios(row, part) {
    return Array.prototype.slice.call(row.querySelectorAll("input[name=meld_" + row.dataset.meldRow + "_" + part + "]"));
  }

  /* Show a meld row as the card of its meld: its title, and only the top cards its run
     can have. */
  function dress(row) {
    var seat = select(row, "seat"), kind = select(row, "kind");
    var kindValue = kind.value;
    var who = seat.value === "" ? "" : seat.options[seat.selectedIndex].text;
    var what = kindValue === "" ? "" : kind.options[kind.selectedIndex].text;
    row.querySelector(".meld-title").textContent = [who, what].filter(Boolean).join(" · ") || (window.gettext ? window.gettext("Meld") : "Meld");
    row.classList.toggle("is-four", kindValue.indexOf("four-") === 0);
    var possible = tops[kindValue] || [];
    radios(row, "top").forEach(function (input) {
      input.closest("label").classList.toggle("not-possible", possible.length > 0 && possible.indexOf(input.value) < 0);
    });
  }

  /* The likeliest top card of the row's run, unless a card it can have is picked already. */
  function pickTop(row) {
    var possible = tops[select(row, "kind").value];
    if (!possible) { return; }
    var picked = radios(row, "top").filter(function (input) { return input.checked; })[0];
    if (picked && possible.indexOf(picked.value) >= 0) { return; }
    var top = radios(row, "top").filter(function (input) { return input.value === possible[0]; })[0];
    if (top) { top.checked = true; }
  }

  function addMeld(seat, kind) {
    var row = rowsBox.querySelector(".meld-card.is-empty");
    if (!row) { return; }
    row.classList.remove("is-empty");
    select(row, "seat").value = seat;
    var kindSelect = select(row, "kind");
    kindSelect.value = kind;
    row.classList.toggle("choose-kind", kind === "");
    var possible = tops[kind];
    pickTop(row);
    dress(row);
    changed(kindSelect);
    var first = kind === "" ? kindSelect : (possible ? radios(row, "suit")[0] : null);
    if (first) { first.focus({ preventScroll: true }); }
    row.scrollIntoView({ block: "nearest" });
  }

  function removeMeld(row) {
    select(row, "seat").value = "";
    select(row, "kind").value = "";
    radios(row, "suit").concat(radios(row, "top")).forEach(function (input) { input.checked = false; });
    row.classList.add("is-empty");
    row.classList.remove("choose-kind", "is-four");
    changed(select(row, "kind"));
  }

  function bellRadio(seat) { return form.querySelector("input[name=bell][value='" + seat + "']"); }
  function nobody() { return form.querySelector("input[name=bell][value='']"); }
  function syncBell() {
    form.querySelectorAll("[data-bell]").forEach(function (chip) {
      var seat = chip.closest("[data-meld-chips]").dataset.meldChips;
      var radio = bellRadio(seat);
      chip.setAttribute("aria-pressed", radio && radio.checked ? "true" : "false");
    });
  }

  form.addEventListener("click", function (event) {
    var chip = event.target.closest("[data-meld-kind]");
    if (chip) {
      addMeld(chip.closest("[data-meld-chips]").dataset.meldChips, chip.dataset.meldKind);
      return;
    }
    var bell = event.target.closest("[data-bell]");
    if (bell) {
      var radio = bellRadio(bell.closest("[data-meld-chips]").dataset.meldChips);
      var target = radio && radio.checked ? nobody() : radio;
      if (target) { target.checked = true; changed(target); }
      syncBell();
      return;
    }
    var remove = event.target.closest("[data-remove-meld]");
    if (remove) { removeMeld(remove.closest(".meld-card")); }
  });
  form.addEventListener("change", function (event) {
    var row = event.target.closest(".meld-card");
    if (row && event.target.tagName === "SELECT") { pickTop(row); dress(row); }
  });

  rowsBox.querySelectorAll(".meld-card:not(.is-empty)").forEach(dress);
  syncBell();
})();
