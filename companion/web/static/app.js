// The dashboard shell: status, camera view, event log, questions, new game, the game's panel.
// Everything it shows comes from the server's views; hidden information never reaches a
// page that may not see it, because the server never sends it.

import { ApiError, get, post, seatParam, token, withAuth } from "./api.js";
import { LiveView } from "./live-view.js";

const $ = (id) => document.getElementById(id);
const state = {
  health: null, state: null, games: [], panelGame: null, panelModule: null, stateListeners: [],
  selectSession: null,
};

function toast(text) {
  const el = $("toast");
  el.textContent = text;
  el.hidden = false;
  clearTimeout(toast.timer);
  toast.timer = setTimeout(() => { el.hidden = true; }, 4000);
}

function showHealth(h) {
  state.health = h;
  const cam = $("st-camera");
  cam.textContent = h.camera.state;
  cam.dataset.state = h.camera.state;
  cam.title = h.camera.last_error || h.camera.source;
  $("st-fps").textContent = h.perception.fps.toFixed(1);
  // The server's words, from the same frame's registration as the overlay's line.
  $("st-markers").textContent = h.table.summary;
  $("st-markers").dataset.frame = String(h.table.frame);
  $("st-ms").textContent = h.perception.ms === null ? "–" : `${Math.round(h.perception.ms)} ms`;
  const storage = h.storage || {};
  const banner = $("storage-banner");
  const lines = [];
  if (storage.state && storage.state !== "ok") {
    lines.push(`degraded: storage — ${storage.reason || "writes fail"}. Nothing is lost; ` +
      "free some space and the game carries on.");
  }
  if (storage.notice) lines.push(storage.notice);
  banner.textContent = lines.join(" ");
  banner.hidden = lines.length === 0;
}

function seatsNow() {
  return state.state ? state.state.session.seats : [];
}

// The questions the log has shown, by id: an answer is worded by the choice's own label.
const asked = new Map();

// The log reads in players' words: the game's module words its own events (describe), the
// platform words the rest; the frame the camera kept and the raw event are a tap away.
function describe(ev) {
  const p = ev.payload || {};
  const seats = seatsNow();
  const mod = state.panelModule;
  if (mod && mod.describe) {
    try {
      const words = mod.describe(ev, seats, state.state ? state.state.view : null);
      if (words) return words;
    } catch { /* a game's wording must never hide the event: fall through */ }
  }
  if (ev.kind === "session.started") return `New ${gameTitle(p.game)} game: ${(p.seats || []).join(", ")}`;
  if (ev.kind === "question") {
    asked.set(p.id, p);
    return p.text;
  }
  if (ev.kind === "answer") {
    // In the words of the choice tapped, by whom: the raw answer is a card id or a place code.
    const choice = ((asked.get(p.question) || {}).choices || []).find((c) => c.value === p.answer);
    const who = Number.isInteger(p.seat) && seats[p.seat] ? `${seats[p.seat]} answered` : "Answered";
    return `${who}: ${p.label || (choice ? choice.label : p.answer)}`;
  }
  if (ev.kind === "table.right") return "The table is right: the companion now keeps what the camera sees";
  if (p.text) return p.text;
  return ev.kind.replace(/[._]/g, " ");
}

function gameTitle(id) {
  const game = state.games.find((g) => g.id === id);
  return game ? game.title : id;
}

function addEvent(ev) {
  const li = document.createElement("li");
  li.value = ev.seq;
  li.dataset.seq = ev.seq;
  li.dataset.kind = ev.kind;
  const time = document.createElement("span");
  time.className = "time";
  time.textContent = `${new Date(ev.ts * 1000).toLocaleTimeString([], { hour: "2-digit", minute: "2-digit" })} `;
  const words = document.createElement("span");
  words.className = "words";
  words.textContent = describe(ev);
  li.append(time, words);
  if (ev.visibility !== "public") {
    li.classList.add("private");
    li.title = "only you see this";
  }
  // One tap: the picture the camera kept (loaded only then); one more: the raw event.
  const more = document.createElement("details");
  const summary = document.createElement("summary");
  summary.textContent = ev.snapshot ? "picture" : "…";
  summary.setAttribute("aria-label", ev.snapshot ? "the camera's picture of this moment" : "details");
  more.append(summary);
  more.addEventListener("toggle", () => {
    if (!more.open || more.dataset.filled) return;
    more.dataset.filled = "1";
    if (ev.snapshot) {
      const img = document.createElement("img");
      img.className = "shot";
      img.alt = `what the camera saw: ${words.textContent}`;
      img.src = withAuth(ev.snapshot);
      more.append(img);
    }
    const raw = document.createElement("details");
    const rawSummary = document.createElement("summary");
    rawSummary.textContent = "raw event";
    const pre = document.createElement("pre");
    pre.textContent = JSON.stringify(ev, null, 1);
    raw.append(rawSummary, pre);
    more.append(raw);
  });
  li.append(" ", more);
  const log = $("log");
  if (!log.querySelector(`li[data-seq="${ev.seq}"]`)) log.prepend(li);
}

async function loadHistory() {
  $("log").replaceChildren();
  for (const ev of await get("/api/history")) addEvent(ev);
}

async function loadQuestions() {
  const qs = await get("/api/questions");
  const list = $("questions");
  list.replaceChildren();
  for (const q of qs) {
    const li = document.createElement("li");
    li.append(q.text);
    const choices = document.createElement("div");
    choices.className = "choices";
    for (const c of q.choices) {
      const b = document.createElement("button");
      b.type = "button";
      const pic = state.panelModule && state.panelModule.choicePicture
        ? state.panelModule.choicePicture(c, state.state ? state.state.view : null) : null;
      if (pic) b.append(pic);
      b.append(c.label);
      b.addEventListener("click", async () => {
        try {
          await post("/api/corrections", { question: q.id, answer: c.value });
        } catch (err) {
          toast(err.message);
        }
      });
      choices.append(b);
    }
    li.append(choices);
    list.append(li);
  }
  $("questions-card").hidden = qs.length === 0;
}

async function loadState() {
  const s = await get("/api/state");
  state.state = s;
  const game = state.games.find((g) => g.id === s.session.game);
  $("game-title").textContent = game ? game.title : s.session.game;
  const seatName = s.seat === null ? null : s.session.seats[s.seat];
  $("who").textContent = s.seat === null ? (s.role === "spectator" ? "watching" : s.role)
    : `${seatName}'s phone`;
  $("admin-card").hidden = !(s.role === "local" || s.role === "admin");
  // Follow the table's game only when the session changes: an event arriving while an admin
  // picks the next game must not put the dropdown back under their finger.
  if (game && state.selectSession !== s.session.id) {
    state.selectSession = s.session.id;
    $("game-select").value = game.id;
  }
  await mountPanel(s);
  for (const fn of state.stateListeners) fn(s);
  return s;
}

const panelApi = {
  get seat() { return state.state ? state.state.seat : null; },
  state: () => state.state,
  get,
  post,
  correct: (payload) => post("/api/corrections", payload),
  onState: (fn) => { state.stateListeners.push(fn); },
};

async function mountPanel(s) {
  const gid = s.session.game;
  if (state.panelGame === `${s.session.id}`) return;
  state.panelGame = `${s.session.id}`;
  state.stateListeners = [];
  state.panelModule = null;
  showLegend([]);
  const el = $("panel");
  el.replaceChildren();
  const game = state.games.find((g) => g.id === gid);
  $("panel-title").textContent = game ? game.title : gid;
  // A game's look comes with its panel (games/<game>/table/panel.css): one stylesheet link,
  // swapped when the game changes.
  document.getElementById("panel-style")?.remove();
  if (game && game.panel_css) {
    document.head.append(Object.assign(document.createElement("link"),
      { id: "panel-style", rel: "stylesheet", href: `/static/games/${gid}.css` }));
  }
  if (game && game.panel) {
    try {
      const mod = await import(`/static/games/${gid}.js`);
      state.panelModule = mod;
      // A legend may name the players (a function of the seats' names) or be a fixed list.
      const legend = typeof mod.overlayLegend === "function" ? mod.overlayLegend(s.session.seats) : mod.overlayLegend;
      showLegend(legend || []);
      await mod.mount(el, panelApi);
      return;
    } catch (err) {
      el.textContent = `The ${gid} panel failed to load: ${err.message}`;
      return;
    }
  }
  const note = document.createElement("p");
  note.className = "muted";
  note.textContent = "This game's table view is coming. The camera, markers and events already work.";
  const pre = document.createElement("pre");
  pre.className = "view-json";
  el.append(note);
  if (s.view.panel === "demo") return; // the platform's demo: nothing more to show
  const show = (st) => { pre.textContent = JSON.stringify(st.view, null, 2); };
  show(s);
  state.stateListeners.push(show);
  el.append(pre);
}

/** The platform's own marks on the live image (companion/live/overlay.py), in a colour no game uses. */
const PLATFORM_LEGEND = [["blue", "table outline and its markers"]];

/** What the outlines on the live image mean, the platform's and the game's: [[colour, words]]. */
function showLegend(gameItems) {
  const items = [...PLATFORM_LEGEND, ...gameItems];
  const list = $("overlay-legend");
  list.replaceChildren(...items.map(([colour, words]) => {
    const li = document.createElement("li");
    li.className = `sw-${colour}`;
    li.textContent = words;
    return li;
  }));
  list.hidden = items.length === 0;
}

async function loadGames() {
  state.games = await get("/api/games");
  const select = $("game-select");
  select.replaceChildren();
  for (const g of state.games) {
    const opt = document.createElement("option");
    opt.value = g.id;
    opt.textContent = `${g.title} (${g.players})${g.table ? "" : " · demo view"}`;
    select.append(opt);
  }
}

function showLinks(links) {
  const list = $("links");
  list.replaceChildren();
  for (const l of links) {
    const li = document.createElement("li");
    const a = document.createElement("a");
    a.href = l.url;
    a.textContent = `${l.name}: ${l.url}`;
    li.append(a);
    list.append(li);
  }
  $("links-box").hidden = links.length === 0;
}

function setupAdmin() {
  $("new-game").addEventListener("submit", async (e) => {
    e.preventDefault();
    $("new-game-error").textContent = "";
    const names = $("seat-names").value.split(",").map((s) => s.trim()).filter(Boolean);
    const body = { game: $("game-select").value };
    if (names.length) body.seats = names;
    try {
      const res = await post("/api/session", body);
      showLinks(res.links);
      toast(`new ${res.session.game} game started`);
    } catch (err) {
      $("new-game-error").textContent = err.message;
    }
  });
  $("show-links").addEventListener("click", async () => {
    try { showLinks(await get("/api/session/links")); } catch (err) { toast(err.message); }
  });
}

function connectEvents() {
  const source = new EventSource(withAuth("/api/events"));
  source.addEventListener("status", (e) => showHealth(JSON.parse(e.data)));
  source.addEventListener("event", async (e) => {
    addEvent(JSON.parse(e.data));
    await Promise.all([loadState(), loadQuestions()]).catch((err) => toast(err.message));
  });
  source.addEventListener("hello", async (e) => {
    // after a reconnect (a server restart, Wi-Fi back): catch up if the game changed
    const hello = JSON.parse(e.data);
    if (state.state && hello.session.id !== state.state.session.id) {
      try {
        await loadState();
        await Promise.all([loadHistory(), loadQuestions()]);
      } catch (err) {
        toast(err.message);
      }
    }
  });
  source.addEventListener("session", async () => {
    try {
      await loadState(); // first: the log's words come from the new game's module
      await Promise.all([loadHistory(), loadQuestions()]);
    } catch (err) {
      toast(err.message);
    }
  });
  source.onerror = () => {
    if (source.readyState !== EventSource.CLOSED) {
      const cam = $("st-camera");
      cam.textContent = "reconnecting to the companion…";
      cam.dataset.state = "reconnecting";
      return;
    }
    // refused for good (e.g. a seat link of an earlier game): say why
    loadState().then(() => setTimeout(connectEvents, 2000)).catch((err) => toast(err.message));
  };
}

async function main() {
  new LiveView($("live"), $("view-mode"), $("toggle-mode"),
    () => (state.health ? state.health.camera.fps : 0));
  setupAdmin();
  try {
    await loadGames();
    showHealth(await get("/api/health"));
    await loadState();
    await Promise.all([loadHistory(), loadQuestions()]);
  } catch (err) {
    if (err instanceof ApiError && err.status === 401) {
      toast(`${err.message}${token ? "" : " (open your link again)"}`);
    } else {
      toast(err.message);
    }
  }
  connectEvents();
  document.body.dataset.ready = "1";
}

if (seatParam !== null) document.documentElement.dataset.seat = seatParam;
main();
