// Mirror Mansion: the box as the camera reads it (3x3 crossings, mirrors and their facings,
// the window and the door), the turn's phase, swaps counted and breaches, the player's inputs
// (motifs at set-up, die or named motif, "make your guesses", the look), each seat's private
// guess, the hint on request, and after each look what the window saw and the drops.
// An ES module exporting mount(el, api); see companion/live/table_game.py.

import { actions, button, h, playerName, svg, tableIsRightButton } from "/static/panel-kit.js";

const API = "/api/games/mirror-mansion";
// The motifs chosen so far, kept by the module: the dashboard may mount the panel again
// (a new session's first events) while a player is still tapping them in.
const chosen = {};

/** What the outlines on the live image mean (app.js shows it under the picture). */
export const overlayLegend = [
  ["green", "mirror, its side known"], ["orange", "mirror, side not seen"],
  ["magenta", "the window card"], ["yellow", "the light path, after the look"],
];

// Board picture in grid units: crossings at 1..3, castle cards on the rim at 0 and 4
// (the reference box's millimetres divided by 60); one unit is 60 SVG px, 30 px margin.
const U = 60;
const at = (g) => 30 + g * U;
function cardXY(pos) {
  const i = Number(pos[1]) + 1;
  return { N: [i, 0], S: [i, 4], W: [0, i], E: [4, i] }[pos[0]];
}
const cellXY = (cell) => [cell[1] + 1, cell[0] + 1];
const FACING = { NW: [-1, -1], NE: [1, -1], SE: [1, 1], SW: [-1, 1] };
const pretty = (m) => (m ? m.replace(/-/g, " ") : "");

// The motifs as pictures: line drawings in a 24-unit square, inline (no files, no CDN).
// A motif renamed in models/mirror-mansion/motifs.toml and not drawn here shows its initial.
const ICONS = {
  sunglasses: [["rect", { x: 2, y: 9, width: 8, height: 6, rx: 2 }], ["rect", { x: 14, y: 9, width: 8, height: 6, rx: 2 }],
    ["path", { d: "M10 11h4M2 10L1 6M22 10l1-4" }]],
  "top-hat": [["rect", { x: 7, y: 3, width: 10, height: 14, rx: 1 }], ["path", { d: "M3 18h18M7 14h10" }]],
  "teddy-bear": [["circle", { cx: 12, cy: 9, r: 5 }], ["circle", { cx: 7, cy: 5, r: 2 }], ["circle", { cx: 17, cy: 5, r: 2 }],
    ["ellipse", { cx: 12, cy: 18.5, rx: 5, ry: 4 }]],
  "pocket-watch": [["circle", { cx: 12, cy: 14, r: 7 }], ["path", { d: "M12 7V4M10 3h4M12 14v-4M12 14l3 2" }]],
  key: [["circle", { cx: 7, cy: 12, r: 4 }], ["path", { d: "M11 12h11M18 12v3M21 12v4" }]],
  candlestick: [["rect", { x: 10, y: 9, width: 4, height: 9 }], ["path", { d: "M12 3c-2 2-2 4 0 4.5c2-.5 2-2.5 0-4.5zM6 21h12M12 18v3" }]],
  toothbrush: [["path", { d: "M3 18L15 9" }], ["rect", { x: 14, y: 6, width: 8, height: 3.5, rx: 1 }], ["path", { d: "M16 6V3M18.5 6V3M21 6V3" }]],
  spellbook: [["rect", { x: 5, y: 3, width: 14, height: 18, rx: 1 }],
    ["path", { d: "M12 7.5l1.3 2.7 2.9.4-2.1 2 .5 2.9-2.6-1.4-2.6 1.4.5-2.9-2.1-2 2.9-.4z" }]],
  slippers: [["ellipse", { cx: 8, cy: 13, rx: 4, ry: 8 }], ["ellipse", { cx: 16, cy: 11, rx: 4, ry: 8 }], ["path", { d: "M4.5 10h7M12.5 8h7" }]],
  "bow-tie": [["path", { d: "M3 7v10l7-3.5v-3zM21 7v10l-7-3.5v-3z" }], ["rect", { x: 10, y: 10, width: 4, height: 4, rx: 1 }]],
  garlic: [["path", { d: "M12 3c0 3-7 6-7 12a7 6 0 0 0 14 0c0-6-7-9-7-12z" }], ["path", { d: "M12 9v11M9 12c.5 3 .5 6 1.5 8M15 12c-.5 3-.5 6-1.5 8" }]],
};
const ARROWS = { NW: "M18 18L6 6M6 13V6h7", NE: "M6 18L18 6M11 6h7v7", SE: "M6 6l12 12M18 11v7h-7", SW: "M18 6L6 18M13 18H6v-7" };

function motifShapes(m) {
  if (ICONS[m]) return ICONS[m].map(([tag, attrs]) => svg(tag, attrs));
  if (ARROWS[m]) return [svg("path", { d: ARROWS[m] })];
  return [svg("circle", { cx: 12, cy: 12, r: 10 }), svg("text", { x: 12, y: 16.5, class: "mm-initial" }, (m || "?")[0].toUpperCase())];
}

/** A motif (or a mirror's facing) as a small picture for a button; its name for screen readers. */
export function motifIcon(m, size = 28) {
  const pic = svg("svg", { viewBox: "0 0 24 24", width: size, height: size, class: "mm-icon", role: "img", "aria-label": pretty(m) });
  pic.append(...motifShapes(m));
  return pic;
}

/** The same picture inside the board's SVG, `size` px square, centred on (cx, cy). */
function motifGlyph(m, cx, cy, size) {
  const g = svg("g", { class: "mm-icon", transform: `translate(${cx - size / 2} ${cy - size / 2}) scale(${size / 24})` });
  g.append(...motifShapes(m));
  return g;
}

function motifButton(m, onClick, className = "mm-motif") {
  const b = button("", onClick, className);
  b.append(motifIcon(m), h("span", { textContent: pretty(m) }));
  b.dataset.motif = m;
  return b;
}

/** Questions offer pictures: a motif, or the way a mirror faces (app.js asks each game). */
export function choicePicture(choice, view) {
  const value = typeof choice.value === "string" ? choice.value : null;
  if (!value) return null;
  const motifs = (view && view.motifs) || [];
  return motifs.includes(value) || ICONS[value] || ARROWS[value] ? motifIcon(value, 32) : null;
}

/** The box as a picture: castle cards with their motifs, the window, mirrors with their
 * reflective side, the door, and after the look the light path. `pick(pos)` makes the card
 * places tappable (the set-up). */
function boardPicture(v, { cards, look, selected, pick } = {}) {
  const seen = v.board || v.seen || { mirrors: [], window: null, door: null };
  const engineCards = v.board && v.board.cards && Object.keys(v.board.cards).length ? v.board.cards : null;
  const motifs = cards || engineCards || v.cards || {};
  const pic = svg("svg", { viewBox: "0 0 300 300", class: "mm-board", role: "img",
    "aria-label": "the box: castle cards, mirrors, window and door" });
  pic.append(svg("rect", { x: at(0.5), y: at(0.5), width: 3 * U, height: 3 * U, class: "mm-floor" }));
  for (let i = 1; i <= 3; i += 1) {
    pic.append(svg("line", { x1: at(i), y1: at(0.5), x2: at(i), y2: at(3.5), class: "mm-gridline" }));
    pic.append(svg("line", { x1: at(0.5), y1: at(i), x2: at(3.5), y2: at(i), class: "mm-gridline" }));
  }
  for (const pos of v.positions) {
    const [gx, gy] = cardXY(pos);
    const isWindow = seen.window === pos;
    const g = svg("g", { class: `mm-place${isWindow ? " mm-window" : ""}${selected === pos ? " mm-selected" : ""}` });
    g.dataset.position = pos;
    const wide = pos[0] === "N" || pos[0] === "S";
    const w = wide ? 54 : 40;
    const hh = wide ? 40 : 54;
    g.append(svg("rect", { x: at(gx) - w / 2, y: at(gy) - hh / 2, width: w, height: hh, rx: 4, class: "mm-cardrect" }));
    if (seen.window === pos) {
      g.append(svg("circle", { cx: at(gx), cy: at(gy), r: 9, class: "mm-hole" }));
      g.append(svg("text", { x: at(gx), y: at(gy) + hh / 2 - 3, class: "mm-label" }, "window"));
    } else {
      const m = motifs[pos];
      if (m) g.append(motifGlyph(m, at(gx), at(gy), 30));
      else g.append(svg("text", { x: at(gx), y: at(gy) + 4, class: "mm-label" }, pick ? "tap" : "?"));
    }
    g.append(svg("title", {}, seen.window === pos ? `${placeWords(v, pos)}: the window` : `${placeWords(v, pos)}: ${pretty(motifs[pos]) || "not tapped in"}`));
    if (pick) {
      g.setAttribute("tabindex", "0");
      g.addEventListener("click", () => pick(pos));
    }
    pic.append(g);
  }
  const slotLine = (cell, slot, len) => {
    const [gx, gy] = cellXY(cell);
    const d = len / 2;
    return slot === "/" ? [at(gx) - d, at(gy) + d, at(gx) + d, at(gy) - d]
      : [at(gx) - d, at(gy) - d, at(gx) + d, at(gy) + d];
  };
  for (const m of seen.mirrors || []) {
    const [x1, y1, x2, y2] = slotLine(m.cell, m.slot, 36);
    const g = svg("g", { class: `mm-mirror${m.facing ? "" : " mm-unsure"}` });
    g.append(svg("line", { x1, y1, x2, y2, class: "mm-mirror-back" }));
    if (m.facing) {
      // The reflective side: a bright strip shifted toward the side the mirror faces.
      const [fx, fy] = FACING[m.facing];
      g.append(svg("line", { x1: x1 + fx * 3, y1: y1 + fy * 3, x2: x2 + fx * 3, y2: y2 + fy * 3, class: "mm-mirror-face" }));
    }
    g.append(svg("title", {}, `mirror at row ${m.cell[0] + 1}, column ${m.cell[1] + 1}, facing ${m.facing || "unknown"}`));
    pic.append(g);
  }
  if (seen.door) {
    const [x1, y1, x2, y2] = slotLine(seen.door.cell, seen.door.slot, 40);
    pic.append(svg("line", { x1, y1, x2, y2, class: "mm-door" }));
  }
  if (look && look.path_mm && look.path_mm.length > 1) {
    // The look's own path, in board millimetres (the reference box: 30 mm + 60 per unit).
    const pts = look.path_mm.map(([x, y]) => `${at((x - 30) / U)},${at((y - 30) / U)}`);
    pic.append(svg("polyline", { points: pts.join(" "), class: "mm-light" }));
  }
  return pic;
}

const BOARD_LEGEND = [["mm-k-face", "mirror's reflective side"], ["mm-k-door", "door"], ["mm-k-window", "window"], ["mm-k-light", "light path"]];
function boardLegend() {
  return h("p", { className: "mm-legend" }, ...BOARD_LEGEND.map(([c, t]) => h("span", { className: `mm-key ${c}`, textContent: t })));
}

function setupPanel(v, api, say) {
  // Tap a place on the board, then the motif lying there; the place left over is the window.
  const box = h("div", { className: "mm-setup" });
  const picture = h("div");
  const palette = h("div", { className: "mm-palette" });
  const save = button("Save the motifs", async () => {
    const cards = {};
    for (const [pos, m] of Object.entries(chosen)) if (m) cards[pos] = m;
    try {
      await api.post(`${API}/cards`, { cards });
      say("Motifs saved; the camera sets up the game once it sees the box steady.");
    } catch (err) {
      say(err.message);
    }
  });
  let selected = v.positions.find((p) => !chosen[p]) || v.positions[0];
  const draw = () => {
    picture.replaceChildren(boardPicture(v, { cards: chosen, selected, pick: (pos) => { selected = pos; draw(); } }));
    const used = new Set(Object.values(chosen));
    palette.replaceChildren(h("p", { className: "mm-ask", textContent: `Which picture lies at ${placeWords(v, selected)}?` }), ...v.motifs.map((m) => motifButton(m, () => {
      for (const [pos, x] of Object.entries(chosen)) if (x === m) delete chosen[pos];
      chosen[selected] = m;
      selected = v.positions.find((p) => !chosen[p]) || selected;
      draw();
    }, `mm-motif${used.has(m) ? " mm-used" : ""}`)), button("the window", () => { delete chosen[selected]; draw(); }, "mm-motif"));
    const n = Object.values(chosen).filter(Boolean).length;
    save.disabled = n !== v.motifs.length;
    save.textContent = n === v.motifs.length ? "Save the motifs" : `${n} of ${v.motifs.length} motifs placed`;
  };
  draw();
  box.append(picture, palette, save);
  return box;
}

/** A card position in words ("the middle of the west side"), as the view says it; its code
 *  ("W1") is the companion's name for it, not the players'. */
function placeWords(v, pos) {
  return (v && v.places && v.places[pos]) || pos;
}

/** The event log's words for this game's events. Guesses stay hidden: only that one was made. */
export function describe(ev, seats, view) {
  const p = ev.payload || {};
  const where = (pos) => placeWords(view, pos);
  if (ev.kind === "mm.breach") return `Not allowed: ${p.detail} (${p.rule})`;
  if (ev.kind === "mm.cards") return "The motifs are tapped in";
  if (ev.kind === "mm.seen") {
    const box = p.box || {};
    const m = (box.mirrors || []).length;
    return `The camera sees the box steady: ${m} mirror${m === 1 ? "" : "s"}${box.window ? `, the window at ${where(box.window)}` : ""}${box.door ? ", the door" : ""}`;
  }
  if (ev.kind === "mm.swaps") return `Swaps so far: ${p.count ?? (p.swaps || []).length}`;
  if (ev.kind !== "mm.action") return null;
  const a = p.action || {};
  const cell = (c) => `row ${c[0] + 1}, column ${c[1] + 1}`;
  switch (a.type) {
    case "setup": return "The game is set up: Victor is in the mansion";
    case "roll": return `The die shows ${a.value}`;
    case "name": return `Victor thinks of the ${pretty(a.motif)}`;
    case "swap": return `A mirror moved from ${cell(a.from)} to ${cell(a.to)}`;
    case "end_swaps": return "Make your guesses!";
    case "guess": return `${seats[a.seat] || "A player"} made a hidden guess`;
    case "look": return "A look through the window";
    case "award": return `Drops: ${(a.drops || []).map((d, s) => `${playerName(seats, s)} ${d > 0 ? "+" : ""}${d}`).join(", ")}`;
    case "swap_window": return `The window card moves to ${where(a.position)}`;
    case "confirm_card": return `The card at ${where(a.position)} shows the ${pretty(a.motif)}`;
    case "place_door": return `The door is placed at ${cell(a.cell)}`;
    case "turn_box": return "The box is turned";
    default: return null;
  }
}

function lookLine(look, seats, v) {
  // The verdict in the table's words: what the window saw, Victor's mood, who guessed right.
  const what = look.seen ? `the ${pretty(look.motif) || "?"} (${placeWords(v, look.seen)})` : `nothing: the ${look.blocked_by === "door" ? "door" : "back of a mirror"} is in the way`;
  const mood = look.found === true ? " Victor is jubilant." : look.found === false ? " Victor is disappointed." : "";
  const right = (look.right || []).map((s) => playerName(seats, s)).join(", ") || "nobody";
  const drops = (look.drops || []).map((d, s) => `${playerName(seats, s)} ${d > 0 ? "+" : ""}${d}`).join(", ");
  return `${playerName(seats, look.seat)} sought the ${pretty(look.sought)}: the window saw ${what}.${mood} Right guesses: ${right}.${drops ? ` Drops: ${drops}.` : ""}`;
}

export function mount(el, api) {
  const score = h("div", { className: "mm-score big" });
  const status = h("p", { className: "mm-status" });
  const message = h("p", { className: "mm-message", role: "status" });
  const box = h("div", { className: "mm-box" });
  const controls = h("div", { className: "mm-controls" });
  const swaps = h("p", { className: "mm-swaps" });
  const breaches = h("ul", { className: "mm-breaches" });
  const looks = h("ol", { className: "mm-looks" });
  const mine = h("div", { className: "private" });
  const say = (text) => { message.textContent = text; };
  let setup = null;
  const act = actions(api, API, say);

  function render(state) {
    const v = state.view;
    if (!v || !v.positions) return;
    const seats = v.seats || [];
    const active = playerName(seats, v.active);
    const PHASE = { window: "move the window card", door: "place the door", roll: "roll the die", name: "name a motif", swaps: "swap the mirrors", guess: "guesses",
      look: "look through the window", award: "drops", over: "game over" };
    score.replaceChildren(
      h("div", { className: "mm-drops" }, ...seats.map((name, s) => h("span", { textContent: `${name} ${v.drops[s]}` }))),
      h("div", { className: "mm-turn", textContent: v.phase === "setup" ? "Set-up" : v.phase === "over" ? "Game over" : `${active}: ${PHASE[v.phase] || v.phase}` }),
    );
    status.textContent = v.phase === "setup"
      ? "Tap in the motifs, then leave the box steady under the camera."
      : `Round ${v.round}${v.sought ? `, Victor seeks the ${pretty(v.sought)}` : ""}. Drops: fewest wins.`;
    const done = v.looks || [];
    const last = done[done.length - 1];
    // The light path shows from the look until the next player's swaps begin.
    const showLook = last && (last.turn === v.turn || (last.turn === v.turn - 1 && ["window", "roll", "name", "door"].includes(v.phase)));
    box.replaceChildren(boardPicture(v, { look: showLook ? last : null }), boardLegend());
    const mineActive = api.seat !== null && api.seat === v.active;
    const nodes = [];
    if (v.phase === "setup" && !v.cards_tapped) {
      // One picker for the whole set-up: re-rendering on every camera event keeps its choices.
      if (!setup) setup = setupPanel(v, api, say);
      nodes.push(setup);
    }
    if (v.phase === "roll" && (mineActive || api.seat === null)) {
      for (let n = 1; n <= 6; n += 1) nodes.push(button(String(n), act("roll", { value: n }), "mm-die"));
    }
    if (v.phase === "name") {
      nodes.push(...v.motifs.slice(0, 10).map((m) => motifButton(m, act("name", { motif: m }))));
    }
    if (v.phase === "swaps" && (mineActive || api.seat === null)) {
      nodes.push(button("Make your guesses!", act("call-guesses")));
      if (mineActive) nodes.push(button("Hint (only you see it)", act("hint")));
    }
    if (v.phase === "guess" && api.seat !== null && api.seat !== v.active) {
      const g = v.guesses[api.seat];
      if (g && g.placed) nodes.push(h("span", { textContent: `Your guess: ${g.jubilant ? "jubilant" : "disappointed"}` }));
      else nodes.push(button("Jubilant Victor", act("guess", { jubilant: true })), button("Disappointed Victor", act("guess", { jubilant: false })));
    }
    if (v.phase === "guess") {
      const placed = v.guesses.filter((g) => g.placed).length;
      nodes.push(h("span", { textContent: ` ${placed} of ${seats.length - 1} guessed` }));
    }
    if (v.phase === "look" && (mineActive || api.seat === null)) nodes.push(button("Look through the window", act("look")));
    if (api.seat === null && v.phase !== "setup" && (v.table_differs || (v.breaches || []).length)) {
      // The admin's way back when the companion's board has drifted from the box.
      if (v.table_differs) nodes.push(h("span", { textContent: "The box and the companion disagree. " }));
      nodes.push(tableIsRightButton(api, say));
    }
    controls.replaceChildren(...nodes);
    const sw = v.swaps;
    swaps.textContent = sw ? `Swaps so far: ${sw.count}` + (sw.pending ? ` (still needed: ${sw.pending})` : "") : "";
    breaches.replaceChildren(...(v.breaches || []).map((b) => h("li", { className: "mm-breach", textContent: `Not allowed: ${b.detail}` })));
    looks.replaceChildren(...(v.looks || []).slice().reverse().map((l) => h("li", { className: "mm-look", textContent: lookLine(l, seats, v) })));
    if (v.hint) {
      const COMPASS = { NE: "north-east", NW: "north-west", SE: "south-east", SW: "south-west" };
      const moves = (v.hint.moves || []).map(([a, b, slot, facing]) => `the mirror at row ${a[0] + 1}, column ${a[1] + 1} to row ${b[0] + 1}, column ${b[1] + 1}, standing ${slot}${facing ? `, its reflective side to the ${COMPASS[facing] || facing}` : ""}`).join("; ");
      mine.textContent = v.hint.swaps === null ? `No way within the rules: ${v.hint.reason || ""}` : `Fewest swaps: ${v.hint.swaps}. ${moves}`;
    } else {
      mine.textContent = "";
    }
  }

  el.replaceChildren(score, status, controls, message, box, swaps, breaches, mine, looks);
  render(api.state());
  api.onState(render);
}
