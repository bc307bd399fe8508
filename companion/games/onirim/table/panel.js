// Onirim: the labyrinth, the Doors and Mirrors still needed, what is not in sight by kind,
// breaches and reminders, and, on the player's own phone only: the hand, the deck by kind,
// the chance the next draw is a Nightmare, the taps for what the camera cannot see (cards
// drawn, a prophecy, a Nightmare, a Door, a Mirror's effect) and the hint on request.
// An ES module exporting mount(el, api); see companion/live/table_game.py.

import { button, h, svg, tableIsRightButton } from "/static/panel-kit.js";

const API = "/api/games/onirim";
const COLOURS = { red: "#c53030", blue: "#2b6cb0", green: "#2f855a", brown: "#8b5a2b" };
const SYMBOLS = { sun: "☀", moon: "☾" };

// The Key as a drawn icon: no key character is in every phone's and Chromium's fonts
// (Debian's showed an empty box for "⚿").
function keyIcon() {
  const icon = svg("svg", { viewBox: "0 0 24 12", width: "1.5em", height: "0.75em", role: "img", "aria-label": "key" });
  icon.append(
    svg("circle", { cx: 5, cy: 6, r: 3.6, fill: "none", stroke: "currentColor", "stroke-width": 2 }),
    svg("path", { d: "M8.6 6H22M18 6V10M21.5 6V9.5", fill: "none", stroke: "currentColor", "stroke-width": 2 }));
  return icon;
}
const DRAW_PHASES = new Set(["setup", "refill", "redraw"]);
const LOOK_PHASES = new Set(["prophecy-look", "nightmare-look"]);

// A card as a small coloured chip: "red-sun", "door-blue", "nightmare".
function chip(card) {
  if (card === null || card === undefined) return h("span", { className: "on-card", textContent: "?" });
  const parts = card.split("-");
  let text = card;
  let colour = "#444";
  if (card === "nightmare") text = "☠";
  else if (parts[0] === "door") { text = "Door"; colour = COLOURS[parts[1]]; }
  else { text = SYMBOLS[parts[1]] || parts[1]; colour = COLOURS[parts[0]]; }
  const key = parts[1] === "key";
  const c = h("span", { className: "on-card", textContent: key ? "" : text, title: cardWords(card) }, key ? keyIcon() : null);
  c.style.cssText = `display:inline-block;min-width:1.8em;margin:1px;padding:2px 4px;`
    + `border-radius:4px;color:#fff;text-align:center;background:${colour || "#444"}`;
  return c;
}

function row(label, cards) {
  return h("p", {}, h("b", { textContent: `${label}: ` }), ...(cards.length ? cards.map(chip) : [h("span", { textContent: "—" })]));
}

// A card in words: "red-sun" -> "the red Sun", "door-blue" -> "the blue Door".
export function cardWords(card) {
  if (!card) return "an unseen card";
  if (card === "nightmare") return "a Nightmare";
  const [a, b] = card.split("-");
  const cap = (w) => w.charAt(0).toUpperCase() + w.slice(1);
  return a === "door" ? `the ${b} Door` : `the ${a} ${cap(b || "")}`;
}

function cardList(cards) {
  const words = (cards || []).map(cardWords);
  return words.length > 1 ? `${words.slice(0, -1).join(", ")} and ${words[words.length - 1]}` : (words[0] || "nothing");
}

/** A Mirror by its name: "the Sun Mirror". */
function mirrorWords(m) {
  return ["sun", "moon", "key"].includes(m) ? `the ${m.charAt(0).toUpperCase()}${m.slice(1)} Mirror` : `the ${m} Mirror`;
}

/** A hint's move in words ("Play the red Sun"), not the action's fields ("play red-sun"). */
function hintWords(a) {
  const verb = { play: "Play", discard: "Discard", pick: "Choose" }[a.type];
  if (verb && a.card) return `${verb} ${cardWords(a.card)}`;
  if (a.type === "pair") return `Pair ${cardList(a.cards)} under ${mirrorWords(a.mirror)}`;
  return Object.values(a).filter((x) => x !== null).map((x) => (typeof x === "string" && x.includes("-") ? cardWords(x) : x)).join(" ");
}

const NIGHTMARE_WAYS = {
  key: (a) => `by discarding ${cardWords(a.card)}`,
  door: (a) => `by sending ${cardWords(a.card)} to limbo`,
  reveal: () => "by discarding the top five cards of the deck",
  hand: () => "by discarding the hand",
};

/** The event log's words for this game's events (app.js asks; null: its own words). */
export function describe(ev, seats) {
  const p = ev.payload || {};
  const who = seats[0] || "The player";
  if (ev.kind === "onirim.breach") return `Not allowed: ${p.detail || p.rule}`;
  if (ev.kind === "onirim.hint") return "You asked for a hint";
  if (ev.kind === "onirim.seen") {
    const n = ((p.table || {}).labyrinth || []).length;
    return `The camera sees the table steady: ${n} card${n === 1 ? "" : "s"} in the labyrinth`;
  }
  if (ev.kind !== "onirim.action") return null;
  const a = p.action || {};
  const mirror = mirrorWords;
  switch (a.type) {
    case "draw": return `${who} drew ${cardWords(a.card)}`;
    case "reveal": return `The top of the deck: ${cardList(a.cards)}`;
    case "play": return `${who} played ${cardWords(a.card)}`;
    case "discard": return `${who} discarded ${cardWords(a.card)}`;
    case "pair": return `${who} paired ${cardList(a.cards)} under ${mirror(a.mirror)}`;
    case "prophecy": return `${who}'s prophecy: ${a.discard ? `${cardWords(a.discard)} discarded, ` : ""}${cardList(a.order)} put back, top first`;
    case "open-door": return a.open ? `${who} opened the Door with a Key` : `${who} sent the Door to limbo`;
    case "nightmare": return `${who} faced a Nightmare ${(NIGHTMARE_WAYS[a.way] || (() => ""))(a)}`.trim();
    case "pick": return `${who} chose ${cardWords(a.card)}`;
    default: return null;
  }
}

export function mount(el, api) {
  const score = h("div", { className: "on-score score-line big" });
  const status = h("p", { className: "on-status" });
  const table = h("div", { className: "on-table" });
  const notes = h("ul", { className: "on-notes" });
  const message = h("p", { className: "on-message" });
  const mine = h("div", { className: "private" });
  const say = (text) => { message.textContent = text; };
  let picked = [];
  const post = async (path, body) => {
    try {
      await api.post(`${API}/${path}`, body || {});
      say("");
      return true;
    } catch (err) {
      say(err.message);
      return false;
    }
  };

  function cardPicker(v, title, count, send) {
    // Tap the cards one by one (top first); send them when `count` are chosen.
    const kinds = Object.keys(v.deck_by_kind || {});
    const chosen = h("p", {}, ...picked.map(chip));
    const pad = h("div", { className: "on-pad" }, ...kinds.map((k) => {
      const b = button("", () => {
        picked.push(k);
        if (picked.length >= count) {
          const cards = picked;
          picked = [];
          send(cards);
        } else {
          render(api.state());
        }
      });
      b.replaceChildren(chip(k));
      return b;
    }));
    return h("div", {}, h("p", { textContent: title }), chosen, pad,
      button("Clear", () => { picked = []; render(api.state()); }));
  }

  function render(state) {
    const v = state.view;
    // Readable from a metre: the Doors still to find, and the turn (a game of one player).
    const needed = (v.doors_needed || []).length;
    score.replaceChildren(
      h("div", { className: "on-doors", textContent: v.result ? "Game over" : `${needed} Door${needed === 1 ? "" : "s"} to find` }),
      h("div", { className: "on-turn turn", textContent: `Turn ${v.turns}` }));
    status.textContent = v.result || `Turn ${v.turns}. ${v.waiting}`;
    const mirrors = (v.mirrors || []).map((m) => h("li", {},
      `${mirrorWords(m.mirror).replace(/^the /, "The ")}${m.explored ? " (explored)" : ""}: `, ...(m.under || []).map(chip)));
    const unseen = Object.entries(v.unseen_by_kind || {}).map(([k, n]) => h("span", {}, chip(k), `×${n} `));
    table.replaceChildren(
      row("Labyrinth", (v.labyrinth || []).slice(-14)),
      row("Doors in play", v.doors || []),
      row("Doors still needed", v.doors_needed || []),
      h("p", { textContent: `Mirrors still needed: ${(v.mirrors_needed || []).map(mirrorWords).join(", ") || "none"}` }),
      h("ul", { className: "on-mirrors" }, ...mirrors),
      h("p", {}, h("b", { textContent: "Discard pile: " }), chip(v.discard_top)),
      h("p", {}, h("b", { textContent: `Not in sight (deck and hand, ${v.deck_size} + ${v.hand_size}): ` }), ...unseen),
    );
    const lines = [
      ...(v.breaches || []).map((b) => h("li", { className: "on-breach", textContent: `⚠ ${b.rule}: ${b.detail}` })),
      ...(v.reminders || []).map((r) => h("li", { className: "on-reminder", textContent: `↪ ${r}` })),
    ];
    if (v.library) lines.push(h("li", { textContent: v.library }));
    notes.replaceChildren(...lines);
    const nodes = [];
    if (api.seat === 0) {
      nodes.push(row("Your hand", v.hand || []));
      if (v.next_is_nightmare !== null && v.next_is_nightmare !== undefined) {
        nodes.push(h("p", { className: "on-nightmare", textContent: `Chance the next draw is a Nightmare: ${(100 * v.next_is_nightmare).toFixed(1)} %` }));
      }
      const deck = Object.entries(v.deck_by_kind || {}).map(([k, n]) => h("span", {}, chip(k), `×${n} `));
      nodes.push(h("p", {}, h("b", { textContent: "Left in the deck: " }), ...deck));
      if ((v.deck_top || []).length) nodes.push(row("Known top of the deck", v.deck_top));
      if ((v.shown || []).length) nodes.push(row("Shown", v.shown));
      if (DRAW_PHASES.has(v.phase)) {
        nodes.push(cardPicker(v, "Tap the card you drew:", 1, (cards) => post("drew", { cards })));
      } else if (LOOK_PHASES.has(v.phase)) {
        const n = Math.min(5, v.deck_size);
        nodes.push(cardPicker(v, `Tap the ${n} cards shown, top first:`, n, (cards) => post("looked", { cards })));
      }
      for (const c of v.choices || []) {
        const body = { ...c.payload };
        const kind = body.kind;
        delete body.kind;
        nodes.push(button(c.label, () => post(kind, body)));
      }
      if (v.phase === "turn" || (v.choices || []).length) nodes.push(button("Hint (only you see it)", () => post("hint")));
      if (v.hint) {
        nodes.push(h("ol", { className: "on-hint" }, ...v.hint.actions.map((a) => h("li", {
          textContent: `${hintWords(a.action)}: ${(100 * a.win).toFixed(0)} % to win${a.searched ? "" : " (one step ahead)"}`,
        }))));
      }
    } else if (api.seat === null || api.seat === undefined) {
      if ((v.breaches || []).length) {
        // The admin's way back when the game has drifted from the table.
        nodes.push(tableIsRightButton(api, say));
      }
    }
    mine.replaceChildren(...nodes);
  }

  el.replaceChildren(score, status, table, notes, message, mine);
  render(api.state());
  api.onState(render);
}
