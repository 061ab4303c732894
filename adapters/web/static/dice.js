// Letter dice's page: a word built from the rolled dice and one letter of the word to cross
// (dragged, or by keyboard), fitted and scored by the game's preview; challenge, accept and
// concede. The server judges everything; this script only shows and asks.
import { draggable, live, move, preview, say, start, wasDragged, watcher } from "./pick.js";

let built = []; // [{kind: "die"|"mat", index, letter, blank}] in spelling order
let rollKey = null;

const buildArea = document.getElementById("build");
const previewLine = document.getElementById("preview");

function word() { return built.map((b) => (b.blank ? b.letter.toLowerCase() : b.letter)).join(""); }

function body() {
  const out = { action: "word", word: word() };
  const at = built.findIndex((b) => b.kind === "mat");
  if (at >= 0) Object.assign(out, { cross: at + 1, prev: built[at].index + 1 });
  return out;
}

function draw() {
  if (watcher) return;
  const dice = new Set(built.filter((b) => b.kind === "die").map((b) => String(b.index)));
  const mat = built.find((b) => b.kind === "mat");
  for (const die of document.querySelectorAll("#roll .die")) die.disabled = dice.has(die.dataset.index);
  for (const letter of document.querySelectorAll("#mat .die")) {
    letter.setAttribute("aria-pressed", String(mat !== undefined && String(mat.index) === letter.dataset.index));
  }
  buildArea.replaceChildren(
    ...built.map((b, at) => {
      const button = document.createElement("button");
      button.type = "button";
      button.className = `card die${b.kind === "mat" ? " mat" : ""}`;
      button.id = `built-${at}`;
      button.dataset.at = String(at);
      button.textContent = b.blank ? b.letter.toLowerCase() : b.letter;
      const what = b.kind === "mat" ? `${b.letter} of the word to cross` : b.blank ? `blank as ${b.letter}` : b.letter;
      button.setAttribute("aria-label", `${what}, letter ${at + 1} of your word: press to take it back`);
      return button;
    }),
  );
}

async function showPreview() {
  if (!previewLine) return;
  if (!built.length) {
    previewLine.textContent = "Choose dice (and one letter of the word to cross) to build your word.";
    return;
  }
  const data = await preview(body());
  if (!data) return;
  previewLine.textContent = data.ok
    ? `${data.move}: ${data.shown} for ${data.score} point${data.score === 1 ? "" : "s"}.`
    : `${word().toUpperCase()}: ${data.reason}`;
}

function addDie(button) {
  if (!button || button.disabled) return;
  let letter = button.dataset.letter;
  const blank = !letter;
  if (blank) {
    letter = (prompt("Which letter does the blank stand for?") || "").trim().toUpperCase();
    if (!/^\p{L}$/u.test(letter)) { say("A blank stands for one letter."); return; }
  }
  built.push({ kind: "die", index: Number(button.dataset.index), letter, blank });
  changed(`${blank ? `Blank as ${letter}` : letter} added: ${word().toUpperCase()}.`);
}

function addMat(button) {
  const at = built.findIndex((b) => b.kind === "mat");
  if (at >= 0) {
    const same = String(built[at].index) === button.dataset.index;
    built.splice(at, 1);
    if (same) { changed(`${button.dataset.letter} of the word to cross left out.`); return; }
  }
  built.push({ kind: "mat", index: Number(button.dataset.index), letter: button.dataset.letter, blank: false });
  changed(`${button.dataset.letter} of the word to cross added: ${word().toUpperCase()}.`);
}

function changed(text) {
  draw();
  say(text);
  showPreview();
}

function reset() {
  built = [];
  draw();
  showPreview();
}

function controls() {
  if (watcher) return;
  document.getElementById("play").addEventListener("click", async () => {
    if (!built.length) { say("Build a word from the dice first."); return; }
    if (await move(body(), "Played.")) reset();
  });
  document.getElementById("clear").addEventListener("click", () => { reset(); say("Your word is cleared."); });
  document.getElementById("challenge").addEventListener("click", () => move({ action: "challenge" }, "You challenged."));
  document.getElementById("accept").addEventListener("click", () => move({ action: "accept" }, "You accepted the last word."));
  document.getElementById("concede").addEventListener("click", () => {
    if (confirm("Concede this game? You lose it.")) move({ action: "concede" }, "You conceded.");
  });
  buildArea.addEventListener("click", (event) => {
    const b = event.target.closest(".card");
    if (!b) return;
    const at = Number(b.dataset.at);
    const [gone] = built.splice(at, 1);
    changed(`${gone.letter} taken back.`);
    (document.getElementById(`built-${Math.min(at, built.length - 1)}`) || document.querySelector("#roll .die:not([disabled])"))?.focus();
  });
}

live.addEventListener("click", (event) => {
  if (watcher || wasDragged()) return;
  const die = event.target.closest(".die");
  if (!die) return;
  if (die.closest("#mat")) addMat(die);
  else addDie(die);
});

draggable("button.die", (source, target) => {
  if (watcher || target.dataset.drop !== "build") return;
  if (source.closest("#mat")) addMat(source);
  else addDie(source);
});

function loaded() {
  const key = `${document.getElementById("roll")?.dataset.roll}|${document.getElementById("mat")?.dataset.mat}`;
  if (key !== rollKey) { // a new roll: start afresh
    rollKey = key;
    if (!watcher) reset();
  }
  draw();
}

controls();
start(loaded);
