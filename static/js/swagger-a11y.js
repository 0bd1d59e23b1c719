// The API docs page (/api/docs/): Swagger UI renders its server picker without a name a
// screen reader can say; name it (the text comes from the page, translated) once it is there.
(function () {
  "use strict";
  var root = document.getElementById("swagger-ui");
  if (!root) return;
  var label = root.getAttribute("data-servers-label");
  function name() {
    var select = document.getElementById("servers");
    if (select && !select.hasAttribute("aria-label")) select.setAttribute("aria-label", label);
  }
  new MutationObserver(name).observe(root, { childList: true, subtree: true });
  name();
})();
