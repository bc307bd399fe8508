// What every game's panel builds with: elements, buttons, SVG, and a button's action that
// posts to the game's API and says what went wrong. One copy here instead of one per panel;
// a game's panel imports it from "/static/panel-kit.js" (see companion/live/table_game.py).

export function h(tag, props = {}, ...children) {
  const node = Object.assign(document.createElement(tag), props);
  node.append(...children.filter((c) => c !== null && c !== undefined));
  return node;
}

export function button(text, onClick, className = "") {
  const b = h("button", { textContent: text, type: "button", className });
  b.addEventListener("click", onClick);
  return b;
}

const typed = new Map();
/** A text input whose text and focus outlive the panel: panels redraw on every state update,
 *  and a player typing on their phone when an event arrives must not lose what they typed or
 *  their keyboard. `key` names the input within the page; `forgetTyped(key)` empties it once
 *  what was typed has been sent. */
export function typedInput(key, props = {}) {
  const before = typed.get(key);
  const input = h("input", { ...props, value: before ? before.value : "" });
  input.addEventListener("input", () => { typed.set(key, { value: input.value, input }); });
  if (before && before.input === document.activeElement) {
    typed.set(key, { value: before.value, input });
    queueMicrotask(() => { if (input.isConnected) input.focus(); });
  }
  return input;
}

export function forgetTyped(key) {
  typed.delete(key);
}

const SVG = "http://www.w3.org/2000/svg";
export function svg(tag, attrs = {}, text = null) {
  const node = document.createElementNS(SVG, tag);
  for (const [k, val] of Object.entries(attrs)) node.setAttribute(k, String(val));
  if (text !== null) node.textContent = text;
  return node;
}

/** `act(path, body)` makes a click handler that posts `body` to `${base}/${path}`; `say` is
 *  told "" when the server accepts, or the server's one-line reason when it refuses. */
export function actions(api, base, say) {
  return (path, body) => async () => {
    try {
      await api.post(`${base}/${path}`, body || {});
      say("");
    } catch (err) {
      say(err.message);
    }
  };
}

/** The admin's way back when the companion's record has drifted from the table: what the
 *  camera steadily sees becomes the record (POST /api/table-is-right). */
export function tableIsRightButton(api, say) {
  return button("The table is right", actions(api, "/api", say)("table-is-right"));
}

/** A player as the players named them (`seats`: the session's names), "Player 2" for a seat
 *  without a name: never the seat's number, which counts from 0 (as `companion/live/words.py`). */
export function playerName(seats, seat) {
  const name = seats && seats[seat];
  return name && name.trim() ? name : `Player ${seat + 1}`;
}
