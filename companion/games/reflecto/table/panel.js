// Reflecto: the board as the companion keeps it (your own screens with their letters, the
// other player's as plain backs), whose turn it is, the removed letters in order, breaches,
// and for your seat only: your secret word and set-up, the guess entry, the hint and the
// "what my mirrors show now" switch. Both words show once the game is over.
// An ES module exporting mount(el, api); see companion/live/table_game.py.

import { actions, button, forgetTyped, h, playerName, tableIsRightButton, typedInput } from "/static/panel-kit.js";

const API = "/api/games/reflecto";
// What the live image's marks mean, as vision/perceive.py's annotate draws them: a dot on each
// screen read, in its owner's colour, ringed where the camera is unsure.
export const overlayLegend = (seats) => [
  ["white", `dot: ${playerName(seats, 0)}'s screen`], ["black", `dot: ${playerName(seats, 1)}'s screen`],
  ["orange", "ring: a screen the camera is unsure of"],
];
const COLOURS = ["#2b6cb0", "#c53030"];
// The set-up being tapped in, kept by the module: the dashboard may mount the panel again.
const draft = { word: "", columns: [], mirrors: [] };

// The rulebook's even split (the server checks it): blanks first, or the longer pieces last.
function evenSplit(word, screens) {
  if (word.length < screens) return [...Array(screens - word.length).fill(""), ...word];
  const small = Math.floor(word.length / screens);
  const extra = word.length % screens;
  const out = [];
  let at = 0;
  for (let i = 0; i < screens; i += 1) {
    const size = small + (i >= screens - extra ? 1 : 0);
    out.push(word.slice(at, at + size));
    at += size;
  }
  return out;
}

function boardGrid(v, seat, seats) {
  // Seat 1 sits across the table: their view is turned half round. The board fills the
  // panel's width (square cells), screens drawn as tiles in their player's colour: a
  // family reads it from a metre, the way the screens stand on the table.
  const flip = seat === 1;
  const grid = h("div", { className: "rf-board" });
  grid.style.gridTemplateColumns = `repeat(${v.cols}, minmax(0, 1fr))`;
  grid.style.gridTemplateRows = `repeat(${v.rows}, minmax(0, 1fr))`;
  grid.style.aspectRatio = `${v.cols} / ${v.rows}`;
  const at = {};
  for (const s of v.screens) if (s.cell) at[`${s.cell[0]},${s.cell[1]}`] = s;
  const seenMirror = new Set((v.sight || []).map((x) => x.screen));
  for (let r = 0; r < v.rows; r += 1) {
    for (let c = 0; c < v.cols; c += 1) {
      const s = at[`${r},${c}`];
      let text = "";
      let title = `row ${r + 1}, column ${c + 1}`;
      let kind = "rf-cell";
      if (s) {
        // "M" for a mirror you know; the other player's screens are backs, without a letter.
        text = s.kind === "mirror" ? "M" : (s.kind === "letter" ? (s.text || "□") : "");
        kind += s.kind === "mirror" ? " rf-mirror" : (s.kind === "letter" ? " rf-letter" : " rf-back");
        title = `${playerName(seats, s.owner)}: ${s.kind === "mirror" ? "a mirror" : s.kind === "letter" ? `letter ${s.text || "blank"}` : "a screen"}, ${title}`
          + (s.rank !== undefined && s.rank !== null ? `, #${s.rank + 1} to remove` : "");
        if (seenMirror.has(s.id)) title += " (your mirror shows it)";
      }
      const cell = h("div", { className: kind, textContent: text, title });
      cell.style.gridRow = String((flip ? r : v.rows - 1 - r) + 1);
      cell.style.gridColumn = String((flip ? v.cols - 1 - c : c) + 1);
      if (s) cell.style.setProperty("--seat", COLOURS[s.owner]);
      if (seenMirror.has(s && s.id)) cell.classList.add("rf-seen");
      grid.append(cell);
    }
  }
  // Whose side is whose: the near side is the reader's own (player 0's when no seat).
  const near = flip ? 1 : 0;
  const side = (s) => h("div", { className: "rf-side", textContent: `${playerName(seats, s)}'s side` });
  const far = side(1 - near);
  far.style.color = COLOURS[1 - near];
  const mine = side(near);
  mine.style.color = COLOURS[near];
  return h("div", { className: "rf-board-box" }, far, grid, mine);
}

/** A square as the board is drawn: rows and columns counted from 1. */
function square(c) {
  return `row ${c[0] + 1}, column ${c[1] + 1}`;
}

/** A screen in words, by what the view shows of it and where it stands (`cell`, default
 *  where the view has it): its id ("A3") is the companion's name for it, not the players'. */
function screenWords(v, id, cell) {
  const s = ((v && v.screens) || []).find((x) => x.id === id);
  if (!s) return "a screen";
  const what = s.kind === "mirror" ? "the mirror" : s.kind === "letter" && s.text ? `the ${s.text}` : "a screen";
  const at = cell === undefined ? s.cell : cell;
  return at ? `${what} at ${square(at)}` : what;
}

/** A hint's plan in words: each move names the screen where the moves before it left it. */
function planWords(v) {
  const at = Object.fromEntries(((v && v.screens) || []).map((x) => [x.id, x.cell]));
  return v.hint.plan.map((m) => {
    const said = `${screenWords(v, m.screen, at[m.screen])} ${m.to === "off" ? "off the board" : `to ${square(m.to)}`}`;
    at[m.screen] = m.to === "off" ? null : m.to;
    return said;
  }).join(", ");
}

function removedLine(v, seats) {
  return v.removed.map((laid, s) => `${playerName(seats, s)}: ${laid.map((x) => x.text || "□").join(" ") || "—"}`).join(" · ");
}

function setupForm(v, api, say) {
  const seat = api.seat;
  const screens = v.letter_screens[seat];
  const mirrors = v.mirror_screens[seat];
  const form = h("div", { className: "rf-setup private" });
  const word = h("input", { placeholder: "your secret word", value: draft.word, autocomplete: "off" });
  const chips = h("p");
  const row = h("div");
  const redraw = () => {
    const chunks = evenSplit(draft.word, screens);
    const placed = chunks.map((t, i) => `${t || "□"}→${draft.columns[i] ?? "?"}`);
    const ms = [...Array(mirrors).keys()].map((i) => `mirror →${draft.mirrors[i] ?? "?"}`);
    chips.textContent = `Tap a column of your first row for each screen, in order: ${[...placed, ...ms].join("  ")}`;
    const used = new Set([...draft.columns, ...draft.mirrors]);
    row.replaceChildren(...[...Array(v.cols).keys()].map((c) => {
      const b = button(String(c), () => {
        if (draft.columns.length < screens) draft.columns.push(c);
        else if (draft.mirrors.length < mirrors) draft.mirrors.push(c);
        redraw();
      });
      b.disabled = used.has(c);
      return b;
    }));
  };
  word.addEventListener("input", () => { draft.word = word.value.replace(/\s/g, "").toUpperCase(); redraw(); });
  const reset = button("Start again", () => { draft.columns = []; draft.mirrors = []; redraw(); });
  const send = button("Set up (only you see it)", async () => {
    try {
      await api.post(`${API}/setup`, { word: draft.word, columns: draft.columns, mirrors: draft.mirrors });
      say("Set-up saved. Place your screens as tapped in.");
    } catch (err) {
      say(err.message);
    }
  });
  redraw();
  form.append(h("label", { textContent: "Word: " }, word), chips, row, reset, send);
  return form;
}

/** The event log's words for this game's events (app.js asks; null: its own words). A
 *  screen's owner comes from the view; a letter shows only where the view already shows it. */
export function describe(ev, seats, view) {
  const p = ev.payload || {};
  const who = (s) => (s === null || s === undefined ? "A player" : playerName(seats, s));
  const screen = (id) => ((view && view.screens) || []).find((x) => x.id === id) || null;
  if (ev.kind === "reflecto.setup") return "Your word and screens are set up (only you see this)";
  if (ev.kind === "reflecto.breach") return `Not allowed: ${p.detail || p.rule}`;
  if (ev.kind === "reflecto.hint") return "You asked for a hint";
  if (ev.kind === "reflecto.sight") return `What your mirrors show: ${p.on ? "on" : "off"}`;
  if (ev.kind === "reflecto.seen") {
    const n = (p.screens || []).length;
    return `The camera sees the board steady: ${n} screen${n === 1 ? "" : "s"}`;
  }
  if (ev.kind !== "reflecto.action") return null;
  const a = p.action || {};
  const s = a.screen ? screen(a.screen) : null;
  const owner = who(p.seat ?? (s ? s.owner : null));
  switch (a.type) {
    case "setup": return `${who(a.seat)} is set up`;
    case "move": return a.to === "off" ? `${owner} moved a screen off the board` : `${owner} moved a screen to ${square(a.to)}`;
    case "remove": return `${owner} removed a screen${s && s.text ? `: ${s.text}` : ""}`;
    case "guess": return `${who(p.seat)} guessed the other word: ${a.word}`;
    case "done": return "The turn ends";
    default: return null;
  }
}

export function mount(el, api) {
  const score = h("div", { className: "rf-score score-line big" });
  const status = h("p", { className: "rf-status" });
  const board = h("div");
  const removed = h("p");
  const breaches = h("ul", { className: "rf-breaches" });
  const message = h("p", { className: "rf-message" });
  const mine = h("div", { className: "private" });
  const end = h("div");
  const say = (text) => { message.textContent = text; };
  let setup = null;
  const act = actions(api, API, say);

  function render(state) {
    const v = state.view;
    const seats = v.seats || [];
    const seat = api.seat;
    // Readable from a metre: the letters each player has taken off, and whose turn it is.
    const turn = v.phase === "setup" ? "Set-up" : v.phase === "play" ? `${playerName(seats, v.to_move)} to move` : "Game over";
    score.replaceChildren(
      h("div", { className: "rf-removed chips" }, ...v.removed.map((laid, s) => h("span", {
        textContent: `${playerName(seats, s)} ${laid.length}`,
        title: "letter screens removed so far" }))),
      h("div", { className: "rf-turn turn", textContent: turn }));
    if (v.phase === "setup") {
      const waiting = v.set_up.map((done, s) => `${playerName(seats, s)}: ${done ? "ready" : "setting up"}`).join(", ");
      status.textContent = `Set-up (${waiting}): each player enters their word on their own phone.`;
    } else if (v.phase === "play") {
      status.textContent = `Turn ${v.turn + 1}: ${playerName(seats, v.to_move)} to move`
        + ` — word lengths ${v.word_length.map((n, s) => `${playerName(seats, s)} ${n}`).join(", ")}`;
    } else {
      status.textContent = v.result || "The game is over.";
    }
    board.replaceChildren(boardGrid(v, seat, seats));
    removed.textContent = `Removed, in order: ${removedLine(v, seats)}`;
    breaches.replaceChildren(...(v.breaches || []).map((b) => h("li", { className: "rf-breach", textContent: `⚠ ${b.rule}: ${b.detail}` })));
    const nodes = [];
    if (seat !== null && seat !== undefined) {
      if (v.word) nodes.push(h("p", { textContent: `Your word: ${v.word}` }));
      if (v.phase === "setup" && !v.set_up[seat]) {
        if (!setup) setup = setupForm(v, api, say);
        nodes.push(setup);
      }
      if (v.phase === "play") {
        if (v.to_move === seat && !v.moved) {
          const guess = typedInput("reflecto-guess", { placeholder: "guess the other word", autocomplete: "off" });
          nodes.push(h("p", {}, guess, button("Guess (instead of moving)", async () => {
            if (!window.confirm(`Guess ${guess.value}? A wrong guess ${v.options.guessing_frequently ? "loses your turn" : "loses the game"}.`)) return;
            forgetTyped("reflecto-guess");
            await act("guess", { word: guess.value })();
          })));
        }
        nodes.push(button("Hint (only you see it)", act("hint")));
        if (v.hint) {
          const plan = planWords(v);
          let text = `Fewest moves: ${v.hint.moves} (${plan}), found in ${v.hint.seconds} s.`;
          if (v.hint.moves === null) text = `No plan within ${v.hint.seconds} s: at least ${v.hint.at_least} moves.`;
          else if (!v.hint.proven) text = `A way in ${v.hint.moves} moves (at least ${v.hint.at_least}): ${plan}.`;
          nodes.push(h("p", { textContent: text }));
        }
        const sight = h("input", { type: "checkbox", checked: Boolean(v.sight_on) });
        sight.addEventListener("change", act("sight", { on: sight.checked }));
        nodes.push(h("label", { textContent: " What my mirrors show now" }, sight));
        if (v.sight) {
          nodes.push(h("p", { textContent: v.sight.length
            ? v.sight.map((x) => `${screenWords(v, x.mirror)} shows ${x.text || "a blank"}${x.rank !== null ? ` (#${x.rank + 1})` : ""}`).join("; ")
            : "Your mirrors show no letter now." }));
        }
      }
    }
    if ((seat === null || seat === undefined) && v.phase === "play" && (v.breaches || []).length) {
      // The admin's way back when the companion's board has drifted from the table.
      nodes.push(tableIsRightButton(api, say));
    }
    mine.replaceChildren(...nodes);
    if (v.phase === "over") {
      const record = (v.sightings || []).map((x) => `${playerName(seats, x.seat)} could see ${screenWords(v, x.screen)} from turn ${x.turn + 1}`);
      end.replaceChildren(
        h("p", { textContent: `Words: ${(v.words || []).map((w, s) => `${playerName(seats, s)}: ${w}`).join(", ")}` }),
        h("p", { textContent: record.length ? `Mirror record: ${record.join("; ")}` : "No letter was in a mirror's sight." }));
    } else {
      end.replaceChildren();
    }
  }

  el.replaceChildren(score, status, board, removed, breaches, message, mine, end);
  render(api.state());
  api.onState(render);
}
