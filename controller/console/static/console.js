// Floorman console: forms without reloading, live updates (server-sent events), the clock
// counting down, the bust dialog and the player search. No build step, no library.
"use strict";
(function () {
  const meta = (name) => (document.querySelector(`meta[name="${name}"]`) || {}).content || "";
  const csrf = meta("csrf");
  const page = meta("page");
  // controller time minus this browser's time: every update carries the controller's "now"
  let offset = meta("now") ? parseFloat(meta("now")) - Date.now() / 1000 : 0;
  const reply = document.getElementById("reply");

  function show(ok, text) {
    if (!reply) return;
    reply.hidden = false;
    reply.className = "reply " + (ok ? "ok" : "error");
    reply.textContent = text;
    clearTimeout(show.timer);
    // a success goes by itself; a reason stays until read (a tap closes it)
    if (ok) show.timer = setTimeout(() => (reply.hidden = true), 6000);
  }
  if (reply) reply.addEventListener("click", () => (reply.hidden = true));

  function clock(seconds) {
    if (seconds === null || isNaN(seconds)) return "∞";
    let s = Math.max(0, Math.ceil(seconds - 1e-6));
    const h = Math.floor(s / 3600); s -= h * 3600;
    const m = Math.floor(s / 60); s -= m * 60;
    const mm = String(m).padStart(2, "0"), ss = String(s).padStart(2, "0");
    return h ? `${h}:${mm}:${ss}` : `${mm}:${ss}`;
  }

  function tick() {
    const now = Date.now() / 1000 + offset;
    document.querySelectorAll("[data-ends-at]").forEach((el) => {
      el.textContent = clock(parseFloat(el.dataset.endsAt) - now);
    });
  }
  setInterval(tick, 250);
  tick();

  // ---------------------------------------------------------------- actions
  async function submit(form, submitter) {
    // a button may ask on its own (a round's end beside the counts' own button)
    const ask = (submitter && submitter.dataset.confirm) || form.dataset.confirm;
    if (ask && !window.confirm(ask)) return;
    const action = (submitter && submitter.getAttribute("formaction")) || form.getAttribute("action");
    const body = new URLSearchParams(new FormData(form, submitter || undefined));
    const buttons = form.querySelectorAll("button");
    buttons.forEach((b) => (b.disabled = true));
    try {
      const r = await fetch(action, {
        method: "POST", body, credentials: "same-origin",
        headers: { "X-CSRF-Token": csrf, "Accept": "application/json" },
      });
      let data;
      try { data = await r.json(); } catch (e) { data = { ok: false, reason: `HTTP ${r.status}` }; }
      if (r.status === 401) { window.location = "/login"; return; }
      show(data.ok, data.ok ? data.message : data.reason);
      // a mistake keeps what was typed; a success clears forms meant for the next entry
      if (data.ok && form.dataset.reset) form.reset();
      if (data.ok && form.dataset.close) form.closest("dialog").close();
    } catch (e) {
      show(false, String(e));
    } finally {
      buttons.forEach((b) => (b.disabled = false));
    }
  }

  document.addEventListener("submit", (e) => {
    const form = e.target;
    if (!form.classList || !form.classList.contains("act")) return;
    e.preventDefault();
    submit(form, e.submitter);
  });

  // printable pages: the print button (no inline script: the CSP forbids it)
  document.querySelectorAll("[data-print]").forEach((b) => b.addEventListener("click", () => window.print()));

  // ------------------------------------------------------------ bust dialog
  const dialog = document.getElementById("bust-dialog");
  document.addEventListener("click", (e) => {
    const seat = e.target.closest && e.target.closest("button.seat[data-seat]");
    if (seat && dialog) {
      const f = dialog.querySelector("form");
      f.reset();
      f.elements.table.value = seat.dataset.table;
      f.elements.seat.value = seat.dataset.seat;
      const title = dialog.querySelector(".bust-title");
      title.textContent = title.dataset.template.replace("{name}", seat.dataset.name);
      const where = dialog.querySelector(".bust-where");
      where.textContent = where.dataset.template.replace("{table}", seat.dataset.table).replace("{seat}", seat.dataset.seat);
      dialog.showModal();
      return;
    }
    if (e.target.classList && e.target.classList.contains("cancel")) {
      e.target.closest("dialog").close();
    }
  });

  // ------------------------------------------------------------ player search
  function names() {
    const list = document.querySelector("ul.players");
    try { return list ? JSON.parse(list.dataset.names) : []; } catch (e) { return []; }
  }
  function filter() {
    const q = (document.getElementById("search") || {}).value;
    if (q === undefined) return;
    const needle = q.trim().toLowerCase();
    document.querySelectorAll("ul.players li").forEach((li) => {
      li.hidden = needle !== "" && !li.dataset.name.includes(needle);
    });
  }
  const search = document.getElementById("search");
  if (search) search.addEventListener("input", filter);
  const reg = document.querySelector("[data-check=names]");
  function already() {
    if (!reg) return;
    const known = new Map(names().map((n) => [n.toLowerCase(), n]));
    const typed = reg.value.split(/[\n;]/).map((n) => n.trim().toLowerCase()).filter(Boolean);
    const hits = typed.filter((n) => known.has(n)).map((n) => known.get(n));
    const p = reg.form.querySelector(".already");
    p.hidden = hits.length === 0;
    p.textContent = p.dataset.template.replace("{names}", hits.join(", "));
  }
  if (reg) reg.addEventListener("input", already);

  // ------------------------------------------------------------ club list (docs/club.md)
  // names are typed once: the club's players matching what is typed are offered, and the
  // one picked goes onto the registration list
  const club = document.querySelector("[data-club-search]");
  if (club && reg) {
    const offer = document.getElementById("club-names");
    let shown = [];
    club.addEventListener("input", () => {
      const q = club.value.trim();
      if (shown.includes(q)) {
        reg.value = (reg.value.trim() ? reg.value.trim() + "\n" : "") + q + "\n";
        club.value = "";
        shown = [];
        offer.replaceChildren();
        already();
        return;
      }
      if (q.length < 2) return;
      fetch("/club/players?q=" + encodeURIComponent(q), { credentials: "same-origin" })
        .then((r) => r.json())
        .then((data) => {
          shown = data.players.map((p) => p.name);
          offer.replaceChildren(...shown.map((n) => {
            const o = document.createElement("option");
            o.value = n;
            return o;
          }));
        })
        .catch(() => {});
    });
  }

  // ------------------------------------------------------------ live updates
  if (page && window.EventSource) {
    const es = new EventSource(`/events?page=${encodeURIComponent(page)}`);
    es.addEventListener("update", (e) => {
      const data = JSON.parse(e.data);
      offset = data.now - Date.now() / 1000;
      for (const [id, html] of Object.entries(data.html)) {
        const el = document.getElementById(id);
        if (el) el.innerHTML = html;
      }
      document.body.dataset.version = (parseInt(document.body.dataset.version || "0") + 1);
      filter();
      already();
      tick();
    });
    es.addEventListener("error", () => {
      const lost = document.querySelector(".stream-lost");
      if (lost) lost.hidden = false;
    });
  }
})();
