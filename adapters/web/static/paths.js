// Mark My Words' page: one tile placed on the grid (dragged, or by keyboard), the words it
// makes named by the player and judged by the game's preview, and the moves the rules allow.
// The server judges everything; this script only shows and asks.
import { cellAt, draggable, gridKeys, live, move, preview, roving, say, start, wasDragged, watcher } from "./pick.js";

const CELLS = '#board [role="gridcell"]';
const cursor = { row: 0, col: 0 };
let selected = null; // the selected rack tile: {index, tile} ("?" a blank)
let placed = null; // the tile placed on the page, not yet played: {row, col, index, tile}
let rackKey = null;

const words = document.getElementById("words");
const previewLine = document.getElementById("preview");
function tiles() { return [...document.querySelectorAll("#rack .rtile")]; }
function size() { return Number(document.getElementById("board")?.dataset.size || 12); }
function tileButton(index) { return tiles().find((b) => b.dataset.index === String(index)); }

function draw() {
  for (const cell of document.querySelectorAll(`${CELLS}[data-pending]`)) {
    cell.removeAttribute("data-pending");
    cell.classList.remove("pending");
    cell.setAttribute("aria-label", cell.dataset.label0);
    cell.querySelector(".pend")?.remove();
  }
  if (placed) {
    const cell = cellAt(placed);
    if (cell) {
      cell.dataset.label0 = cell.dataset.label0 || cell.getAttribute("aria-label");
      cell.dataset.pending = "yes";
      cell.classList.add("pending");
      const span = document.createElement("span");
      span.className = "pend";
      span.textContent = placed.tile === "?" ? "" : placed.tile;
      cell.appendChild(span);
      const what = placed.tile === "?" ? "your blank tile" : placed.tile;
      cell.setAttribute("aria-label", `${cell.dataset.name}, ${what}, placed by you`);
    }
  }
  for (const button of tiles()) {
    button.disabled = placed !== null && placed.index === button.dataset.index;
    button.setAttribute("aria-pressed", String(selected !== null && selected.index === button.dataset.index));
  }
  roving(CELLS, cursor);
}

function body(action) {
  const out = { action, words: words ? words.value : "" };
  if (placed) Object.assign(out, { row: placed.row, col: placed.col, letter: placed.tile === "?" ? "" : placed.tile });
  return out;
}

async function showPreview() {
  if (!previewLine) return;
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
  if (taken || (tile === "?" && cell.dataset.blank === "yes")) {
    say(`${cell.dataset.name} is taken.`);
    return;
  }
  placed = { row, col, index: button.dataset.index, tile };
  selected = null;
  cursor.row = row;
  cursor.col = col;
  draw();
  say(`${tile === "?" ? "Your blank tile" : tile} placed on ${cell.dataset.name}.`);
  showPreview();
}

function takeBack() {
  if (!placed) return false;
  placed = null;
  draw();
  showPreview();
  say("Your tile is back on your rack.");
  return true;
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
      document.getElementById("play").click();
    }
  });
}

live.addEventListener("click", (event) => {
  const button = event.target.closest(".rtile");
  if (button && !button.disabled && !wasDragged()) {
    select(button.dataset.index);
    return;
  }
  const cell = event.target.closest(CELLS);
  if (cell && !watcher) {
    cursor.row = Number(cell.dataset.row);
    cursor.col = Number(cell.dataset.col);
    if (selected) place(cursor.row, cursor.col, selected.index);
    else if (placed && placed.row === cursor.row && placed.col === cursor.col) takeBack();
    roving(CELLS, cursor);
  }
});

gridKeys(CELLS, cursor, size, {
  enter() {
    if (watcher) return;
    if (selected) {
      place(cursor.row, cursor.col, selected.index);
      if (placed) (words || cellAt(cursor))?.focus();
    } else if (!(placed && placed.row === cursor.row && placed.col === cursor.col && takeBack())) {
      say("Select a tile on your rack first.");
    }
  },
  back() {
    if (placed && placed.row === cursor.row && placed.col === cursor.col) takeBack();
  },
  escape() {
    selected = null;
    draw();
    tiles().find((b) => !b.disabled)?.focus();
  },
});

draggable(".rtile", (source, target) => {
  if (target.dataset.drop !== "cell") return;
  place(Number(target.dataset.row), Number(target.dataset.col), source.dataset.index);
});

function loaded() {
  const rack = document.getElementById("rack");
  const key = rack ? rack.dataset.rack : "";
  if (key !== rackKey) { // the rack changed (a move was played): start afresh
    placed = null;
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
