/* The rules engine on the phone: Pyodide running clabber_league/rules/ (packed from the
   source into static/rules/clabber_rules.zip), in a worker so the page never waits for it.

   The first message says where things are: {boot: {pyodide: <Pyodide's folder URL>,
   rules: <the packed engine's URL>}}. Then messages {id, name, payload}, where name is a
   function of clabber_league.rules.offline (score_deal, score_game, score_deals,
   next_deal) and payload the JSON text it takes, are answered {id, answer} (the JSON text
   it answered) or {id, failed}. {id: 0, ready: true} says the engine is loaded. */
let engine = null;
// Marks a message for the JavaScript catalog (makemessages); the page shows it translated.
const gettext_noop = (text) => text;

async function boot(urls) {
  const { loadPyodide } = await import(urls.pyodide + "pyodide.mjs");
  const pyodide = await loadPyodide({ indexURL: urls.pyodide });
  const response = await fetch(urls.rules);
  if (!response.ok) { throw new Error(gettext_noop("The rules engine could not be loaded.")); }
  pyodide.unpackArchive(await response.arrayBuffer(), "zip", { extractDir: "/engine" });
  pyodide.runPython("import sys\nsys.path.insert(0, '/engine')");
  return pyodide.pyimport("clabber_league.rules.offline").call;
}

self.onmessage = async (event) => {
  const { id, name, payload } = event.data;
  if (event.data.boot) {
    if (!engine) {
      engine = boot(event.data.boot);
      engine.then(() => self.postMessage({ id: 0, ready: true }),
                  (error) => self.postMessage({ id: 0, failed: String(error && error.message ? error.message : error) }));
    }
    return;
  }
  try {
    if (!engine) { throw new Error(gettext_noop("The engine was not started.")); }
    const call = await engine;
    self.postMessage({ id, answer: call(name, payload) });
  } catch (error) {
    self.postMessage({ id, failed: String(error && error.message ? error.message : error) });
  }
};
