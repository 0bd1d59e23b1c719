/* Small page behaviours, kept out of the HTML so a Content-Security-Policy can forbid inline
   script: [data-print] buttons print the page, [data-autosubmit] selects submit their form. */
document.addEventListener("click", function (event) {
  var button = event.target.closest("[data-print]");
  if (button) { window.print(); }
});
document.addEventListener("change", function (event) {
  var select = event.target.closest("[data-autosubmit]");
  if (select && select.form) { select.form.submit(); }
});
