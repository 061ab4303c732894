// The game's page: follows the game live, and (for a player) places tiles by dragging (mouse,
// pen or touch: pointer events) or by keyboard, previews the move, and sends it. The server
// judges everything; this script only shows and asks.
import { draggable, gridKeys, live, post, say, start, t, wasDragged, watcher } from "./pick.js";

const previewLine = document.getElementById("preview");

let pending = []; // {row, col, tile, index} placed on the page, not yet played
let selected = null; // rack index of the selected tile
let swapping = false;
let swapSet = new Set();
const cursor = { row: 7, col: 7 }; // (moved in place: pick.js's grid keys move it too)
let rackKey = "";

function board() { return document.getElementById("board"); }
function cellAt(row, col) { return board()?.querySelector(`[data-row="${row}"][data-col="${col}"]`); }
function rackButtons() { return [...document.querySelectorAll("#rack .rtile")]; }
function size() { return Number(board()?.dataset.size || 15); }

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
    cell.setAttribute("aria-label", t("placedByYou", { square: cell.dataset.name, tile: p.tile.toUpperCase() }));
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
    say(t("taken", { square: cell.dataset.name }));
    return;
  }
  let tile = button.dataset.tile;
  if (tile === "?") {
    const letter = (prompt(t("blankWhich")) || "").trim();
    if (!/^\p{L}$/u.test(letter)) {
      say(t("blankOne"));
      return;
    }
    tile = letter.toLowerCase();
  }
  pending.push({ row, col, tile, index });
  selected = null;
  draw();
  say(t("placedOn", { tile: tile.toUpperCase(), square: cell.dataset.name }));
  await preview();
}

function takeBack(row, col) {
  const at = pending.findIndex((p) => p.row === row && p.col === col);
  if (at < 0) return false;
  const [p] = pending.splice(at, 1);
  draw();
  say(t("backOnRack", { tile: p.tile.toUpperCase() }));
  preview();
  return true;
}

async function preview() {
  if (!previewLine) return;
  if (!pending.length) {
    previewLine.textContent = t("boardHint");
    return;
  }
  const { ok, data } = await post("/preview", { tiles: pending.map((p) => [p.row, p.col, p.tile]) });
  if (ok && data.ok) {
    previewLine.textContent = data.said;
  } else {
    previewLine.textContent = data.move ? t("reasonOf", { move: data.move, reason: data.reason }) : (data.reason || t("notYet"));
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
    say(t(action === "place" ? "played" : action === "pass" ? "passed" : action === "swap" ? "swapped" : "resigned"));
  } else {
    say(data.reason || t("refused"), true);
  }
}

function controls() {
  if (watcher) return;
  document.getElementById("play").addEventListener("click", () => {
    if (!pending.length) { say(t("placeFirst")); return; }
    move("place", pending.map((p) => [p.row, p.col, p.tile]));
  });
  document.getElementById("recall").addEventListener("click", () => {
    pending = [];
    draw();
    preview();
    say(t("tilesBack"));
  });
  document.getElementById("pass").addEventListener("click", () => move("pass", []));
  document.getElementById("resign").addEventListener("click", () => {
    if (confirm(t("resignSure"))) move("resign", []);
  });
  const swap = document.getElementById("swap");
  const swapLabel = swap.textContent;
  swap.addEventListener("click", () => {
    if (!swapping) {
      swapping = true;
      pending = [];
      swapSet = new Set();
      selected = null;
      draw();
      swap.textContent = t("swapChosen");
      say(t("swapStart"));
      return;
    }
    const tiles = rackButtons().filter((b) => swapSet.has(Number(b.dataset.index))).map((b) => [0, 0, b.dataset.tile]);
    swap.textContent = swapLabel;
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
    say(t("selectedBoard", { tile: button.getAttribute("aria-label") }));
    cellAt(cursor.row, cursor.col)?.focus();
  }
}

live.addEventListener("click", (event) => {
  const button = event.target.closest(".rtile");
  if (button && !button.disabled && !wasDragged()) {
    select(Number(button.dataset.index));
    return;
  }
  const cell = event.target.closest('[role="gridcell"]');
  if (cell && !watcher) {
    const row = Number(cell.dataset.row), col = Number(cell.dataset.col);
    Object.assign(cursor, { row, col });
    roving();
    if (selected !== null) place(row, col, selected);
    else takeBack(row, col);
  }
});

gridKeys('#board [role="gridcell"]', cursor, size, {
  enter() {
    if (watcher) return;
    if (selected !== null) {
      // the tile is placed at once (its preview comes later): the focus moves on now, so a
      // quick player's next keys are never taken back by a slow preview
      place(cursor.row, cursor.col, selected);
      const next = rackButtons().find((b) => !b.disabled);
      (next || cellAt(cursor.row, cursor.col))?.focus();
    } else if (!takeBack(cursor.row, cursor.col)) {
      say(t("selectFirst"));
    }
  },
  back() {
    takeBack(cursor.row, cursor.col);
  },
  escape() {
    selected = null;
    draw();
    rackButtons().find((b) => !b.disabled)?.focus();
  },
});

// Dragging (pick.js: pointer events serve mouse, pen and touch alike): a rack tile onto a square.
draggable(".rtile", (button, target) => {
  if (swapping) return;
  Object.assign(cursor, { row: Number(target.dataset.row), col: Number(target.dataset.col) });
  place(cursor.row, cursor.col, Number(button.dataset.index));
}, '[role="gridcell"]');

// ------------------------------------------------------------ live updates

function loaded() {
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
}

// (the live channel: pick.js's ``follow``) A player placing tiles by keyboard keeps their place:
// on the board at the cursor, or on the rack on the same tile (or the first one left).
function keepFocus(apply) {
  const focused = document.activeElement;
  const where = focused?.closest?.('[role="gridcell"]') ? "board" : focused?.closest?.(".rtile") ? "rack" : null;
  const tile = focused?.closest?.(".rtile")?.dataset.index;
  apply();
  if (where === "board" && !live.contains(focused)) cellAt(cursor.row, cursor.col)?.focus();
  else if (where === "rack" && !live.contains(focused)) {
    const enabled = rackButtons().filter((b) => !b.disabled);
    (enabled.find((b) => b.dataset.index === tile) || enabled[0])?.focus();
  }
}

controls();
start(loaded, keepFocus);
