// Reflections in the Looking Glass: the glass with legal picks, both score piles as the
// rulebook's 5x2 grid, scores, round and match history, and per seat a private hint and hand.
// For the admin, "Teach my deck": the camera learns each card of the user's own copy, one at a
// time (show, capture, check the straightened card, confirm or retake).
// An ES module exporting mount(el, api); see companion/live/table_game.py.

const API = "/api/games/looking-glass";
const STILL_EVERY_MS = 500;
const WAITING_POLL_MS = 3000;

function h(tag, props = {}, ...children) {
  const node = Object.assign(document.createElement(tag), props);
  node.append(...children.filter((c) => c !== null && c !== undefined));
  return node;
}

function pretty(id) {
  return id ? id.replace(/-/g, " ") : "?";
}

function glassGrid(v) {
  // Positions are "A-r2-c4": half, row (0 = next to the centre line), column in half-cards.
  const cells = v.glass.map((g) => {
    const [half, r, c] = g.position.split("-");
    return { ...g, half, row: Number(r.slice(1)), col: Number(c.slice(1)) };
  });
  if (!cells.length) return h("p", { className: "lg-empty" }, "Deal the Looking Glass: the camera is watching for a fresh layout.");
  const maxRow = Math.max(...cells.map((c) => c.row));
  const maxCol = Math.max(...cells.map((c) => c.col)) + 2;
  const legal = new Set(v.legal);
  const linked = new Set(v.self_linked);
  const grid = h("div", { className: "lg-glass" });
  grid.style.display = "grid";
  grid.style.gridTemplateColumns = `repeat(${maxCol}, 1.6em)`;
  grid.style.gridTemplateRows = `repeat(${2 * (maxRow + 2) + 1}, 1.4em)`;
  for (const c of cells) {
    // Half B above the centre line (tops down), half A below (tops up), rows outward.
    const line = maxRow + 2;
    const top = c.half === "A" ? line + 1 + c.row : line - 1 - c.row - 1;
    const card = h("div", {
      className: ["lg-card", c.present ? "" : "lg-taken", legal.has(c.position) ? "lg-legal" : "",
        linked.has(c.position) ? "lg-linked" : ""].join(" "),
      title: `${c.position}: ${pretty(c.card)}${c.present ? (c.covered ? " (covered)" : " (free)") : " (taken)"}`,
      textContent: c.present ? pretty(c.card).slice(0, 3) : "",
    });
    card.dataset.position = c.position;
    card.style.gridColumn = `${c.col + 1} / span 2`;
    card.style.gridRow = `${top + 1} / span 2`;
    grid.append(card);
  }
  return grid;
}

function pileGrid(grid, name, score) {
  const table = h("table", { className: "lg-pile" });
  const caption = h("caption", { textContent: `${name}: ${score >= 0 ? "+" : ""}${score}` });
  table.append(caption);
  for (const team of ["sun", "moon"]) {
    const tr = h("tr");
    tr.append(h("th", { textContent: team }));
    for (const c of grid[team]) tr.append(h("td", { title: c.name, textContent: c.count ? `${pretty(c.card).slice(0, 4)}×${c.count}` : "·" }));
    table.append(tr);
  }
  const br = grid.brawlers.filter((c) => c.count);
  if (br.length) table.append(h("tr", {}, h("th", { textContent: "brawlers" }), ...br.map((c) => h("td", { textContent: pretty(c.card) }))));
  return table;
}

function button(text, onClick, className = "") {
  const b = h("button", { type: "button", textContent: text, className });
  b.addEventListener("click", onClick);
  return b;
}

// The teaching lives on the server (a new mount, another phone: the same session), so this
// panel only shows the server's answer and sends the taps.
function teachPanel(api, onTaught) {
  const box = h("section", { className: "lg-teach" });
  const body = h("div");
  const error = h("p", { className: "error", role: "alert" });
  const more = h("div");
  const still = h("img", { className: "lg-teach-live", alt: "what the camera sees now" });
  const brawlers = h("input", { type: "checkbox" });
  let timer = null;
  let busy = false;
  let last = null; // the server's last answer
  let chosen = null; // a card picked from "teach another card", else the server's next

  function poll() {
    // Stills from the camera while a card is to be shown; stops when the panel goes away.
    clearTimeout(timer);
    if (!still.isConnected) return;
    const next = new Image();
    next.onload = () => { still.src = next.src; timer = setTimeout(poll, STILL_EVERY_MS); };
    next.onerror = () => { timer = setTimeout(poll, 2000); };
    next.src = `/api/snapshot.jpg?t=${Date.now()}`;
  }

  async function step(path, payload) {
    if (busy) return;
    busy = true;
    error.textContent = "";
    box.querySelectorAll("button").forEach((b) => { b.disabled = true; });
    try {
      const answer = payload === undefined ? await api.get(path) : await api.post(path, payload);
      if (path.endsWith("/confirm")) {
        chosen = null;
        onTaught();
      }
      show(answer);
    } catch (err) {
      error.textContent = err.message;
      box.querySelectorAll("button").forEach((b) => { b.disabled = false; });
    } finally {
      busy = false;
    }
  }

  function start() {
    return step(`${API}/teach`, { brawlers: brawlers.checked });
  }

  function show(t) {
    last = t;
    clearTimeout(timer);
    if (!t.active) {
      more.replaceChildren();
      body.replaceChildren(
        h("p", { className: "muted", textContent: "Show the camera each card of your own deck, one at a time, so it can tell them apart at the table." }),
        h("label", { className: "lg-check" }, brawlers, " with the Brawlers (the Lion and the Unicorn)"),
        button("Teach my deck", start),
      );
      return;
    }
    brawlers.checked = t.brawlers; // "Teach again" keeps the choice
    const ask = (chosen && t.cards.find((c) => c.id === chosen)) || t.next;
    const progress = h("p", { className: "lg-progress", textContent: `${t.taught} of ${t.total} cards taught` });
    const chips = h("div", { className: "lg-chips" }, ...t.cards.map((c) => {
      const b = button(`${c.taught ? "✓ " : ""}${c.name}`, () => {
        chosen = c.id;
        error.textContent = "";
        show(last);
      }, "small");
      b.dataset.card = c.id;
      b.title = c.taught ? "taught: show it again to replace it" : "show this card next";
      return b;
    }));
    const parts = [progress];
    if (t.pending) {
      const p = t.pending;
      parts.push(
        h("h3", { textContent: `Is this ${p.name}?` }),
        h("img", { className: "lg-teach-preview", src: p.preview, alt: `the captured card, straightened: ${p.name}` }),
        p.warning ? h("p", { className: "lg-warn", textContent: p.warning }) : null,
        h("p", { className: "muted", textContent: "The outlined upper half is what the camera matches: it should be sharp and free of glare." }),
        h("div", { className: "lg-row" },
          button("Confirm", () => step(`${API}/teach/confirm`, { card: p.card })),
          button("Retake", () => step(`${API}/teach/retake`, {}), "small")),
      );
    } else if (ask) {
      parts.push(
        h("h3", { className: "lg-ask", textContent: `Show me ${ask.name}` }),
        h("p", { className: "muted", textContent: "Lay it face up and upright under the camera, alone, the whole card with its border in view." }),
        still,
        h("div", { className: "lg-row" }, button("Capture", () => step(`${API}/teach/capture`, { card: ask.id }))),
      );
    } else {
      parts.push(h("h3", { className: "lg-done", textContent: `All ${t.total} cards taught: the table reads with them now.` }));
      if (t.warnings.length) {
        parts.push(h("ul", { className: "lg-warnings" }, ...t.warnings.map((w) => h("li", { className: "lg-warn", textContent: w }))));
      } else {
        parts.push(h("p", { className: "muted", textContent: "No two cards look alike to the camera." }));
      }
      parts.push(button("Teach again", start, "small"));
    }
    if (!t.pending && t.warnings.length && t.next) parts.push(h("p", { className: "muted", textContent: `${t.warnings.length} warning(s) so far; they are listed at the end.` }));
    more.replaceChildren(h("details", {}, h("summary", { textContent: "teach another card" }), chips));
    body.replaceChildren(...parts.filter((x) => x));
    poll(); // only while the live still is on the page
  }

  box.append(h("h3", { textContent: "Teach my deck" }), body, error, more);
  step(`${API}/teach`);
  return box;
}

export function mount(el, api) {
  const status = h("p", { className: "lg-status" });
  const glass = h("div");
  const piles = h("div", { className: "lg-piles" });
  const history = h("ol", { className: "lg-history" });
  const mine = h("div", { className: "private" });
  const hintOut = h("p");
  const hintButton = h("button", { textContent: "Hint (only you see it)" });
  hintButton.addEventListener("click", async () => {
    try {
      const r = await api.post(`${API}/hint`, {});
      hintOut.textContent = r.hint && r.hint.best ? `Best pick: ${r.hint.best}` : (r.hint && r.hint.error) || "no hint";
    } catch (err) {
      hintOut.textContent = err.message;
    }
  });
  const handForm = h("form");
  const handInput = h("input", { placeholder: "your 4 hand cards, e.g. dodo dodo walrus-carpenter caterpillar" });
  handForm.append(handInput, h("button", { textContent: "Tap in my hand" }));
  handForm.addEventListener("submit", async (e) => {
    e.preventDefault();
    try {
      await api.post(`${API}/hand`, { cards: handInput.value.trim().split(/[\s,]+/) });
      handInput.value = "";
    } catch (err) {
      hintOut.textContent = err.message;
    }
  });

  let poll = null;
  // The view as it is now, for what no game event announces.
  async function reload() {
    try { render({ view: await api.get(`${API}/view`) }); } catch { /* the next event will */ }
  }

  function render(state) {
    const v = state.view;
    if (!v || v.panel !== "looking-glass") return;
    const names = v.seats;
    const turn = v.to_move === null || v.to_move === undefined ? "" : ` - ${names[v.to_move]} to pick`;
    status.textContent = `Round ${v.round || "-"}${v.layout ? ` (${v.layout})` : ""}${turn}. Wins: ${names[0]} ${v.wins[0]}, ${names[1]} ${v.wins[1]} (to ${v.target})${v.match_over ? " - match over" : ""}`;
    if (v.library) status.textContent += ` - ${v.library}`;
    if (v.waiting) status.textContent += ` - ${v.waiting}`;
    // No game event announces why the camera waits (a glass it cannot follow, picks held for
    // an answer): look again while there is no glass followed or something is waited for.
    clearTimeout(poll);
    if (v.waiting || !v.glass.length) {
      poll = setTimeout(reload, WAITING_POLL_MS);
    }
    glass.replaceChildren(glassGrid(v));
    piles.replaceChildren(pileGrid(v.piles[0], names[0], v.running_scores[0]), pileGrid(v.piles[1], names[1], v.running_scores[1]));
    const items = [];
    for (const p of v.picks) {
      // A self-linked pair that left at once: both cards are the same character, and which
      // of the two places was chosen was not seen, so the line names the pair.
      const where = p.order === "self-linked" ? `${p.position} or ${p.reflection}` : p.position;
      const li = h("li", { textContent: `${names[p.seat]} took ${pretty(p.card)} (${where}); ${names[1 - p.seat]} got ${pretty(p.reflection_card)}${p.illegal ? " - ILLEGAL: that card was covered" : ""}` });
      if (p.illegal) li.className = "lg-illegal";
      items.push(li);
    }
    for (const r of v.results) items.push(h("li", { textContent: `Round ${r.round}: ${names[0]} ${r.totals[0]}, ${names[1]} ${r.totals[1]} - ${names[r.winner]} wins` }));
    history.replaceChildren(...items);
    if (api.seat !== null && api.seat !== undefined) {
      const hand = v.my_hand ? v.my_hand.map(pretty).join(", ") : "not tapped in yet";
      mine.replaceChildren(h("p", { textContent: `Your hand: ${hand}` }), hintButton, hintOut, handForm);
      hintButton.disabled = !v.hint_available;
    }
  }

  el.replaceChildren(status, glass, piles, history);
  if (api.seat !== null && api.seat !== undefined) el.append(mine);
  const first = api.state();
  if (first && (first.role === "local" || first.role === "admin")) {
    // A confirmed card is in the table's library from its next frame on: refresh the status
    // line ("does not know your cards") then, as no game event will.
    const refresh = () => setTimeout(reload, 1000);
    el.append(teachPanel(api, refresh));
  }
  const style = h("style", {
    textContent: `.lg-card{border:1px solid #888;border-radius:3px;font-size:.7em;background:#fafafa;overflow:hidden}
.lg-legal{outline:2px solid #2a2;background:#e8ffe8}.lg-linked{box-shadow:inset 0 0 0 2px #c6f}
.lg-taken{visibility:hidden}.lg-illegal{color:#c00;font-weight:bold}.lg-pile td,.lg-pile th{padding:0 .3em;font-size:.8em}
.lg-status{overflow-wrap:anywhere}.lg-teach{border-top:1px solid rgba(127,127,127,.3);margin-top:.8rem;padding-top:.4rem}
.lg-teach-live{width:100%;max-height:45vh;object-fit:contain;background:#000;border-radius:6px;display:block}
.lg-teach-preview{display:block;width:min(60vw,189px);margin:.3rem auto;border-radius:4px}
.lg-row{display:flex;gap:.5rem;align-items:center;margin:.4rem 0}.lg-row button{flex:1}
.lg-chips{display:flex;flex-wrap:wrap;gap:.3rem}.lg-warn{color:var(--warn)}.lg-check{display:flex;gap:.4rem;align-items:center}
.lg-check input{width:auto;min-height:0}`,
  });
  el.append(style);
  render(api.state());
  api.onState(render);
}
