// Queen Alice: the chessboard as the companion keeps it (and where the camera differs), what
// the game waits for, each player's IP, Time, resources, Crowns and Jail, what each play
// gave, breaches, and for your seat only: your hand, the cards you draw and your choices,
// and at set-up your Train cards and the one you keep (other phones: only who has chosen).
// The admin (no seat) enters the set-up and market cards and can declare the table right.
// An ES module exporting mount(el, api); see companion/live/table_game.py.

import { actions, button, forgetTyped, h, playerName, tableIsRightButton, typedInput } from "/static/panel-kit.js";

const API = "/api/games/queen-alice";
const KIND_LETTER = { king: "K", queen: "Q", rook: "R", bishop: "B", knight: "N", pawn: "P" };
const COLOUR = { red: "#c53030", white: "#4a5568" };
const LEVELS = ["bronze", "silver", "gold"];


const SUIT = { hearts: "♥", spades: "♠", clubs: "♣", diamonds: "♦", wild: "★" };

/** A square as players name it, as the board's labels show it and the server's words
 *  say it (rules/board.py square_name): its column a letter from "a", its row from 1. */
export function squareName(cell) {
  let c = cell[1] + 1;
  let letters = "";
  while (c > 0) {
    const rest = (c - 1) % 26;
    letters = String.fromCharCode(97 + rest) + letters;
    c = Math.floor((c - 1) / 26);
  }
  return `${letters}${cell[0] + 1}`;
}

function chessboard(v) {
  const { rows, cols, resources, actions } = v.chessboard;
  const grid = h("div", { className: "qa-board" });
  grid.style.gridTemplateColumns = `4.2em repeat(${cols}, minmax(0, 1fr))`;
  const seen = {};
  for (const s of v.camera || []) seen[`${s.cell[0]},${s.cell[1]}`] = s.colour;
  const at = {};
  for (const p of v.pieces) at[`${p.cell[0]},${p.cell[1]}`] = p;
  grid.append(h("div"));
  // A column's action as its suit (a long name does not fit a square); the name on tap.
  for (let c = 0; c < cols; c += 1) {
    const file = squareName([0, c]).slice(0, -1);
    grid.append(h("div", { className: "qa-head", textContent: `${file} ${SUIT[actions[c]] || actions[c].slice(0, 1).toUpperCase()}`, title: `column ${file}: ${actions[c]}` }));
  }
  for (let r = rows - 1; r >= 0; r -= 1) {
    grid.append(h("div", { textContent: `${r + 1} ${resources[r]}`, title: `row ${r + 1}: ${resources[r]}` }));
    for (let c = 0; c < cols; c += 1) {
      const key = `${r},${c}`;
      const p = at[key];
      const cell = h("div", { className: "qa-cell", textContent: p ? KIND_LETTER[p.kind] : "", title: p ? `${p.colour} ${p.kind} on ${squareName([r, c])}` : squareName([r, c]) });
      if (p) { cell.style.color = COLOUR[p.colour]; cell.style.fontWeight = "bold"; }
      if (v.camera && (seen[key] || null) !== (p ? p.colour : null)) {
        cell.style.background = "#fefcbf"; // the camera sees something else here
        cell.title += ` — camera: ${seen[key] || "empty"}`;
      }
      grid.append(cell);
    }
  }
  return grid;
}

function players(v, seat) {
  const head = ["", "IP", "Time", "cake", "tea", "toast", "Crowns", "Jail", "hand"].map((t) => h("th", { textContent: t }));
  const rows = v.people.map((p, s) => h("tr", {},
    h("td", { textContent: `${playerName(v.seats, s)}${s === seat ? " (you)" : ""}${s === v.to_move ? " ▶" : ""}` }),
    ...[p.ip, p.time, p.cake, p.tea, p.toast, `${p.crowns[0]} red / ${p.crowns[1]} white`,
      p.jail.map(([c, k]) => `${c} ${k}`).join(", ") || "—", p.hand_count].map((x) => h("td", { textContent: String(x) }))));
  return h("table", { className: "qa-players" }, h("tr", {}, ...head), ...rows);
}

// Wide things scroll inside their own box: a phone held upright never scrolls sideways.
function scroller(...children) {
  const box = h("div", {}, ...children);
  box.style.overflowX = "auto";
  box.style.maxWidth = "100%";
  return box;
}

function cardLabel(v, id) {
  const piece = (v.card_pieces || {})[id];
  return piece ? `${id} (${piece})` : id;
}

const LEVEL_WORDS = ["bronze", "silver", "gold"];

/** How a choice pays, as the players count it ("paying 1 cake, 3 Time"). */
function payWords(pay) {
  const unit = { time: "Time", black: "Black cube", row: "from the row" };
  const parts = Object.entries(pay || {}).filter(([, n]) => n)
    .map(([k, n]) => (k === "row" ? `${n} ${unit.row}` : `${n} ${unit[k] || k}`));
  return parts.length ? `, paying ${parts.join(", ")}` : "";
}

/** A choice's button in words, not its JSON: what to do and what it costs. An action's
 *  target keeps the engine's numbers (zone, space, arrow, token), which the board shows. */
function choiceLabel(a) {
  switch (a.type) {
    case "act": return `The ${a.action} action (${(a.target || []).join(", ")})${payWords(a.pay)}`;
    case "take": return a.resource === "time" ? "Take a Time" : `Take a ${a.resource}`;
    case "acquire": return `Invite the ${LEVEL_WORDS[a.level] || ""} card of market block ${a.block + 1}${payWords(a.pay)}`;
    case "cull": return `Invite ${a.card} from the ${a.pile}`;
    case "buy": return `Buy the ${a.bookmark} Bookmark`;
    case "use": return `Use the ${a.bookmark} Bookmark`;
    case "pass": return "Pass";
    default: {
      const rest = Object.entries(a).filter(([k]) => k !== "type").map(([k, x]) => `${k} ${JSON.stringify(x)}`);
      return `${a.type}${rest.length ? `: ${rest.join(", ")}` : ""}`;
    }
  }
}

/** The event log's words for this game's events (app.js asks; null: its own words). */
export function describe(ev, seats, view) {
  const p = ev.payload || {};
  const who = (s) => (s === null || s === undefined ? "A player" : playerName(seats, s));
  const card = (id) => (view ? cardLabel(view, id) : id);
  const square = squareName; // as the board's labels and the server's words name it
  if (ev.kind === "qa.setup") return `The game is set up: tile ${p.tile}, the Wishes laid out`;
  if (ev.kind === "qa.drawn") return `${who(p.seat)} drew ${card(p.card)}`;
  if (ev.kind === "qa.train_dealt") return `${who(p.seat)} was dealt the Train cards ${p.cards.join(", ")}`;
  if (ev.kind === "qa.train") return `${who(p.seat)} keeps ${p.card}, ${p.side} side (secret until all have chosen)`;
  if (ev.kind === "qa.revealed") return `A ${LEVEL_WORDS[p.level] || ""} card comes to the market: ${card(p.card)}`;
  if (ev.kind === "qa.card") return `${who(p.seat)} plays ${card(p.card)}`;
  if (ev.kind === "qa.breach") return `Not allowed: ${p.detail || p.rule}`;
  if (ev.kind === "qa.score_now") return "The family stops here: the final scoring";
  if (ev.kind === "qa.seen") {
    const n = (p.squares || []).length;
    return `The camera sees the board steady: ${n} piece${n === 1 ? "" : "s"}`;
  }
  if (ev.kind !== "qa.action") return null;
  const a = p.action || {};
  const name = who(p.seat);
  switch (a.type) {
    case "discard": return `${name} discarded ${card(a.card)}`;
    case "move": return `${name} played ${card(a.card)}: a piece to ${square(a.to)}${a.respawn ? `, promoted and back on ${square(a.respawn)}` : ""}`;
    case "stay": return `${name} played ${card(a.card)}: the piece is blocked and stays`;
    case "rescue": return `${name} played ${card(a.card)}: a piece out of ${who(a.jail)}'s Jail onto ${square(a.to)}`;
    case "none": return `${name} played ${card(a.card)}: no piece could move (2 Time and Rest)`;
    case "act": return `${name} took the ${a.action} action`;
    case "take": return `${name} took ${a.resource === "time" ? "a Time" : `a ${a.resource}`}`;
    case "acquire": return `${name} invited a ${LEVEL_WORDS[a.level] || ""} card from the market`;
    case "cull": return `${name} invited ${card(a.card)} from the ${a.pile}`;
    case "buy": return `${name} bought the ${a.bookmark} Bookmark`;
    case "use": return `${name} used the ${a.bookmark} Bookmark`;
    case "pass": return `${name} passed`;
    default: return null;
  }
}

export function mount(el, api) {
  const score = h("div", { className: "qa-score score-line big" });
  const status = h("p", { className: "qa-status" });
  const board = h("div");
  const table = h("div");
  const log = h("ul", { className: "qa-log" });
  const breaches = h("ul", { className: "qa-breaches" });
  const message = h("p", { className: "qa-message" });
  const mine = h("div", { className: "private" });
  const end = h("div");
  const say = (text) => { message.textContent = text; };
  const send = actions(api, API, say);

  function setupForm(v) {
    const opts = v.setup_options;
    const tile = h("select", {}, ...opts.tiles.map((t) => h("option", { value: t, textContent: `tile ${t}` })));
    const wishes = Object.entries(opts.wishes).map(([icon, ids]) => h("select", { title: icon }, ...ids.map((w) => h("option", { value: w, textContent: w }))));
    for (const s of [tile, ...wishes]) s.style.maxWidth = "100%";
    return h("p", {}, "Set-up: ", tile, ...wishes, button("Start", async () => {
      await send("setup", { tile: tile.value, wishes: wishes.map((s) => s.value) })();
    }));
  }

  // The box's Train cards, fetched once: a player finds the two dealt to them here.
  let trainBox = null;
  const trainPicks = [null, null];
  async function trainCards() {
    if (trainBox === null) trainBox = await api.get(`${API}/train-cards`);
    return trainBox;
  }

  function trainForm(v) {
    const mine = v.my_train;
    if (!mine) return [];
    if (mine.chosen) {
      return [h("p", { className: "qa-train", textContent: `Your Train card: ${mine.chosen.card}, ${mine.chosen.side} side (secret until everyone has chosen)` })];
    }
    if (mine.dealt.length) {
      const nodes = [h("p", { textContent: "Keep one Train card and choose its side, secretly:" })];
      for (const c of mine.dealt) {
        for (const side of ["red", "white"]) {
          nodes.push(button(`Keep ${c.id}, ${side}: ${c[side]}`, send("train", { card: c.id, side })));
        }
      }
      return nodes;
    }
    // A new view redraws the panel: the cards picked so far are kept across redraws.
    const selects = [0, 1].map((i) => {
      const s = h("select", { className: "qa-train-dealt" });
      s.addEventListener("change", () => { trainPicks[i] = s.value; });
      return s;
    });
    trainCards().then((box) => {
      selects.forEach((s, i) => {
        s.replaceChildren(...box.map((c) => h("option", { value: c.id, textContent: `${c.id} — red: ${c.red}; white: ${c.white}` })));
        s.style.maxWidth = "100%";
        s.value = trainPicks[i] || box[Math.min(i, box.length - 1)].id;
      });
    }).catch((err) => say(err.message));
    return [h("p", {}, "Your Train cards: ", ...selects, button("These were dealt to me", async () => {
      await send("train-dealt", { cards: selects.map((s) => s.value) })();
    }))];
  }

  function trainStatus(v) {
    if (!v.train_chosen) return null;
    const who = v.train_chosen.map((done, s) => `${playerName(v.seats, s)} ${done ? "chosen" : "still choosing"}`);
    return h("p", { className: "qa-train-status", textContent: `Train cards: ${who.join(", ")}` });
  }

  function render(state) {
    const v = state.view;
    const seat = api.seat;
    // Readable from a metre: each player's IP and whose turn it is, in large type.
    const turn = v.phase === "over" ? "Game over" : v.final ? "Final scoring"
      : (v.setup_options || v.to_move === null || v.to_move === undefined ? "Set-up" : `${playerName(v.seats, v.to_move)} to play`);
    score.replaceChildren(
      h("div", { className: "qa-ip chips" }, ...v.people.map((p, s) => h("span", { textContent: `${playerName(v.seats, s)} ${p.ip}` }))),
      h("div", { className: "qa-turn turn", textContent: turn }));
    status.textContent = v.awaiting;
    board.replaceChildren(scroller(chessboard(v)));
    table.replaceChildren(scroller(players(v, seat)));
    log.replaceChildren(...(v.log || []).map((e) => h("li", { textContent: `${playerName(v.seats, e.seat)}: ${e.text}` })));
    breaches.replaceChildren(...(v.breaches || []).map((b) => h("li", { className: "qa-breach", textContent: `⚠ ${b.rule}: ${b.detail}` })));
    const nodes = [];
    if (v.setup_options) nodes.push(setupForm(v));
    const chosen = trainStatus(v);
    if (chosen) nodes.push(chosen);
    nodes.push(...trainForm(v));
    const me = seat === null || seat === undefined ? null : v.people[seat];
    if (me && me.hand) {
      const drew = typedInput("qa-drew", { placeholder: "card drawn (id)", autocomplete: "off", size: 12 });
      nodes.push(h("p", {}, `Your hand: ${me.hand.map((c) => cardLabel(v, c)).join(", ") || "—"} `, drew,
        button("I drew it", async () => { forgetTyped("qa-drew"); await send("drew", { card: drew.value.trim() })(); })));
      for (const card of v.playable || []) nodes.push(button(`Play ${cardLabel(v, card)}`, send("play", { card })));
      for (const a of v.choices || []) {
        nodes.push(a.type === "discard"
          ? button(`Discard ${cardLabel(v, a.card)}`, send("discard", { card: a.card }))
          : button(choiceLabel(a), send("choose", { action: a })));
      }
    }
    if (!me && !v.setup_options && v.phase !== "over") {
      const level = h("select", {}, ...LEVELS.map((l, i) => h("option", { value: String(i), textContent: l })));
      const card = typedInput("qa-market", { placeholder: "market card (id)", autocomplete: "off", size: 12 });
      nodes.push(h("p", {}, "Market: ", level, card, button("Revealed", async () => {
        forgetTyped("qa-market");
        await send("revealed", { level: Number(level.value), card: card.value.trim() })();
      })));
      if (!v.final) {
        nodes.push(button("Score now (the family stops here)", async () => {
          if (!window.confirm("Show the final scoring of the game as it stands?")) return;
          await send("score-now")();
        }));
      }
      if (v.table_differs) {
        nodes.push(tableIsRightButton(api, say));
      }
    }
    mine.replaceChildren(...nodes);
    if (v.final) {
      const rows = v.final.players.map((p) => h("tr", {}, ...[p.name, p.track, p.coronation, p.wishes, p.guests, p.bookmarks, p.total].map((x) => h("td", { textContent: String(x) }))));
      const asking = v.final.asking ? " (waiting for your answer about the Alice tokens)" : "";
      end.replaceChildren(h("p", { textContent: `Final scoring${asking}. Crowned: ${v.final.coronation.colour || "a tie"}. Winner${v.final.winners.length > 1 ? "s" : ""}: ${v.final.winners.join(", ")}` }),
        scroller(h("table", {}, h("tr", {}, ...["", "track", "coronation", "wishes", "guests", "bookmarks", "total"].map((t) => h("th", { textContent: t }))), ...rows)));
    } else {
      end.replaceChildren();
    }
  }

  el.style.overflowWrap = "anywhere";
  el.replaceChildren(score, status, board, table, log, breaches, message, mine, end);
  render(api.state());
  api.onState(render);
}
