/* The rules engine on the phone: Pyodide running clabber_league/rules/ (packed from the
   source into static/rules/clabber_rules.zip), in a worker so the page never waits for it.

   Messages in: {id, name, payload} where name is a function of
   clabber_league.rules.offline (score_deal, score_game, score_deals, next_deal) and payload
   the JSON text it takes; out: {id, answer} (the JSON text it answered) or {id, failed}.
   The worker's URL carries the runtime's and the rules' URLs (?pyodide=...&rules=...). */
const params = new URL(self.location.href).searchParams;

const engine = (async () => {
  const { loadPyodide } = await import(params.get("pyodide") + "pyodide.mjs");
  const pyodide = await loadPyodide({ indexURL: params.get("pyodide") });
  const response = await fetch(params.get("rules"));
  if (!response.ok) { throw new Error("The rules engine could not be loaded."); }
  pyodide.unpackArchive(await response.arrayBuffer(), "zip", { extractDir: "/engine" });
  pyodide.runPython("import sys\nsys.path.insert(0, '/engine')");
  return pyodide.pyimport("clabber_league.rules.offline").call;
})();

self.onmessage = async (event) => {
  const { id, name, payload } = event.data;
  try {
    const call = await engine;
    self.postMessage({ id, answer: call(name, payload) });
  } catch (error) {
    self.postMessage({ id, failed: String(error && error.message ? error.message : error) });
  }
};
self.postMessage({ id: 0, booting: true });
engine.then(() => self.postMessage({ id: 0, ready: true }),
            (error) => self.postMessage({ id: 0, failed: String(error) }));
