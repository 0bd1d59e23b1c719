/* The deal form: reveal one more meld row; hide the played-out fields of a passed-out
   deal. No scoring here. */
(function () {
  "use strict";
  var add = document.querySelector("[data-add-meld]");
  if (add) {
    add.addEventListener("click", function () {
      var hidden = document.querySelector(".meld-row.is-hidden");
      if (hidden) { hidden.classList.remove("is-hidden"); hidden.querySelector("select").focus(); }
    });
  }
  var passed = document.getElementById("id_passed");
  if (passed) {
    var syncPassed = function () { document.body.classList.toggle("deal-passed", passed.checked); };
    passed.addEventListener("change", syncPassed);
    syncPassed();
  }
})();
