/* Draw the charts of the standings pages with the vendored Chart.js.
 * Each <canvas data-chart="ID"> reads its data from <script id="ID" type="application/json">
 * ({type, labels, datasets, reverse, horizontal, twoAxes, target, yTitle}); charts inside
 * fragments that htmx swaps in are drawn when they arrive. No data is computed here. */
(function () {
  "use strict";
  // Django's JavaScript catalog where the page loads it; the English text otherwise.
  function _(text) { return typeof window.gettext === "function" ? window.gettext(text) : text; }
  var PALETTE = ["#1f5f3f", "#b3261e", "#1565c0", "#b58900", "#6a1b9a", "#00838f", "#ef6c00",
    "#2e7d32", "#ad1457", "#4e342e", "#37474f", "#827717"];

  function color(i) { return PALETTE[i % PALETTE.length]; }

  function config(spec) {
    var many = spec.datasets.length > 12;
    var datasets = spec.datasets.map(function (d, i) {
      var c = color(i);
      return Object.assign({ borderColor: c, backgroundColor: spec.type === "bar" || d.type === "bar" ? c + "cc" : c,
        borderWidth: 2, pointRadius: many ? 0 : 2, tension: 0.15 }, d);
    });
    if (spec.target) {
      datasets.push({ label: _("Target %(target)s").replace("%(target)s", spec.target), data: spec.labels.map(function () { return spec.target; }),
        borderColor: "#5d6b66", borderDash: [6, 4], borderWidth: 1, pointRadius: 0, fill: false });
    }
    var scales = { y: { reverse: !!spec.reverse, title: { display: !!spec.yTitle, text: spec.yTitle || "" } } };
    if (spec.reverse) { scales.y.ticks = { precision: 0 }; scales.y.min = 1; }
    if (spec.twoAxes) { scales.y1 = { position: "right", grid: { drawOnChartArea: false } }; }
    return {
      type: spec.type,
      data: { labels: spec.labels, datasets: datasets },
      options: {
        responsive: true, maintainAspectRatio: false, animation: false,
        indexAxis: spec.horizontal ? "y" : "x",
        plugins: { legend: { display: !many && (datasets.length > 1 || !!spec.target) } },
        scales: spec.horizontal ? { x: { beginAtZero: true, max: 100 } } : scales
      }
    };
  }

  function draw(canvas) {
    if (!window.Chart || canvas.dataset.drawn) { return; }
    var source = document.getElementById(canvas.dataset.chart);
    if (!source) { return; }
    new window.Chart(canvas, config(JSON.parse(source.textContent)));
    canvas.dataset.drawn = "true";
  }

  function drawAll(root) {
    (root || document).querySelectorAll("canvas[data-chart]").forEach(draw);
  }

  document.addEventListener("DOMContentLoaded", function () {
    drawAll(document);
    if (window.htmx) { window.htmx.onLoad(function (el) { drawAll(el.parentNode || el); }); }
  });
})();
