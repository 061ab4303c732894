// The game's page: follows the game live, and (for a player) places tiles by dragging (mouse,
// pen or touch: pointer events) or by keyboard, previews the move, and sends it. The server
// judges everything; this script only shows and asks.
const root = document.getElementById("game");
const game = root.dataset.game;
const watcher = root.dataset.watcher === "yes";
const live = document.getElementById("live");
const statusLine = document.getElementById("status");
const previewLine = document.getElementById("preview");
const base = `/g/${encodeURIComponent(game)}`;

let pending = []; // {row, col, tile, index} placed on the page, not yet played
let selected = null; // rack index of the selected tile
let swapping = false;
let swapSet = new Set();
let cursor = { row: 7, col: 7 };
let rackKey = "";

function board() { return document.getElementById("board"); }
function cellAt(row, col) { return board()?.querySelector(`[data-row="${row}"][data-col="${col}"]`); }
function rackButtons() { return [...document.querySelectorAll("#rack .rtile")]; }
function size() { return Number(board()?.dataset.size || 15); }

function say(text, refused = false) {
  statusLine.textContent = text;
  statusLine.classList.toggle("refused", refused);
}

async function post(path, body) {
  const response = await fetch(base + path, {
    method: "POST",
    headers: { "Content-Type": "application/json" },
    body: JSON.stringify(body),
    credentials: "same-origin",
  });
  let data = {};
  try { data = await response.json(); } catch { data = {}; }
  return { ok: response.ok, status: response.status, data };
}

// ------------------------------------------------------------ drawing pending tiles

function draw() {
  for (const cell of document.querySelectorAll("#board [data-pending]")) {
    cell.removeAttribute("data-pending");
    cell.classList.remove("pending");
    cell.setAttribute("aria-label", cell.dataset.label0 || cell.getAttribute("aria-label"));
    const shown = cell.querySelector(".pend");
    if (shown) shown.remove();
  }
  for (const p of pending) {
    const cell = cellAt(p.row, p.col);
    if (!cell) continue;
    if (!cell.dataset.label0) cell.dataset.label0 = cell.getAttribute("aria-label");
    cell.dataset.pending = "yes";
    cell.classList.add("pending");
    const span = document.createElement("span");
    span.className = "pend";
    span.textContent = p.tile.toUpperCase();
    cell.appendChild(span);
    cell.setAttribute("aria-label", `${cell.dataset.name}, ${p.tile.toUpperCase()}, placed by you`);
  }
  const used = new Set(pending.map((p) => p.index));
  for (const button of rackButtons()) {
    const index = Number(button.dataset.index);
    button.disabled = used.has(index);
    button.setAttribute("aria-pressed", String(index === selected || swapSet.has(index)));
  }
  roving();
}

function roving() {
  const b = board();
  if (!b) return;
  for (const cell of b.querySelectorAll('[role="gridcell"][tabindex="0"]')) cell.tabIndex = -1;
  const cell = cellAt(cursor.row, cursor.col);
  if (cell) cell.tabIndex = 0;
}

// ------------------------------------------------------------ placing

async function place(row, col, index) {
  const button = rackButtons().find((b) => Number(b.dataset.index) === index);
  const cell = cellAt(row, col);
  if (!button || !cell || button.disabled) return;
  if (cell.dataset.letter || cell.dataset.pending) {
    say(`${cell.dataset.name} is taken.`);
    return;
  }
  let tile = button.dataset.tile;
  if (tile === "?") {
    const letter = (prompt("Which letter does the blank stand for?") || "").trim();
    if (!/^\p{L}$/u.test(letter)) {
      say("A blank stands for one letter.");
      return;
    }
    tile = letter.toLowerCase();
  }
  pending.push({ row, col, tile, index });
  selected = null;
  draw();
  say(`${tile.toUpperCase()} placed on ${cell.dataset.name}.`);
  await preview();
}

function takeBack(row, col) {
  const at = pending.findIndex((p) => p.row === row && p.col === col);
  if (at < 0) return false;
  const [p] = pending.splice(at, 1);
  draw();
  say(`${p.tile.toUpperCase()} back on your rack.`);
  preview();
  return true;
}

async function preview() {
  if (!previewLine) return;
  if (!pending.length) {
    previewLine.textContent = "Place tiles on the board to see your word and its score.";
    return;
  }
  const { ok, data } = await post("/preview", { tiles: pending.map((p) => [p.row, p.col, p.tile]) });
  if (ok && data.ok) {
    const words = data.words.map(([w, s]) => `${w} ${s}`).join(", ");
    const bonus = data.bingo ? `, +${data.bingo} for using every tile` : "";
    previewLine.textContent = `${data.move}: ${words}${bonus} = ${data.score} points.`;
  } else {
    previewLine.textContent = data.move ? `${data.move}: ${data.reason}` : (data.reason || "Not a move yet.");
  }
}

// ------------------------------------------------------------ moves

async function move(action, tiles) {
  const { ok, data } = await post("/move", { action, tiles });
  if (ok) {
    pending = [];
    selected = null;
    swapping = false;
    swapSet = new Set();
    say(action === "place" ? "Played." : action === "pass" ? "You passed." : action === "swap" ? "Swapped." : "You resigned.");
  } else {
    say(data.reason || "That move was not accepted.", true);
  }
}

function controls() {
  if (watcher) return;
  document.getElementById("play").addEventListener("click", () => {
    if (!pending.length) { say("Place tiles on the board first."); return; }
    move("place", pending.map((p) => [p.row, p.col, p.tile]));
  });
  document.getElementById("recall").addEventListener("click", () => {
    pending = [];
    draw();
    preview();
    say("Your tiles are back on your rack.");
  });
  document.getElementById("pass").addEventListener("click", () => move("pass", []));
  document.getElementById("resign").addEventListener("click", () => {
    if (confirm("Resign this game? You lose it.")) move("resign", []);
  });
  const swap = document.getElementById("swap");
  swap.addEventListener("click", () => {
    if (!swapping) {
      swapping = true;
      pending = [];
      swapSet = new Set();
      selected = null;
      draw();
      swap.textContent = "Swap chosen tiles";
      say("Choose the tiles to swap on your rack, then press Swap chosen tiles.");
      return;
    }
    const tiles = rackButtons().filter((b) => swapSet.has(Number(b.dataset.index))).map((b) => [0, 0, b.dataset.tile]);
    swap.textContent = "Swap…";
    swapping = false;
    swapSet = new Set();
    draw();
    move("swap", tiles);
  });
}

// ------------------------------------------------------------ rack and board events

function select(index) {
  if (swapping) {
    if (swapSet.has(index)) swapSet.delete(index); else swapSet.add(index);
    draw();
    return;
  }
  selected = selected === index ? null : index;
  draw();
  if (selected !== null) {
    const button = rackButtons().find((b) => Number(b.dataset.index) === index);
    say(`${button.getAttribute("aria-label")} selected: move on the board with the arrow keys and press Enter to place it.`);
    cellAt(cursor.row, cursor.col)?.focus();
  }
}

live.addEventListener("click", (event) => {
  const button = event.target.closest(".rtile");
  if (button && !button.disabled && !dragged) {
    select(Number(button.dataset.index));
    return;
  }
  const cell = event.target.closest('[role="gridcell"]');
  if (cell && !watcher) {
    const row = Number(cell.dataset.row), col = Number(cell.dataset.col);
    cursor = { row, col };
    roving();
    if (selected !== null) place(row, col, selected);
    else takeBack(row, col);
  }
});

live.addEventListener("keydown", (event) => {
  const cell = event.target.closest?.('[role="gridcell"]');
  if (!cell) return;
  const moves = { ArrowUp: [-1, 0], ArrowDown: [1, 0], ArrowLeft: [0, -1], ArrowRight: [0, 1] };
  const n = size();
  if (moves[event.key]) {
    const [dr, dc] = moves[event.key];
    cursor = { row: Math.max(0, Math.min(n - 1, cursor.row + dr)), col: Math.max(0, Math.min(n - 1, cursor.col + dc)) };
  } else if (event.key === "Home") {
    cursor = { row: cursor.row, col: 0 };
  } else if (event.key === "End") {
    cursor = { row: cursor.row, col: n - 1 };
  } else if (event.key === "Enter" || event.key === " ") {
    event.preventDefault();
    if (watcher) return;
    if (selected !== null) {
      place(cursor.row, cursor.col, selected).then(() => {
        const next = rackButtons().find((b) => !b.disabled);
        (next || cellAt(cursor.row, cursor.col))?.focus();
      });
    } else if (!takeBack(cursor.row, cursor.col)) {
      say("Select a tile on your rack first.");
    }
    return;
  } else if (event.key === "Backspace" || event.key === "Delete") {
    event.preventDefault();
    takeBack(cursor.row, cursor.col);
    return;
  } else if (event.key === "Escape") {
    selected = null;
    draw();
    rackButtons().find((b) => !b.disabled)?.focus();
    return;
  } else {
    return;
  }
  event.preventDefault();
  roving();
  cellAt(cursor.row, cursor.col)?.focus();
});

// Dragging: pointer events serve mouse, pen and touch alike.
let drag = null;
let dragged = false;
live.addEventListener("pointerdown", (event) => {
  const button = event.target.closest(".rtile");
  if (!button || button.disabled || swapping) return;
  dragged = false;
  const ghost = button.cloneNode(true);
  ghost.classList.add("ghost");
  ghost.removeAttribute("aria-label");
  ghost.setAttribute("aria-hidden", "true");
  drag = { button, ghost, x: event.clientX, y: event.clientY, id: event.pointerId };
  button.setPointerCapture(event.pointerId);
});
live.addEventListener("pointermove", (event) => {
  if (!drag || event.pointerId !== drag.id) return;
  if (!dragged && Math.hypot(event.clientX - drag.x, event.clientY - drag.y) < 6) return;
  if (!dragged) {
    dragged = true;
    document.body.appendChild(drag.ghost);
  }
  drag.ghost.style.left = `${event.clientX}px`;
  drag.ghost.style.top = `${event.clientY}px`;
  event.preventDefault();
});
live.addEventListener("pointerup", (event) => {
  if (!drag || event.pointerId !== drag.id) return;
  const { button, ghost } = drag;
  drag = null;
  ghost.remove();
  if (!dragged) return;
  const target = document.elementFromPoint(event.clientX, event.clientY)?.closest('[role="gridcell"]');
  if (target) {
    cursor = { row: Number(target.dataset.row), col: Number(target.dataset.col) };
    place(cursor.row, cursor.col, Number(button.dataset.index));
  }
  setTimeout(() => { dragged = false; }, 0);
});
live.addEventListener("pointercancel", () => {
  if (drag) drag.ghost.remove();
  drag = null;
  dragged = false;
});

// ------------------------------------------------------------ live updates

function tick() {
  const clock = document.getElementById("clock");
  if (!clock) return;
  const skew = Number(clock.dataset.now) - Number(clock.dataset.loaded);
  const left = Math.max(0, Number(clock.dataset.deadline) - (Date.now() / 1000 + skew));
  const h = Math.floor(left / 3600), m = Math.floor((left % 3600) / 60), s = Math.floor(left % 60);
  clock.textContent = h ? `${h} h ${String(m).padStart(2, "0")} min` : `${m}:${String(s).padStart(2, "0")}`;
}

function loaded() {
  const clock = document.getElementById("clock");
  if (clock) clock.dataset.loaded = String(Date.now() / 1000);
  const rack = document.getElementById("rack");
  const key = rack ? rack.dataset.rack : "";
  if (key !== rackKey) {
    pending = [];
    selected = null;
    swapSet = new Set();
    rackKey = key;
    preview();
  }
  draw();
  tick();
}

// The live channel sends the whole live part once ("state", on each (re)connection), then only
// the regions that changed ("patch": elements replaced by id), each numbered: a patch that does
// not follow the version shown means something was missed, and the channel starts afresh.
// EventSource reconnects by itself when a stream ends (the server says after how long); when
// the server refuses it outright (a proxy's error page while moji restarts) it gives up, so the
// page opens a new one, waiting longer each time.
let version = null;
let shown = null;
let backoff = 1000;
let finished = false;

function keepFocus(apply) {
  const focused = document.activeElement;
  const where = focused?.closest?.('[role="gridcell"]') ? "board" : focused?.closest?.(".rtile") ? "rack" : null;
  const tile = focused?.closest?.(".rtile")?.dataset.index;
  apply();
  loaded();
  live.dataset.version = String(Number(live.dataset.version || 0) + 1);
  if (where === "board" && !live.contains(focused)) cellAt(cursor.row, cursor.col)?.focus();
  else if (where === "rack" && !live.contains(focused)) {
    const enabled = rackButtons().filter((b) => !b.disabled);
    (enabled.find((b) => b.dataset.index === tile) || enabled[0])?.focus();
  }
}

function follow() {
  const events = new EventSource(`${base}/events`);
  const end = () => { finished = true; events.close(); };
  events.addEventListener("open", () => { backoff = 1000; });
  events.addEventListener("state", (event) => {
    const data = JSON.parse(event.data);
    version = data.v;
    const view = data.html.replace(/ data-now="[^"]*"/g, ""); // (the server's clock at rendering)
    if (view !== shown) {
      // (the same view again, after a reconnection: replacing it would only take the focus from
      // a player placing tiles by keyboard)
      shown = view;
      keepFocus(() => { live.innerHTML = data.html; });
    }
    if (data.ended) end();
  });
  events.addEventListener("patch", (event) => {
    const data = JSON.parse(event.data);
    if (data.base !== version) {
      events.close(); // a missed update: start afresh (the whole state comes first)
      version = null;
      follow();
      return;
    }
    version = data.v;
    keepFocus(() => {
      for (const [id, html] of Object.entries(data.regions)) {
        const old = document.getElementById(id);
        if (old) old.outerHTML = html;
      }
    });
    shown = null; // (the page is no longer one the server sent whole)
    if (data.ended) end();
  });
  events.addEventListener("gone", (event) => {
    say(JSON.parse(event.data).reason);
    end();
  });
  events.addEventListener("error", () => {
    if (finished || events.readyState !== EventSource.CLOSED) return; // (reconnecting by itself)
    setTimeout(follow, backoff);
    backoff = Math.min(backoff * 2, 30000);
  });
}

controls();
loaded();
setInterval(tick, 1000);
follow();
