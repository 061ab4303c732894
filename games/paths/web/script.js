// Mark My Words' page: one tile placed on the grid (dragged, or by keyboard), the words it
// makes named by the player and judged by the game's preview, and the moves the rules allow;
// or tiles of the Free Letter Pile placed the same way, for the one word they make.
// The server judges everything; this script only shows and asks.
import { cellAt, draggable, gridKeys, live, move, preview, roving, say, start, wasDragged, watcher } from "./pick.js";
import { t } from "./messages.js";

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
    const what = spot.tile === "?" ? t("yourBlankTile") : isPile(spot.index) ? t("fromPile", { tile: spot.tile }) : spot.tile;
    cell.setAttribute("aria-label", t("placedByYou", { square: cell.dataset.name, tile: what }));
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
    const list = free.map((f) => t("freeOn", { tile: f.tile, square: nameOf(f) })).join(", ");
    previewLine.textContent = t("freeHint", { tiles: list });
    return;
  }
  if (!placed) {
    previewLine.textContent = t("gridHint");
    return;
  }
  if (placed.tile === "?") {
    previewLine.textContent = t("blankOn", { square: cellAt(placed)?.dataset.name });
    return;
  }
  const data = await preview(body("place"));
  if (!data) return;
  const judged = (data.words || []).map(([w, points, why]) => (why ? t("wordWhy", { word: w, reason: why }) : t("wordOk", { word: w, points })));
  const head = (text) => (data.move ? t("reasonOf", { move: data.move, reason: text }) : text);
  if (data.ok && !judged.length) {
    previewLine.textContent = head(t("aloneNoWord"));
    return;
  }
  const total = data.ok ? ` = ${data.points}.` : "";
  previewLine.textContent = head([...judged, data.reason || ""].filter(Boolean).join("; ") + total);
}

function place(row, col, index) {
  const button = tileButton(index);
  const cell = cellAt({ row, col });
  if (!button || !cell) return;
  const tile = button.dataset.tile;
  const taken = cell.dataset.letter && cell.dataset.blank !== "yes";
  const mine = freeAt(row, col) >= 0 || (placed && placed.row === row && placed.col === col);
  if (taken || mine || (tile === "?" && cell.dataset.blank === "yes")) {
    say(t("taken", { square: cell.dataset.name }));
    return;
  }
  if (isPile(button.dataset.index)) { // a free tile: its square must be empty, and it goes first
    if (cell.dataset.blank === "yes") { say(t("freeNeedsEmpty", { square: cell.dataset.name })); return; }
    if (placed) { say(t("freeBefore")); return; }
    free.push({ row, col, index: button.dataset.index, tile });
    selected = null;
    cursor.row = row;
    cursor.col = col;
    draw();
    say(t("pilePlaced", { tile, square: cell.dataset.name }));
    showPreview();
    return;
  }
  if (free.length) { say(t("freeFirst")); return; }
  placed = { row, col, index: button.dataset.index, tile };
  selected = null;
  cursor.row = row;
  cursor.col = col;
  draw();
  say(tile === "?" ? t("blankPlaced", { square: cell.dataset.name }) : t("placedOn", { tile, square: cell.dataset.name }));
  showPreview();
}

function takeBack() {
  if (free.length) {
    free = [];
    draw();
    showPreview();
    say(t("freeBack"));
    return true;
  }
  if (!placed) return false;
  placed = null;
  draw();
  showPreview();
  say(t("tileBack"));
  return true;
}

// A square holding a tile placed on the page (and not yet played): that tile comes back.
function takeBackAt(row, col) {
  const at = freeAt(row, col);
  if (at >= 0) {
    const [back] = free.splice(at, 1);
    draw();
    showPreview();
    say(t("backOnPile", { tile: back.tile }));
    return true;
  }
  return placed && placed.row === row && placed.col === col ? takeBack() : false;
}

function select(index) {
  selected = selected && selected.index === index ? null : { index, tile: tileButton(index).dataset.tile };
  draw();
  if (selected) {
    say(t("selectedGrid", { tile: tileButton(index).getAttribute("aria-label") }));
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
    if (!placed) { say(t("gridFirst")); return; }
    send(placed.tile === "?" ? "blank" : "place", t("played"));
  });
  document.getElementById("recall").addEventListener("click", takeBack);
  document.getElementById("free")?.addEventListener("click", () => {
    if (!free.length) { say(t("pileFirst")); return; }
    if (!words.value.trim()) { say(t("typeFreeWord")); words.focus(); return; }
    send("free", t("tookFree"));
  });
  document.getElementById("pass").addEventListener("click", () => send("pass", t("passed")));
  document.getElementById("knock")?.addEventListener("click", () => {
    if (!words.value.trim()) { say(t("typeKnock")); words.focus(); return; }
    send("knock", t("knocked"));
  });
  document.getElementById("discard").addEventListener("click", () => {
    const tile = selected?.tile || placed?.tile;
    if (!tile || tile === "?") { say(t("discardFirst")); return; }
    move({ action: "discard", letter: tile }, t("onPile", { tile })).then((ok) => {
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
      say(t("selectOrPile"));
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
