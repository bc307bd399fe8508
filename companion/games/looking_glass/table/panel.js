// Reflections in the Looking Glass: the glass with legal picks, both score piles as the
// rulebook's 5x2 grid, scores, round and match history, and per seat a private hint and hand.
// For the admin, "Teach my deck": the camera learns each card of the user's own copy, one at a
// time (show, capture, check the straightened card, confirm or retake).
// An ES module exporting mount(el, api); see companion/live/table_game.py.

import { button, h, playerName, svg, tableIsRightButton } from "/static/panel-kit.js";

const API = "/api/games/looking-glass";
const STILL_EVERY_MS = 500;
const WAITING_POLL_MS = 3000;

// A card's picture: the upper half the camera learnt, served by the game's own endpoint
// (the sim camera's deck, or the deck taught on this table).
export const picture = (card) => `${API}/cards/${encodeURIComponent(card)}.png`;

/** What the outlines on the live image mean (app.js shows it under the picture). */
export const overlayLegend = [["green", "card read, free"], ["orange", "card read, covered"], ["red", "card not recognised"]];

/** Names from the view (the deck's own words): id -> "The Dodo". */
function namesOf(v) {
  const names = {};
  for (const team of ["sun", "moon", "brawlers"]) for (const c of (v && v.piles ? v.piles[0][team] : [])) names[c.card] = c.name;
  return names;
}

function pretty(id, names = {}) {
  if (!id) return "an unread card";
  return names[id] || id.replace(/-/g, " ");
}

/** "The Dodo" inside a sentence: "the Dodo". */
function the(name) {
  return name.replace(/^The /, "the ");
}

function cardImage(card, alt, className = "lg-pic") {
  const img = h("img", { className, alt, src: picture(card), loading: "lazy", decoding: "async" });
  // Before the deck is known the picture is missing: the card's name stands in.
  img.addEventListener("error", () => { img.replaceWith(h("span", { className: `${className} lg-noimg`, textContent: alt })); });
  return img;
}

function glassGrid(v, names, say) {
  // Positions are "A-r2-c4": half, row (0 = next to the centre line), column in half-cards.
  // A grid row is half a card: a card spans two, and the next row out covers its lower half,
  // so a covered card shows just what the camera reads of it, its upper half.
  const cells = v.glass.map((g) => {
    const [half, r, c] = g.position.split("-");
    return { ...g, half, row: Number(r.slice(1)), col: Number(c.slice(1)) };
  });
  if (!cells.length) return h("p", { className: "lg-empty" }, "Deal the Looking Glass: the camera is watching for a fresh layout.");
  const maxRow = Math.max(...cells.map((c) => c.row));
  const cols = Math.max(...cells.map((c) => c.col)) + 2;
  const rows = 2 * (maxRow + 2) + 1;
  const legal = new Set(v.legal);
  const linked = new Set(v.self_linked);
  const grid = h("div", { className: "lg-glass" });
  grid.style.gridTemplateColumns = `repeat(${cols}, minmax(0, 1fr))`;
  grid.style.gridTemplateRows = `repeat(${rows}, minmax(0, 1fr))`;
  grid.style.aspectRatio = `${cols * 31.5} / ${rows * 44}`; // half a card: 31.5 x 44 mm
  const line = maxRow + 2;
  const centre = h("div", { className: "lg-line" });
  centre.style.gridRow = `${line + 1}`;
  centre.style.gridColumn = `1 / span ${cols}`;
  grid.append(centre);
  for (const c of cells) {
    if (!c.present) continue;
    // Half B above the centre line (tops toward it, so upside down), half A below.
    const top = c.half === "A" ? line + 1 + c.row : line - 2 - c.row;
    const name = pretty(c.card, names);
    const state = c.covered ? "covered" : "free";
    const tile = h("button", {
      type: "button",
      className: ["lg-card", `lg-half-${c.half}`, c.covered ? "lg-covered" : "",
        legal.has(c.position) ? "lg-legal" : "", linked.has(c.position) ? "lg-linked" : ""].join(" "),
      title: `${name} (${state})`,
    });
    tile.append(c.card ? cardImage(c.card, name) : h("span", { className: "lg-pic lg-noimg", textContent: "?" }),
      h("span", { className: "lg-name", textContent: name.replace(/^The /, "") }));
    if (linked.has(c.position)) tile.append(h("span", { className: "lg-badge", textContent: "=" }));
    tile.dataset.position = c.position;
    tile.dataset.card = c.card || "";
    tile.addEventListener("click", () => say(`${name}: ${state}${legal.has(c.position) ? ", can be picked now" : ""}${linked.has(c.position) ? ", its own reflection" : ""}`));
    tile.style.gridColumn = `${c.col + 1} / span 2`;
    tile.style.gridRow = `${top + 1} / span 2`;
    tile.style.zIndex = String(c.row + 1); // the outer row lies over the inner one
    grid.append(tile);
  }
  return grid;
}

function legend() {
  return h("p", { className: "lg-legend" },
    h("span", { className: "lg-key lg-key-legal", textContent: "can be picked" }),
    h("span", { className: "lg-key lg-key-linked", textContent: "= its own reflection" }),
    h("span", { className: "lg-key lg-key-covered", textContent: "covered: half in view" }));
}

function pileGrid(grid, name, score, names) {
  // The rulebook's score pile: sun characters in one row of five, moon in the other.
  const box = h("div", { className: "lg-pile" });
  box.append(h("h3", { textContent: `${name}: ${score >= 0 ? "+" : ""}${score}` }));
  const cells = h("div", { className: "lg-pile-grid" });
  for (const team of ["sun", "moon", "brawlers"]) {
    for (const c of grid[team]) {
      if (team === "brawlers" && !c.count) continue;
      const cell = h("div", { className: `lg-pile-cell${c.count ? "" : " lg-none"}`, title: `${pretty(c.card, names)}: ${c.count}` },
        cardImage(c.card, pretty(c.card, names)), h("b", { textContent: c.count ? `×${c.count}` : "0" }));
      cell.dataset.card = c.card;
      cells.append(cell);
    }
  }
  box.append(cells);
  return box;
}

function scoreChart(results, seats) {
  // Each round's score, one bar per player, around a zero line; the match in the caption.
  const w = 300;
  const hgt = 110;
  const vals = results.flatMap((r) => r.totals);
  const top = Math.max(1, ...vals);
  const bottom = Math.min(0, ...vals);
  const scale = (hgt - 30) / (top - bottom);
  const zero = 10 + top * scale;
  const chart = svg("svg", { viewBox: `0 0 ${w} ${hgt}`, class: "lg-chart", role: "img",
    "aria-label": "scores per round" });
  chart.append(svg("line", { x1: 0, x2: w, y1: zero, y2: zero, class: "lg-axis" }));
  const slot = Math.min(60, w / Math.max(1, results.length));
  results.forEach((r, i) => {
    r.totals.forEach((t, s) => {
      const x = i * slot + 6 + s * (slot / 2 - 4);
      const y = t >= 0 ? zero - t * scale : zero;
      chart.append(svg("rect", { x, y, width: slot / 2 - 8, height: Math.max(1, Math.abs(t) * scale), class: `lg-bar lg-bar-${s}` }));
      chart.append(svg("text", { x: x + (slot / 2 - 8) / 2, y: t >= 0 ? y - 2 : y + Math.abs(t) * scale + 10, class: "lg-bar-text" }, String(t)));
    });
    chart.append(svg("text", { x: i * slot + slot / 2, y: hgt - 2, class: "lg-bar-text" }, `R${r.round}`));
  });
  const key = h("p", { className: "lg-chart-key" }, h("span", { className: "lg-key lg-bar-0", textContent: seats[0] }), h("span", { className: "lg-key lg-bar-1", textContent: seats[1] }));
  return h("div", {}, chart, key);
}

function handPicker(v, names, api, say) {
  // The seat's four hand cards, tapped in as pictures (a character may be there twice). Every
  // character a hand can hold: the Brawlers (the Lion, the Unicorn) never are dealt to one.
  const chosen = [];
  const box = h("div", { className: "lg-hand" });
  const picked = h("div", { className: "lg-hand-picked" });
  const send = h("button", { type: "button", textContent: "Tap in my hand", disabled: true });
  const draw = () => {
    picked.replaceChildren(...chosen.map((c, i) => {
      const b = h("button", { type: "button", className: "lg-chip", title: "tap to take it out" }, cardImage(c, pretty(c, names)), h("span", { textContent: pretty(c, names).replace(/^The /, "") }));
      b.addEventListener("click", () => { chosen.splice(i, 1); draw(); });
      return b;
    }));
    if (!chosen.length) picked.append(h("span", { className: "muted", textContent: "Tap your 4 cards below." }));
    send.disabled = chosen.length !== 4;
    send.textContent = chosen.length === 4 ? "Tap in my hand" : `${chosen.length} of 4 chosen`;
  };
  const choices = h("div", { className: "lg-hand-choices" });
  for (const team of ["sun", "moon"]) {
    for (const c of v.piles[0][team]) {
      const b = h("button", { type: "button", className: "lg-choice", title: pretty(c.card, names) }, cardImage(c.card, pretty(c.card, names)), h("span", { textContent: pretty(c.card, names).replace(/^The /, "") }));
      b.dataset.card = c.card;
      b.addEventListener("click", () => { if (chosen.length < 4) { chosen.push(c.card); draw(); } });
      choices.append(b);
    }
  }
  send.addEventListener("click", async () => {
    try {
      await api.post(`${API}/hand`, { cards: chosen });
      chosen.length = 0;
      draw();
      say("Hand tapped in: only you see it until the round's end.");
    } catch (err) {
      say(err.message);
    }
  });
  draw();
  box.append(picked, send, choices);
  return box;
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

/** A place in the glass in the players' words (the view says it); its code only as a fallback. */
function placeWords(position, view) {
  const g = view && view.glass ? view.glass.find((x) => x.position === position) : null;
  return g && g.where ? g.where : position;
}

/** The event log's words for this game's events (app.js asks; null: its own words). */
export function describe(ev, seats, view) {
  const p = ev.payload || {};
  const names = namesOf(view);
  const who = (s) => playerName(seats, s);
  const card = (id) => the(pretty(id, names));
  if (ev.kind === "lg.pick") {
    return `${who(p.seat)} took ${card(p.card)}; ${who(1 - p.seat)} got ${card(p.reflection_card)} (its reflection)`
      + (p.illegal ? ". Not allowed: that card was covered" : "");
  }
  if (ev.kind === "lg.deal") {
    // The layout card's printed name, not its id ("pyramid"); an older event has only the id.
    const name = p.layout_name || (view && view.layout === p.layout && view.layout_name) || p.layout;
    return `Round ${p.round} dealt${p.layout ? ` (${name})` : ""}: the camera follows the glass`;
  }
  if (ev.kind === "lg.identify") return `The card in ${placeWords(p.position, view)} is ${card(p.card)}`;
  if (ev.kind === "lg.reveal") return `Hands shown: ${(p.hands || []).map((hd, s) => `${who(s)}: ${hd.map((c) => pretty(c, names).replace(/^The /, "")).join(", ")}`).join("; ")}`;
  if (ev.kind === "lg.round") return `Round ${p.round}: ${who(0)} ${p.totals[0]}, ${who(1)} ${p.totals[1]}. ${who(p.winner)} wins the round`;
  if (ev.kind === "lg.hint") return "You asked for a hint";
  if (ev.kind === "lg.breach") return `Not allowed: ${p.rule}`;
  return null;
}

/** A question's choice as a picture: a card id, or a place in the glass whose card is known. */
export function choicePicture(choice, view) {
  if (!view || !view.piles) return null;
  const names = namesOf(view);
  let card = names[choice.value] ? choice.value : null;
  if (!card && view.glass) {
    const g = view.glass.find((x) => x.position === choice.value);
    card = g ? g.card : null;
  }
  return card ? cardImage(card, pretty(card, names)) : null;
}

export function mount(el, api) {
  const score = h("div", { className: "lg-score big" });
  const status = h("p", { className: "lg-status" });
  const told = h("p", { className: "lg-told", role: "status" });
  const say = (text) => { told.textContent = text; };
  const glass = h("div");
  const piles = h("div", { className: "lg-piles" });
  const chart = h("div", { className: "lg-results" });
  const history = h("ol", { className: "lg-history" });
  const mine = h("section", { className: "private lg-mine" });
  const hintOut = h("p");
  const hintButton = h("button", { type: "button", textContent: "Hint (only you see it)" });
  const names = {};
  hintButton.addEventListener("click", async () => {
    try {
      const r = await api.post(`${API}/hint`, {});
      hintOut.textContent = r.hint && r.hint.best ? `Best pick: ${pretty(r.hint.best, names)}` : (r.hint && r.hint.error) || "no hint";
    } catch (err) {
      hintOut.textContent = err.message;
    }
  });
  let picker = null;
  // The admin's way back when the companion's glass has drifted from the table (a breach).
  const fix = h("div", { className: "lg-fix" });
  const handLine = h("div", { className: "lg-hand-mine" });

  let poll = null;
  // The view as it is now, for what no game event announces.
  async function reload() {
    try { render({ view: await api.get(`${API}/view`) }); } catch { /* the next event will */ }
  }

  function render(state) {
    const v = state.view;
    if (!v || v.panel !== "looking-glass") return;
    Object.assign(names, namesOf(v));
    const seats = v.seats;
    const turn = v.to_move === null || v.to_move === undefined ? "" : `${seats[v.to_move]} to pick`;
    score.replaceChildren(
      h("div", { className: "lg-wins" },
        h("span", { textContent: `${seats[0]} ${v.wins[0]}` }), h("span", { className: "muted", textContent: " – " }),
        h("span", { textContent: `${v.wins[1]} ${seats[1]}` })),
      h("div", { className: "lg-turn", textContent: v.match_over ? "Match over" : (turn || (v.round ? `Round ${v.round}` : "Waiting for the deal")) }),
    );
    score.dataset.turn = turn;
    status.textContent = `Round ${v.round || "-"}${v.layout ? ` (${v.layout_name || v.layout})` : ""}, first to ${v.target} round wins. This round: ${seats[0]} ${v.running_scores[0]}, ${seats[1]} ${v.running_scores[1]}.`;
    if (v.library) status.textContent += ` ${v.library}`;
    if (v.waiting) status.textContent += ` ${v.waiting}`;
    // No game event announces why the camera waits (a glass it cannot follow, picks held for
    // an answer): look again while there is no glass followed or something is waited for.
    clearTimeout(poll);
    if (v.waiting || !v.glass.length) {
      poll = setTimeout(reload, WAITING_POLL_MS);
    }
    glass.replaceChildren(glassGrid(v, names, say), legend());
    piles.replaceChildren(pileGrid(v.piles[0], seats[0], v.running_scores[0], names), pileGrid(v.piles[1], seats[1], v.running_scores[1], names));
    const items = [];
    for (const p of v.picks) {
      // A self-linked pair that left at once: both cards are the same character, and which
      // of the two places was chosen was not seen, so the line names the pair.
      const where = p.where || (p.order === "self-linked" ? `${p.position} or ${p.reflection}` : p.position);
      const li = h("li", { textContent: `${seats[p.seat]} took ${the(pretty(p.card, names))} (${where}); ${seats[1 - p.seat]} got ${the(pretty(p.reflection_card, names))}${p.illegal ? " - not allowed: that card was covered" : ""}` });
      if (p.illegal) li.className = "lg-illegal";
      items.push(li);
    }
    history.replaceChildren(...items);
    const drifted = (v.breaches || []).length > 0;
    fix.replaceChildren(...(drifted ? [
      h("span", { textContent: "If the cards on the table are right and the companion is not: " }),
      tableIsRightButton(api, say)] : []));
    const rounds = v.results.map((r) => h("li", { className: "lg-result", textContent: `Round ${r.round}: ${seats[0]} ${r.totals[0]}, ${seats[1]} ${r.totals[1]}. ${seats[r.winner]} wins the round.` }));
    chart.replaceChildren();
    if (v.results.length) chart.append(h("h3", { textContent: "Rounds" }), scoreChart(v.results, seats), h("ol", { className: "lg-rounds" }, ...rounds));
    if (api.seat !== null && api.seat !== undefined) {
      if (v.my_hand) {
        handLine.replaceChildren(h("p", { textContent: "Your hand:" }), h("div", { className: "lg-hand-picked" }, ...v.my_hand.map((c) => cardImage(c, pretty(c, names)))));
      } else {
        if (!picker) picker = handPicker(v, names, api, say);
        handLine.replaceChildren(h("p", { textContent: "Your hand, only on your phone:" }), picker);
      }
      hintButton.disabled = !v.hint_available;
    }
  }

  el.replaceChildren(score, status, told, glass, piles, chart, history);
  if (api.seat !== null && api.seat !== undefined) {
    mine.append(handLine, hintButton, hintOut);
    el.append(mine);
  }
  const first = api.state();
  if (first && (first.role === "local" || first.role === "admin")) {
    // A confirmed card is in the table's library from its next frame on: refresh the status
    // line ("does not know your cards") then, as no game event will.
    const refresh = () => setTimeout(reload, 1000);
    el.append(fix, teachPanel(api, refresh));
  }
  render(api.state());
  api.onState(render);
}
