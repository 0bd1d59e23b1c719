/* The settings page's "Get notifications on this device" button (notify/_settings.html):
   asks the browser's permission, subscribes through the service worker (/sw.js) with the
   server's VAPID public key, and sends the subscription (endpoint and keys) to the server.
   The texts are the page's own (data-* attributes, already in the member's language). */
(function () {
  "use strict";
  var box = document.getElementById("push-device");
  if (!box) { return; }
  var button = document.getElementById("push-subscribe");
  var status = document.getElementById("push-status");
  var csrf = box.querySelector("input[name=csrfmiddlewaretoken]").value;

  function say(text) { status.textContent = text; }
  function ours(text) { var error = new Error(text); error.ours = true; return error; }

  function keyBytes(base64url) {
    var padded = (base64url + "===".slice((base64url.length + 3) % 4)).replace(/-/g, "+").replace(/_/g, "/");
    var raw = window.atob(padded);
    var out = new Uint8Array(raw.length);
    for (var i = 0; i < raw.length; i += 1) { out[i] = raw.charCodeAt(i); }
    return out;
  }

  if (!window.isSecureContext || !("serviceWorker" in navigator) || !("PushManager" in window) || !("Notification" in window)) {
    say(box.dataset.unsupported);
    return;
  }
  button.hidden = false;
  button.addEventListener("click", function () {
    button.disabled = true;
    say("");
    Notification.requestPermission().then(function (permission) {
      if (permission !== "granted") { throw ours(box.dataset.denied); }
      return navigator.serviceWorker.register(box.dataset.sw, { scope: "/" });
    }).then(function () {
      return navigator.serviceWorker.ready;
    }).then(function (registration) {
      return registration.pushManager.subscribe({
        userVisibleOnly: true,
        applicationServerKey: keyBytes(box.dataset.vapidKey)
      });
    }).then(function (subscription) {
      var json = subscription.toJSON();
      return fetch(box.dataset.subscribeUrl, {
        method: "POST",
        credentials: "same-origin",
        headers: { "Content-Type": "application/json", "X-CSRFToken": csrf },
        body: JSON.stringify({ endpoint: json.endpoint, keys: json.keys })
      });
    }).then(function (response) {
      if (!response.ok) {
        return response.json().then(function (body) {
          throw ours((body.errors || []).map(function (e) { return e.message; }).join(" ") || box.dataset.failed);
        });
      }
      say(box.dataset.done);
      window.location.reload();
      return null;
    }).catch(function (error) {
      say(error && error.ours ? error.message : box.dataset.failed);
      button.disabled = false;
    });
  });
}());
