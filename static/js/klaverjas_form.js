/* The klaverjas deal form's roem chips: one tap puts a claim (run of 3, run of 4, stuk,
   four) on a pair, then one tap on the trick's number (a four asks which rank first).
   Underneath they fill the plain form's claim rows (pair, kind, trick), so the page works
   without this script. "All tricks (pit)" for one pair clears the other's, and a pit needs
   no points: the engine writes 162 for it. No scoring here: the preview comes from the
   server (htmx), or from the phone's engine offline (static/js/offline_entry.js). */
(function () {
  "use strict";
  var form = document.querySelector(".deal-form");
  if (!form) { return; }
  var rowsBox = form.querySelector(".claim-rows");
  if (!rowsBox) { return; }

  function changed(element) { element.dispatchEvent(new Event("change", { bubbles: true })); }
  function part(row, name) { return row.querySelector("[name=claim_" + row.dataset.claimRow + "_" + name + "]"); }
  function tricks(row) {
    return Array.prototype.slice.call(row.querySelectorAll("input[name=claim_" + row.dataset.claimRow + "_trick]"));
  }
  function dress(row) {
    var side = part(row, "side"), kind = part(row, "kind");
    var words = [side.value ? side.options[side.selectedIndex].text : "", kind.value ? kind.options[kind.selectedIndex].text : ""];
    var title = words.filter(Boolean).join(" · ");
    row.querySelector(".meld-title").textContent = title || (window.gettext ? window.gettext("Roem") : "Roem");
  }

  function addClaim(side, kind) {
    var row = rowsBox.querySelector(".meld-card.is-empty");
    if (!row) { return; }
    row.classList.remove("is-empty");
    part(row, "side").value = side;
    var kindSelect = part(row, "kind");
    kindSelect.value = kind === "four" ? "" : kind;
    row.classList.toggle("choose-kind", kind === "four");
    dress(row);
    changed(kindSelect);
    var first = kind === "four" ? kindSelect : tricks(row)[0];
    if (first) { first.focus({ preventScroll: true }); }
    row.scrollIntoView({ block: "nearest" });
  }

  function removeClaim(row) {
    part(row, "side").value = "";
    part(row, "kind").value = "";
    tricks(row).forEach(function (input) { input.checked = false; });
    row.classList.add("is-empty");
    row.classList.remove("choose-kind");
    changed(part(row, "kind"));
  }

  form.addEventListener("click", function (event) {
    var chip = event.target.closest("[data-roem-kind]");
    if (chip) {
      addClaim(chip.closest("[data-roem-side]").dataset.roemSide, chip.dataset.roemKind);
      return;
    }
    var remove = event.target.closest("[data-remove-claim]");
    if (remove) { removeClaim(remove.closest(".meld-card")); }
  });
  form.addEventListener("change", function (event) {
    var row = event.target.closest("[data-claim-row]");
    if (row && event.target.tagName === "SELECT") { dress(row); }
    if (/^pit_/.test(event.target.name || "") && event.target.checked) {
      form.querySelectorAll("input[name^=pit_]").forEach(function (other) {
        if (other !== event.target) { other.checked = false; }
      });
    }
  });
  rowsBox.querySelectorAll(".meld-card:not(.is-empty)").forEach(dress);
})();
