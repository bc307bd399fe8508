// The example game's dashboard panel: the markers it saw, public notes, this seat's memos.
// A game's panel is an ES module exporting mount(el, api); see companion/live/table_game.py.

export function mount(el, api) {
  const seen = document.createElement("p");
  const notes = document.createElement("ul");
  const memos = document.createElement("ul");
  memos.className = "private";
  const form = document.createElement("form");
  const input = document.createElement("input");
  input.placeholder = "a memo only your seat sees";
  const button = document.createElement("button");
  button.textContent = "Add memo";
  form.append(input, button);
  form.addEventListener("submit", async (e) => {
    e.preventDefault();
    try {
      await api.post("/api/games/example/memos", { text: input.value });
      input.value = "";
    } catch (err) {
      seen.textContent = err.message;
    }
  });

  function render(state) {
    const v = state.view;
    seen.textContent = `markers on the table: ${v.markers === null ? "not yet seen" : v.markers.join(", ")}`;
    notes.replaceChildren(...v.notes.map((n) => Object.assign(document.createElement("li"), { textContent: n.text })));
    memos.replaceChildren(...v.memos.map((m) => Object.assign(document.createElement("li"), { textContent: m })));
  }

  el.replaceChildren(seen, notes);
  if (api.seat !== null) el.append(memos, form);
  render(api.state());
  api.onState(render);
}
