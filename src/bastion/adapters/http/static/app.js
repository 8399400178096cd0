// Live approvals: new requests arrive over Server-Sent Events, answers go out with fetch.
// The server renders every card (/cards/ID); this script only places and updates them.
"use strict";
(function () {
  const csrf = document.querySelector('meta[name="csrf-token"]').content;
  const list = document.getElementById("requests");
  const empty = document.getElementById("empty");
  const status = document.getElementById("live-status");
  if (!list) return;

  function refreshEmpty() {
    const open = list.querySelectorAll('.card[data-state="pending"]').length;
    empty.hidden = list.children.length > 0;
    status.textContent = open ? open + " waiting" : "";
  }

  function say(card, text) {
    card.querySelector(".outcome").textContent = text;
  }

  function settle(card, request) {
    card.dataset.state = request.state;
    const form = card.querySelector("form.answer");
    if (form) form.remove();
    const text = request.state.replace("_", " ") + (request.feedback ? ": " + request.feedback : "");
    // A resolved card has no time left: the timing line says how it ended instead.
    const timing = card.querySelectorAll(".timing");
    if (timing.length === 2) { timing[0].textContent = "Resolved"; timing[1].textContent = text; }
    say(card, "Resolved: " + text);
    setTimeout(function () { card.remove(); refreshEmpty(); }, 8000);
    refreshEmpty();
  }

  function wire(card) {
    const form = card.querySelector("form.answer");
    if (!form || form.dataset.wired) return;
    form.dataset.wired = "1";
    form.addEventListener("submit", async function (event) {
      event.preventDefault();
      const body = new URLSearchParams(new FormData(form));
      body.set("action", event.submitter ? event.submitter.value : "approve_once");
      form.querySelectorAll("button").forEach(function (b) { b.disabled = true; });
      try {
        const response = await fetch(form.getAttribute("action"), {
          method: "POST", body: body, credentials: "same-origin",
          headers: { "Accept": "application/json", "X-CSRF-Token": csrf },
        });
        const data = await response.json();
        if (response.ok) { settle(card, data); return; }
        say(card, "Not done: " + data.error.message);
      } catch (err) {
        say(card, "Not done: " + err);
      }
      form.querySelectorAll("button").forEach(function (b) { b.disabled = false; });
    });
  }

  // One line for a person: who asks, the call, and its tool once ("shell: make x" -> "make x (shell)").
  function announce(request) {
    const agent = (request.agent || "").split("/")[0];
    const prefix = request.tool + ": ";
    const call = request.summary.startsWith(prefix) ? request.summary.slice(prefix.length) : request.summary;
    return "New request" + (agent ? " from " + agent : "") + ": " + call + " (" + request.tool + ")";
  }

  async function add(request) {
    if (document.getElementById("req-" + request.id)) return;
    const response = await fetch("/cards/" + encodeURIComponent(request.id), { credentials: "same-origin" });
    if (!response.ok || document.getElementById("req-" + request.id)) return;
    const holder = document.createElement("ul");
    holder.innerHTML = await response.text();
    const card = holder.firstElementChild;
    list.appendChild(card);
    wire(card);
    refreshEmpty();
    status.textContent = announce(request);
  }

  function tick() {
    const now = Date.now() / 1000;
    document.querySelectorAll("time.expires").forEach(function (el) {
      const left = Math.max(0, Math.floor(parseFloat(el.dataset.expires) - now));
      el.textContent = Math.floor(left / 60) + ":" + String(left % 60).padStart(2, "0");
    });
  }

  list.querySelectorAll(".card").forEach(wire);
  refreshEmpty();
  setInterval(tick, 1000);
  const events = new EventSource("/v1/events");
  events.addEventListener("request", function (e) { add(JSON.parse(e.data)); });
  events.addEventListener("resolved", function (e) {
    const request = JSON.parse(e.data);
    const card = document.getElementById("req-" + request.id);
    if (card && card.dataset.state === "pending") settle(card, request);
  });
  events.addEventListener("open", function () { document.body.dataset.live = "1"; });
})();
