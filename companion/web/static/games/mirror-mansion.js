// Mirror Mansion: the box as the camera reads it (3x3 crossings, mirrors and their facings,
// the window and the door), the turn's phase, swaps counted and breaches, the player's inputs
// (motifs at set-up, die or named motif, "make your guesses", the look), each seat's private
// guess, the hint on request, and after each look what the window saw and the drops.
// An ES module exporting mount(el, api); see companion/live/table_game.py.

const API = "/api/games/mirror-mansion";
const ARROW = { NW: "↖", NE: "↗", SE: "↘", SW: "↙" };
// The motifs chosen so far, kept by the module: the dashboard may mount the panel again
// (a new session's first events) while a player is still tapping them in.
const chosen = {};

function h(tag, props = {}, ...children) {
  const node = Object.assign(document.createElement(tag), props);
  node.append(...children.filter((c) => c !== null && c !== undefined));
  return node;
}

function button(text, onClick) {
  const b = h("button", { textContent: text, type: "button" });
  b.addEventListener("click", onClick);
  return b;
}

function boxGrid(v) {
  // 5x5: card positions on the rim (N0..N2 top, S bottom, W left, E right), crossings inside.
  const seen = v.seen || { mirrors: [], window: null, door: null };
  const grid = h("div", { className: "mm-box" });
  grid.style.display = "grid";
  grid.style.gridTemplateColumns = "repeat(5, 2.6em)";
  grid.style.gridTemplateRows = "repeat(5, 2.6em)";
  const cards = (v.board && v.board.cards) || v.cards || {};
  const place = (node, row, col) => {
    node.style.gridRow = String(row + 1);
    node.style.gridColumn = String(col + 1);
    grid.append(node);
  };
  for (const pos of v.positions) {
    const side = pos[0];
    const i = Number(pos[1]);
    const [row, col] = { N: [0, i + 1], S: [4, i + 1], W: [i + 1, 0], E: [i + 1, 4] }[side];
    const isWindow = seen.window === pos;
    const motif = cards[pos];
    place(h("div", {
      className: `mm-card${isWindow ? " mm-window" : ""}`,
      title: isWindow ? `${pos}: the window` : `${pos}: ${motif || "?"}`,
      textContent: isWindow ? "window" : (motif ? motif.slice(0, 4) : pos),
    }), row, col);
  }
  for (let r = 0; r < 3; r += 1) {
    for (let c = 0; c < 3; c += 1) {
      const m = seen.mirrors.find((x) => x.cell[0] === r && x.cell[1] === c);
      const door = seen.door && seen.door.cell[0] === r && seen.door.cell[1] === c;
      let text = "·";
      let title = `crossing [${r},${c}]: empty`;
      if (m) {
        text = `${m.slot}${m.facing ? ARROW[m.facing] : "?"}`;
        title = `mirror [${r},${c}] ${m.slot} facing ${m.facing || "unknown"}`;
      } else if (door) {
        text = `door ${seen.door.slot}`;
        title = `door [${r},${c}] ${seen.door.slot}`;
      }
      place(h("div", { className: `mm-cell${m && !m.facing ? " mm-unsure" : ""}`, textContent: text, title }), r + 1, c + 1);
    }
  }
  return grid;
}

function setupForm(v, api, say) {
  // Tap in the motif on each position once (the window's position is left empty).
  const form = h("form", { className: "mm-setup" });
  const selects = {};
  for (const pos of v.positions) {
    const s = h("select", { name: pos }, h("option", { value: "", textContent: "(window)" }),
      ...v.motifs.map((m) => h("option", { value: m, textContent: m })));
    s.value = chosen[pos] || "";
    s.addEventListener("change", () => { chosen[pos] = s.value; });
    selects[pos] = s;
    form.append(h("label", { textContent: `${pos} ` }, s));
  }
  form.append(h("button", { textContent: "Save the motifs" }));
  form.addEventListener("submit", async (e) => {
    e.preventDefault();
    const cards = {};
    for (const [pos, s] of Object.entries(selects)) if (s.value) cards[pos] = s.value;
    try {
      await api.post(`${API}/cards`, { cards });
      say("Motifs saved; the camera sets up the game once it sees the box steady.");
    } catch (err) {
      say(err.message);
    }
  });
  return form;
}

function lookLine(look, seats) {
  const what = look.seen ? `${look.seen} (${look.motif || "?"})` : `nothing: stopped by ${look.blocked_by}`;
  const right = (look.right || []).map((s) => seats[s] || `seat ${s}`).join(", ") || "nobody";
  const drops = (look.drops || []).map((d, s) => `${seats[s] || s}: ${d > 0 ? "+" : ""}${d}`).join(", ");
  return `Turn ${look.turn + 1}, ${seats[look.seat] || look.seat} sought ${look.sought}: the window saw ${what}. Right guesses: ${right}. Drops: ${drops}.`;
}

export function mount(el, api) {
  const status = h("p", { className: "mm-status" });
  const message = h("p", { className: "mm-message" });
  const box = h("div");
  const controls = h("div", { className: "mm-controls" });
  const swaps = h("p");
  const breaches = h("ul", { className: "mm-breaches" });
  const looks = h("ol", { className: "mm-looks" });
  const mine = h("div", { className: "private" });
  const say = (text) => { message.textContent = text; };
  let setup = null;
  const act = (path, body) => async () => {
    try {
      await api.post(`${API}/${path}`, body || {});
      say("");
    } catch (err) {
      say(err.message);
    }
  };

  function render(state) {
    const v = state.view;
    const seats = v.seats || [];
    const active = seats[v.active] || `seat ${v.active}`;
    status.textContent = v.phase === "setup"
      ? "Set-up: tap in the motifs, then leave the box steady under the camera."
      : `Round ${v.round}, ${active}'s turn: ${v.phase}` + (v.sought ? ` (seeking ${v.sought})` : "")
        + ` — drops ${v.drops.map((d, s) => `${seats[s] || s} ${d}`).join(", ")}`;
    box.replaceChildren(boxGrid(v));
    const mineActive = api.seat !== null && api.seat === v.active;
    const nodes = [];
    if (v.phase === "setup" && !v.cards_tapped) {
      // One form for the whole set-up: re-rendering on every camera event keeps its choices.
      if (!setup) setup = setupForm(v, api, say);
      nodes.push(setup);
    }
    if (v.phase === "roll" && (mineActive || api.seat === null)) {
      for (let n = 1; n <= 6; n += 1) nodes.push(button(`die ${n}`, act("roll", { value: n })));
    }
    if (v.phase === "name") {
      nodes.push(...v.motifs.slice(0, 10).map((m) => button(m, act("name", { motif: m }))));
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
      nodes.push(button("The table is right", async () => {
        try {
          await api.post("/api/table-is-right", {});
          say("");
        } catch (err) {
          say(err.message);
        }
      }));
    }
    controls.replaceChildren(...nodes);
    const sw = v.swaps;
    swaps.textContent = sw ? `Swaps so far: ${sw.count}` + (sw.pending ? ` (still needed: ${sw.pending})` : "") : "";
    breaches.replaceChildren(...(v.breaches || []).map((b) => h("li", { className: "mm-breach", textContent: `⚠ ${b.rule}: ${b.detail}` })));
    looks.replaceChildren(...(v.looks || []).slice().reverse().map((l) => h("li", { textContent: lookLine(l, seats) })));
    if (v.hint) {
      const moves = (v.hint.moves || []).map(([a, b, slot, facing]) => `[${a}]→[${b}] ${slot} ${facing || ""}`).join("; ");
      mine.textContent = v.hint.swaps === null ? `No way within the rules: ${v.hint.reason || ""}` : `Fewest swaps: ${v.hint.swaps}. ${moves}`;
    } else {
      mine.textContent = "";
    }
  }

  el.replaceChildren(status, box, controls, swaps, breaches, message, mine, looks);
  render(api.state());
  api.onState(render);
}
