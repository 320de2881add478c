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
    // a button open only in a window of controller time (the end of the day, 002);
    // empty: open now (the clock stands in it)
    document.querySelectorAll("button[data-until]").forEach((b) => {
      const from = b.dataset.from === "" ? -Infinity : parseFloat(b.dataset.from);
      const until = b.dataset.until === "" ? Infinity : parseFloat(b.dataset.until);
      b.disabled = !(from <= now && now <= until);
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
      // a list drawn with the page (the bans, from the club database) is drawn again
      if (data.ok && form.dataset.reload) setTimeout(() => window.location.reload(), 1200);
      if (data.ok && form.dataset.close && !(form.id === "bust-form" && afterBust())) {
        form.closest("dialog").close();
      }
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

  // ------------------------------------------------------------ tabs
  // a phone shows one panel (the floor first); a laptop shows the main panels always and
  // one tool panel beside them (console.css)
  document.querySelectorAll(".tabbed").forEach((box) => {
    const tabs = box.querySelectorAll(".tabs button[data-tab]");
    function choose(tab) {
      const main = box.querySelector(`.tabs button[data-tab="${tab}"]`).classList.contains("main-tab");
      box.dataset.tab = tab;
      if (!main) box.dataset.tool = tab;
      tabs.forEach((b) => {
        b.classList.toggle("on", b.dataset.tab === tab);
        b.classList.toggle("tool-on", b.dataset.tab === box.dataset.tool);
        b.setAttribute("aria-pressed", String(b.dataset.tab === tab));
      });
      box.querySelectorAll(".panel[data-panel]").forEach((p) => {
        p.classList.toggle("on", p.dataset.panel === tab);
        p.classList.toggle("tool-on", p.dataset.panel === box.dataset.tool);
      });
    }
    tabs.forEach((b) => b.addEventListener("click", () => {
      choose(b.dataset.tab);
      window.scrollTo(0, 0);
    }));
    choose(box.dataset.tab);
  });

  // ------------------------------------------------------------ what applies now
  // the live part #applies says which forms apply (body[data-applies]; console.css hides
  // every [data-needs] that does not)
  function applies() {
    const i = document.querySelector("#applies [data-applies]");
    if (i) document.body.dataset.applies = i.dataset.applies;
  }
  const applying = (what) => (document.body.dataset.applies || "").split(" ").includes(what);

  // ------------------------------------------------------------ bust dialog
  const dialog = document.getElementById("bust-dialog");
  const lang = document.documentElement.lang || "en";
  const chips = (n) => Number(n).toLocaleString(lang === "de" ? "de-DE" : "en-GB");
  function openBust(seat, byName) {
    const f = document.getElementById("bust-form");
    const step = document.getElementById("rebuy-step");
    f.reset();
    f.hidden = false;
    step.hidden = true;
    document.getElementById("reseat-step").hidden = true;
    // 003 12: the seat sits out until the button passes; the player may be dealt in at once
    const dealIn = document.getElementById("deal-in-form");
    dealIn.hidden = byName || !seat.dataset.sitsOut;
    dealIn.elements.player_id.value = seat.dataset.player;
    // by name: the player (a player still on the way is busted without a confirm)
    f.elements.table.value = byName ? "" : seat.dataset.table;
    f.elements.seat.value = byName ? "" : seat.dataset.seat;
    f.elements.player_id.value = byName ? seat.dataset.player : "";
    dialog.dataset.player = seat.dataset.player;
    dialog.dataset.name = seat.dataset.full || seat.dataset.name;
    const title = dialog.querySelector(".bust-title");
    title.textContent = title.dataset.template.replace("{name}", dialog.dataset.name);
    const where = dialog.querySelector(".bust-where");
    where.textContent = where.dataset.template.replace("{table}", seat.dataset.table).replace("{seat}", seat.dataset.seat);
    // two out in one hand (000 9.5): "same hand as …", with the stacks of those out before
    const table = seat.closest("section.table");
    let earlier = [];
    try { earlier = JSON.parse(table.dataset.handBusts || "[]"); } catch (e) { earlier = []; }
    const same = f.querySelector(".same");
    same.hidden = !(table.dataset.asksSameHand && earlier.length);
    const label = same.querySelector(".same-label");
    label.textContent = label.dataset.template.replace("{names}", earlier.map((b) => b.name).join(", "));
    const list = same.querySelector(".earlier");
    list.replaceChildren(...earlier.map((b) => {
      const li = document.createElement("li");
      li.textContent = b.stack === null || b.stack === undefined
        ? list.dataset.unknown.replace("{name}", b.name)
        : list.dataset.template.replace("{name}", b.name).replace("{chips}", chips(b.stack));
      return li;
    }));
    f.elements.stack.required = false;
    dialog.showModal();
  }
  if (dialog) {
    const f = document.getElementById("bust-form");
    // the same hand needs this player's stack too: the places follow the stacks
    f.elements.same_hand.addEventListener("change", () => {
      f.elements.stack.required = f.elements.same_hand.checked;
      if (f.elements.same_hand.checked) f.elements.stack.focus();
    });
  }
  // after a bust: in the rebuy (or re-entry) period the next step offers it; else done
  function afterBust() {
    if (!applying("rebuy") && !applying("reentry")) return false;
    const step = document.getElementById("rebuy-step");
    document.getElementById("bust-form").hidden = true;
    document.getElementById("deal-in-form").hidden = true;
    step.hidden = false;
    step.elements.player_id.value = dialog.dataset.player;
    const title = step.querySelector(".rebuy-title");
    title.textContent = title.dataset.template.replace("{name}", dialog.dataset.name);
    const i = document.querySelector("#applies [data-rebuy-why]");
    step.querySelector(".rebuy-why").textContent = i ? i.dataset.rebuyWhy : "";
    return true;
  }
  // the end of the day (002): the button opens the dialog for the card drawn
  document.addEventListener("click", (e) => {
    if (!(e.target.closest && e.target.closest("#day-end-open"))) return;
    const d = document.getElementById("day-end-dialog");
    if (!d) return;
    d.querySelector("form").reset();
    d.showModal();
  });
  // the seat's other step: the director reseats the player (002)
  function openReseat() {
    const step = document.getElementById("reseat-step");
    step.reset();
    document.getElementById("bust-form").hidden = true;
    document.getElementById("deal-in-form").hidden = true;
    step.hidden = false;
    step.elements.player_id.value = dialog.dataset.player;
    const title = step.querySelector(".reseat-title");
    title.textContent = title.dataset.template.replace("{name}", dialog.dataset.name);
    step.elements.table.focus();
  }
  document.addEventListener("click", (e) => {
    if (e.target.classList && e.target.classList.contains("to-reseat")) {
      openReseat();
      return;
    }
    const seat = e.target.closest && e.target.closest("button.seat[data-seat]");
    if (seat && dialog) {
      openBust(seat, false);
      return;
    }
    if (e.target.classList && e.target.classList.contains("cancel")) {
      e.target.closest("dialog").close();
    }
  });

  // ------------------------------------------------------------ the deal dialog (issue 30)
  // its content comes from /deal (ICM and chip chop from the last counts), asked again for
  // the amount played for the director typed; Enter there recomputes, it accepts nothing
  const dealDialog = document.getElementById("deal-dialog");
  async function loadDeal(playedFor) {
    const box = document.getElementById("deal-box");
    const q = playedFor ? "?played_for=" + encodeURIComponent(playedFor) : "";
    try {
      const r = await fetch("/deal" + q, { credentials: "same-origin" });
      if (r.status === 401) { window.location = "/login"; return; }
      box.innerHTML = await r.text();
    } catch (e) {
      show(false, String(e));
    }
  }
  if (dealDialog) {
    document.addEventListener("click", (e) => {
      if (!e.target.closest) return;
      if (e.target.closest("#deal-open")) {
        document.getElementById("deal-box").innerHTML = "";
        dealDialog.showModal();
        loadDeal("");
      } else if (e.target.closest("#deal-recompute")) {
        loadDeal(document.getElementById("deal-played-for").value);
      }
    });
    dealDialog.addEventListener("change", (e) => {
      if (e.target.id === "deal-played-for") loadDeal(e.target.value);
    });
    dealDialog.addEventListener("keydown", (e) => {
      if (e.key === "Enter" && e.target.id === "deal-played-for") {
        e.preventDefault();
        loadDeal(e.target.value);
      }
    });
  }

  // ------------------------------------------------------------ find and bust by name
  const find = document.getElementById("find-form");
  function seatsMatching(q) {
    const needle = q.trim().toLowerCase();
    const seats = [...document.querySelectorAll("button.seat[data-seat]:not([disabled])")];
    if (!needle) return [];
    const exact = seats.filter((b) => (b.dataset.full || "").toLowerCase() === needle);
    return exact.length ? exact : seats.filter((b) =>
      (b.dataset.full || "").toLowerCase().includes(needle) || b.dataset.name.toLowerCase().includes(needle));
  }
  function markFound() {
    if (!find) return;
    const hits = new Set(seatsMatching(find.elements[0].value));
    document.querySelectorAll("button.seat[data-seat]").forEach((b) => b.classList.toggle("match", hits.has(b)));
    const first = [...hits][0];
    if (first && hits.size <= 3) first.scrollIntoView({ block: "nearest" });
  }
  if (find) {
    const input = find.elements[0];
    input.addEventListener("input", markFound);
    find.addEventListener("submit", (e) => {
      e.preventDefault();
      const hits = seatsMatching(input.value);
      if (hits.length !== 1) {
        show(false, input.dataset.none.replace("{name}", input.value.trim()));
        return;
      }
      input.value = "";
      markFound();
      openBust(hits[0], true);
    });
  }

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
  // the players' list sorted as chosen: name, where they sit, chips (most first), place
  const sorter = document.getElementById("sort");
  function sortPlayers() {
    const list = document.querySelector("ul.players");
    if (!sorter || !list) return;
    const by = sorter.value;
    const key = (li) => by === "chips" ? -(parseInt(li.dataset.chips) || -1)
      : by === "where" ? (li.dataset.where || "~") : by === "place" ? (li.dataset.place || "~") : li.dataset.name;
    const items = [...list.children];
    items.sort((a, b) => { const x = key(a), y = key(b); return x < y ? -1 : x > y ? 1 : 0; });
    list.replaceChildren(...items);
  }
  if (sorter) sorter.addEventListener("change", sortPlayers);
  sortPlayers();
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

  // ------------------------------------------------------------ the chime
  // a level's end and a break's start sound in the director's browser (WebAudio: no file).
  // A browser lets a page sound only after a tap: the first tap anywhere makes the
  // context. The switch is kept in this browser (localStorage).
  const sound = document.getElementById("sound");
  let audio = null;
  const soundOn = () => localStorage.getItem("floorman-sound") !== "off";
  function showSound() {
    if (!sound) return;
    sound.textContent = soundOn() ? sound.dataset.on : sound.dataset.off;
    sound.setAttribute("aria-pressed", String(soundOn()));
  }
  if (sound) {
    sound.addEventListener("click", () => {
      localStorage.setItem("floorman-sound", soundOn() ? "off" : "on");
      showSound();
    });
    showSound();
    document.addEventListener("pointerdown", () => {
      const Ctx = window.AudioContext || window.webkitAudioContext;
      if (!audio && Ctx) audio = new Ctx();
      if (audio && audio.state === "suspended") audio.resume();
    });
  }
  function chime(kind) {
    if (!soundOn()) return;
    // what sounded, for the browser test (a headless browser has no ears)
    document.body.dataset.chimes = String(parseInt(document.body.dataset.chimes || "0") + 1);
    document.body.dataset.chime = kind;
    if (!audio) return;
    // a level: two rising notes; a break: three, down and up again
    const notes = kind === "break" ? [784, 587, 784] : [659, 988];
    const t0 = audio.currentTime + 0.05;
    notes.forEach((hz, i) => {
      const o = audio.createOscillator();
      const g = audio.createGain();
      const at = t0 + i * 0.35;
      o.type = "sine";
      o.frequency.value = hz;
      g.gain.setValueAtTime(0.0001, at);
      g.gain.exponentialRampToValueAtTime(0.4, at + 0.02);
      g.gain.exponentialRampToValueAtTime(0.0001, at + 0.9);
      o.connect(g).connect(audio.destination);
      o.start(at);
      o.stop(at + 1);
    });
  }
  const levelNow = () => {
    const c = document.querySelector("#clockbox .clock[data-level]");
    return c ? { level: c.dataset.level, isBreak: c.dataset.break === "1" } : null;
  };
  let lastLevel = levelNow();
  function chimeOnChange() {
    if (!sound) return;
    const now = levelNow();
    if (now && lastLevel && now.level !== lastLevel.level) chime(now.isBreak ? "break" : "level");
    if (now) lastLevel = now;
  }

  // ------------------------------------------------------------ live updates
  // the fields of a form with an id that differ from what the page gave them
  function chosen(el) {
    const kept = [];
    el.querySelectorAll("form[id] select, form[id] input, form[id] textarea").forEach((f) => {
      if (!f.name || f.type === "hidden" || f.type === "submit") return;
      let changed;
      if (f.type === "checkbox" || f.type === "radio") changed = f.checked !== f.defaultChecked;
      else if (f.tagName === "SELECT") {
        const first = f.querySelector("option[selected]") || f.options[0];
        changed = first ? f.value !== first.value : false;
      } else changed = f.value !== f.defaultValue;
      if (changed) kept.push({ form: f.form.id, name: f.name, value: f.value, checked: f.checked });
    });
    return kept;
  }
  function restore(kept) {
    for (const k of kept) {
      const form = document.getElementById(k.form);
      const f = form && form.elements.namedItem(k.name);
      if (!f || f instanceof RadioNodeList) continue;
      if (f.type === "checkbox") f.checked = k.checked;
      else if (f.tagName !== "SELECT" || [...f.options].some((o) => o.value === k.value)) {
        f.value = k.value;
      }
    }
  }
  if (page && window.EventSource) {
    const es = new EventSource(`/events?page=${encodeURIComponent(page)}`);
    es.addEventListener("update", (e) => {
      const data = JSON.parse(e.data);
      offset = data.now - Date.now() / 1000;
      for (const [id, html] of Object.entries(data.html)) {
        const el = document.getElementById(id);
        if (!el) continue;
        // what the director chose or typed in a form there outlives the new HTML ("von
        // Tisch 1" was reset to "nach Plan" by a bust elsewhere between choosing and
        // pressing, and the plan's move was made instead)
        const kept = chosen(el);
        el.innerHTML = html;
        restore(kept);
      }
      document.body.dataset.version = (parseInt(document.body.dataset.version || "0") + 1);
      applies();
      chimeOnChange();
      markFound();
      sortPlayers();
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
