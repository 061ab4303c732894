// Mark My Words' page: one tile placed on the grid (dragged, or by keyboard), the words it
// makes named by the player and judged by the game's preview, and the moves the rules allow;
// or tiles of the Free Letter Pile placed the same way, for the one word they make.
// The server judges everything; this script only shows and asks.
import { cellAt, draggable, gridKeys, live, move, preview, roving, say, start, wasDragged, watcher } from "./pick.js";

const CELLS = '#board [role="gridcell"]';
const cursor = { row: 0, col: 0 };
let selected = null; // the selected rack tile: {index, tile} ("?" a blank)
let placed = null; // the tile placed on the page, not yet played: {row, col, index, tile}
let free = []; // tiles of the Free Letter Pile placed on the page: [{row, col, index, tile}]
let rackKey = null;

const words = document.getElementById("words");
const previewLine = document.getElementById("preview");
function tiles() { return [...document.querySelectorAll("#rack .rtile")]; }
function size() { return Number(document.getElementById("board")?.dataset.size || 12); }
function pileTiles() { return [...document.querySelectorAll("#pile .ptile")]; }
function isPile(index) { return String(index).startsWith("p"); }
function tileButton(index) {
  return (isPile(index) ? pileTiles() : tiles()).find((b) => b.dataset.index === String(index));
}
function nameOf(spot) { return cellAt(spot)?.dataset.name || ""; }
function freeAt(row, col) { return free.findIndex((f) => f.row === row && f.col === col); }

function draw() {
  for (const cell of document.querySelectorAll(`${CELLS}[data-pending]`)) {
    cell.removeAttribute("data-pending");
    cell.classList.remove("pending");
    cell.setAttribute("aria-label", cell.dataset.label0);
    cell.querySelector(".pend")?.remove();
  }
  for (const spot of placed ? [placed, ...free] : free) {
    const cell = cellAt(spot);
    if (!cell) continue;
    cell.dataset.label0 = cell.dataset.label0 || cell.getAttribute("aria-label");
    cell.dataset.pending = "yes";
    cell.classList.add("pending");
    const span = document.createElement("span");
    span.className = "pend";
    span.textContent = spot.tile === "?" ? "" : spot.tile;
    cell.appendChild(span);
    const what = spot.tile === "?" ? "your blank tile" : isPile(spot.index) ? `${spot.tile} from the Free Letter Pile` : spot.tile;
    cell.setAttribute("aria-label", `${cell.dataset.name}, ${what}, placed by you`);
  }
  for (const button of [...tiles(), ...pileTiles()]) {
    const index = button.dataset.index;
    button.disabled = (placed !== null && placed.index === index) || free.some((f) => f.index === index);
    button.setAttribute("aria-pressed", String(selected !== null && selected.index === index));
  }
  roving(CELLS, cursor);
}

function body(action) {
  const out = { action, words: words ? words.value : "" };
  if (action === "free") out.tiles = free.map((f) => [f.row, f.col, f.tile]);
  else if (placed) Object.assign(out, { row: placed.row, col: placed.col, letter: placed.tile === "?" ? "" : placed.tile });
  return out;
}

async function showPreview() {
  if (!previewLine) return;
  if (free.length) {
    const list = free.map((f) => `${f.tile} on ${nameOf(f)}`).join(", ");
    previewLine.textContent = `Free tiles: ${list}. Type the one new word they make, then press Take free tiles.`;
    return;
  }
  if (!placed) {
    previewLine.textContent = "Place a tile on the grid and name the new words it makes.";
    return;
  }
  if (placed.tile === "?") {
    previewLine.textContent = `Your blank tile on ${cellAt(placed)?.dataset.name}: press Play to place it.`;
    return;
  }
  const data = await preview(body("place"));
  if (!data) return;
  const judged = (data.words || []).map(([w, points, why]) => (why ? `${w}: ${why}` : `${w} ✓ ${points}`));
  const head = data.move ? `${data.move}: ` : "";
  if (data.ok && !judged.length) {
    previewLine.textContent = `${head}a tile on its own needs no word here.`;
    return;
  }
  const total = data.ok ? ` = ${data.score} point${data.score === 1 ? "" : "s"}.` : "";
  previewLine.textContent = head + [...judged, data.reason || ""].filter(Boolean).join("; ") + total;
}

function place(row, col, index) {
  const button = tileButton(index);
  const cell = cellAt({ row, col });
  if (!button || !cell) return;
  const tile = button.dataset.tile;
  const taken = cell.dataset.letter && cell.dataset.blank !== "yes";
  const mine = freeAt(row, col) >= 0 || (placed && placed.row === row && placed.col === col);
  if (taken || mine || (tile === "?" && cell.dataset.blank === "yes")) {
    say(`${cell.dataset.name} is taken.`);
    return;
  }
  if (isPile(button.dataset.index)) { // a free tile: its square must be empty, and it goes first
    if (cell.dataset.blank === "yes") { say(`A free tile needs an empty square: ${cell.dataset.name} holds a blank tile.`); return; }
    if (placed) { say("Free tiles come before your own move: take your tile back first."); return; }
    free.push({ row, col, index: button.dataset.index, tile });
    selected = null;
    cursor.row = row;
    cursor.col = col;
    draw();
    say(`${tile} from the Free Letter Pile placed on ${cell.dataset.name}.`);
    showPreview();
    return;
  }
  if (free.length) { say("Take your free tiles first (Take free tiles), or take them back."); return; }
  placed = { row, col, index: button.dataset.index, tile };
  selected = null;
  cursor.row = row;
  cursor.col = col;
  draw();
  say(`${tile === "?" ? "Your blank tile" : tile} placed on ${cell.dataset.name}.`);
  showPreview();
}

function takeBack() {
  if (free.length) {
    free = [];
    draw();
    showPreview();
    say("The free tiles are back on the pile.");
    return true;
  }
  if (!placed) return false;
  placed = null;
  draw();
  showPreview();
  say("Your tile is back on your rack.");
  return true;
}

// A square holding a tile placed on the page (and not yet played): that tile comes back.
function takeBackAt(row, col) {
  const at = freeAt(row, col);
  if (at >= 0) {
    const [back] = free.splice(at, 1);
    draw();
    showPreview();
    say(`${back.tile} is back on the Free Letter Pile.`);
    return true;
  }
  return placed && placed.row === row && placed.col === col ? takeBack() : false;
}

function select(index) {
  selected = selected && selected.index === index ? null : { index, tile: tileButton(index).dataset.tile };
  draw();
  if (selected) {
    say(`${tileButton(index).getAttribute("aria-label")} selected: move on the grid with the arrow keys and press Enter to place it.`);
    cellAt(cursor)?.focus();
  }
}

async function send(action, done) {
  if (await move(body(action), done)) {
    placed = null;
    free = [];
    selected = null;
    if (words) words.value = "";
    draw();
    showPreview();
  }
}

function controls() {
  if (watcher) return;
  document.getElementById("play").addEventListener("click", () => {
    if (!placed) { say("Place a tile on the grid first."); return; }
    send(placed.tile === "?" ? "blank" : "place", "Played.");
  });
  document.getElementById("recall").addEventListener("click", takeBack);
  document.getElementById("free")?.addEventListener("click", () => {
    if (!free.length) { say("Place tiles of the Free Letter Pile on the grid first."); return; }
    if (!words.value.trim()) { say("Type the one new word your free tiles make."); words.focus(); return; }
    send("free", "You took the free tiles: now your regular move.");
  });
  document.getElementById("pass").addEventListener("click", () => send("pass", "You passed."));
  document.getElementById("knock")?.addEventListener("click", () => {
    if (!words.value.trim()) { say("Type the new words you found, then press Knock."); words.focus(); return; }
    send("knock", "Knocked.");
  });
  document.getElementById("discard").addEventListener("click", () => {
    const tile = selected?.tile || placed?.tile;
    if (!tile || tile === "?") { say("Select the letter to discard on your rack first."); return; }
    move({ action: "discard", letter: tile }, `${tile} is on the Free Letter Pile.`).then((ok) => {
      if (ok) { placed = null; selected = null; draw(); showPreview(); }
    });
  });
  words.addEventListener("input", showPreview);
  words.addEventListener("keydown", (event) => {
    if (event.key === "Enter") {
      event.preventDefault();
      document.getElementById(free.length ? "free" : "play").click();
    }
  });
}

live.addEventListener("click", (event) => {
  const button = event.target.closest("button.rtile, button.ptile");
  if (button && !button.disabled && !wasDragged()) {
    select(button.dataset.index);
    return;
  }
  const cell = event.target.closest(CELLS);
  if (cell && !watcher) {
    cursor.row = Number(cell.dataset.row);
    cursor.col = Number(cell.dataset.col);
    if (selected) place(cursor.row, cursor.col, selected.index);
    else takeBackAt(cursor.row, cursor.col);
    roving(CELLS, cursor);
  }
});

gridKeys(CELLS, cursor, size, {
  enter() {
    if (watcher) return;
    if (selected) {
      const wasPile = isPile(selected.index);
      place(cursor.row, cursor.col, selected.index);
      if (placed && !wasPile) (words || cellAt(cursor))?.focus();
    } else if (!takeBackAt(cursor.row, cursor.col)) {
      say("Select a tile on your rack (or on the Free Letter Pile) first.");
    }
  },
  back() {
    takeBackAt(cursor.row, cursor.col);
  },
  escape() {
    selected = null;
    draw();
    tiles().find((b) => !b.disabled)?.focus();
  },
});

draggable("button.rtile, button.ptile", (source, target) => {
  if (target.dataset.drop !== "cell") return;
  place(Number(target.dataset.row), Number(target.dataset.col), source.dataset.index);
});

function loaded() {
  const rack = document.getElementById("rack");
  const pile = document.getElementById("pile");
  const key = `${rack ? rack.dataset.rack : ""}/${pile ? pile.dataset.pile : ""}`;
  if (key !== rackKey) { // the rack or the pile changed (a move was played): start afresh
    placed = null;
    free = [];
    selected = null;
    rackKey = key;
    showPreview();
  }
  if (rackKey === null || !cellAt(cursor)) {
    cursor.row = Math.floor(size() / 2);
    cursor.col = Math.floor(size() / 2);
  }
  draw();
}

const middle = Math.floor(size() / 2);
cursor.row = middle;
cursor.col = middle;
controls();
start(loaded);
