"""The service worker's push handlers (``templates/site/sw.js``), run under node with a
stand-in for the browser's worker scope: a push shows the server's title, text and link;
a tap opens that page on this site, never another."""

from __future__ import annotations

import json
import shutil
import subprocess

import pytest
from django.test import Client

NODE = shutil.which("node")

HARNESS = r"""
const handlers = {}, shown = [], opened = [], waits = [];
globalThis.importScripts = () => {};
globalThis.self = {
  location: { origin: "https://league.example.org" },
  addEventListener: (type, fn) => { handlers[type] = fn; },
  registration: {
    showNotification: async (title, options) => { shown.push({ title, options }); },
  },
  clients: { matchAll: async () => [], openWindow: async (url) => { opened.push(url); } },
};
require(process.argv[2]);
const event = (extra) => Object.assign({ waitUntil: (p) => waits.push(p) }, extra);
handlers.push(event({ data: { json: () => (%s) } }));
const tap = (url) => event({ notification: { close() {}, data: { url } } });
handlers.notificationclick(tap("/me/"));
handlers.notificationclick(tap("https://evil.example/"));
Promise.all(waits).then(() => console.log(JSON.stringify({ shown, opened })));
"""


@pytest.mark.skipif(NODE is None, reason="node is not installed")
@pytest.mark.django_db
def test_a_push_is_shown_and_a_tap_opens_its_page_on_this_site(tmp_path):
    worker = tmp_path / "sw.js"
    worker.write_text(Client().get("/sw.js").content.decode())
    payload = {"title": "Round 2: table 3", "body": "North", "url": "/me/", "tag": "clabber-table"}
    script = tmp_path / "run.js"
    script.write_text(HARNESS % json.dumps(payload))
    out = subprocess.run(
        [NODE, str(script), str(worker)], capture_output=True, text=True, timeout=30, check=True
    )
    result = json.loads(out.stdout.strip().splitlines()[-1])
    [shown] = result["shown"]
    assert shown["title"] == "Round 2: table 3"
    assert shown["options"]["body"] == "North" and shown["options"]["tag"] == "clabber-table"
    assert shown["options"]["data"] == {"url": "/me/"}
    assert result["opened"] == ["https://league.example.org/me/"]  # not the other site
