// Letter dice's page: a word built from the rolled dice and one letter of the word to cross
// (dragged, or by keyboard), fitted and scored by the game's preview; challenge, accept and
// concede. The server judges everything; this script only shows and asks.
import { draggable, live, move, preview, say, start, wasDragged, watcher } from "./pick.js";
import { t } from "./messages.js";

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
      const what = b.kind === "mat" ? t("ofCross", { letter: b.letter }) : b.blank ? t("blankAs", { letter: b.letter }) : b.letter;
      button.setAttribute("aria-label", t("dieInWord", { die: what, position: at + 1 }));
      return button;
    }),
  );
}

async function showPreview() {
  if (!previewLine) return;
  if (!built.length) {
    previewLine.textContent = t("diceHint");
    return;
  }
  const data = await preview(body());
  if (!data) return;
  previewLine.textContent = data.ok
    ? t("diceFor", { move: data.move, word: data.shown, points: data.points })
    : t("reasonOf", { move: word().toUpperCase(), reason: data.reason });
}

function addDie(button) {
  if (!button || button.disabled) return;
  let letter = button.dataset.letter;
  const blank = !letter;
  if (blank) {
    letter = (prompt(t("blankWhich")) || "").trim().toUpperCase();
    if (!/^\p{L}$/u.test(letter)) { say(t("blankOne")); return; }
  }
  built.push({ kind: "die", index: Number(button.dataset.index), letter, blank });
  changed(t(blank ? "blankAdded" : "added", { letter, word: word().toUpperCase() }));
}

function addMat(button) {
  const at = built.findIndex((b) => b.kind === "mat");
  if (at >= 0) {
    const same = String(built[at].index) === button.dataset.index;
    built.splice(at, 1);
    if (same) { changed(t("crossOut", { letter: button.dataset.letter })); return; }
  }
  built.push({ kind: "mat", index: Number(button.dataset.index), letter: button.dataset.letter, blank: false });
  changed(t("crossAdded", { letter: button.dataset.letter, word: word().toUpperCase() }));
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
    if (!built.length) { say(t("diceFirst")); return; }
    if (await move(body(), t("played"))) reset();
  });
  document.getElementById("clear").addEventListener("click", () => { reset(); say(t("wordCleared")); });
  document.getElementById("challenge").addEventListener("click", () => move({ action: "challenge" }, t("challenged")));
  document.getElementById("accept").addEventListener("click", () => move({ action: "accept" }, t("accepted")));
  document.getElementById("concede").addEventListener("click", () => {
    if (confirm(t("concedeSure"))) move({ action: "concede" }, t("conceded"));
  });
  buildArea.addEventListener("click", (event) => {
    const b = event.target.closest(".card");
    if (!b) return;
    const at = Number(b.dataset.at);
    const [gone] = built.splice(at, 1);
    changed(t("takenBack", { letter: gone.letter }));
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
