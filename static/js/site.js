/* Small page behaviours, bound by data attributes: the Content-Security-Policy allows no
   inline script or on* handler. No scoring here: the rules engine is the only place that
   knows how a deal scores. */
(function () {
  "use strict";
  document.addEventListener("click", function (event) {
    var button = event.target.closest("[data-print]");
    if (button) { window.print(); }
  });
  document.addEventListener("change", function (event) {
    var field = event.target.closest("[data-autosubmit]");
    if (field && field.form) { field.form.submit(); }
  });
})();
