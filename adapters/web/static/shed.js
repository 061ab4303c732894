// Shed's page: a word built from the hand's cards (dragged, or by keyboard), alone or with
// table words, an action card aimed at an opponent, or a draw; every line is previewed by the
// game before it is played. The server judges everything; this script only shows and asks.
import { draggable, live, move, preview, say, start, wasDragged, watcher } from "./pick.js";

let built = []; // [{index, letter, joker}] in spelling order
let sources = new Set(); // table word numbers used
let aiming = null; // the action card being aimed: {action, name}
let handKey = null;

const buildArea = document.getElementById("build");
const results = document.getElementById("results");
const previewLine = document.getElementById("preview");
function card(index) { return document.getElementById(`card-${index}`); }
function spelled() { return built.map((c) => (c.joker ? `*${c.letter}` : c.letter)); }

function draw() {
  if (watcher) return;
  const used = new Set(built.map((c) => String(c.index)));
  for (const button of document.querySelectorAll("#hand .card")) button.disabled = used.has(button.dataset.index);
  for (const word of document.querySelectorAll("#table .tword")) {
    word.setAttribute("aria-pressed", String(sources.has(Number(word.dataset.number))));
  }
  buildArea.replaceChildren(
    ...built.map((c, at) => {
      const b = document.createElement("button");
      b.type = "button";
      b.className = `card ${c.joker ? "joker" : "built"}`;
      b.id = `built-${at}`;
      b.dataset.at = String(at);
      b.textContent = c.joker ? c.letter.toLowerCase() : c.letter;
      b.setAttribute("aria-label", `${c.joker ? `joker as ${c.letter}` : c.letter} in your word, letter ${at + 1}: press to take it back`);
      return b;
    }),
  );
}

function body() {
  return { action: "word", cards: spelled(), sources: [...sources].sort((a, b) => a - b), results: results.value };
}

async function showPreview() {
  if (!previewLine) return;
  if (!built.length && !sources.size) {
    previewLine.textContent = "Choose cards from your hand to build a word.";
    return;
  }
  if (sources.size && !results.value.trim()) {
    previewLine.textContent = "Type the words the table words and your cards make.";
    return;
  }
  const data = await preview(body());
  if (!data) return;
  const line = data.move ? `${data.move}: ` : "";
  previewLine.textContent = line + (data.ok ? data.said : data.reason || "Not a move yet.");
}

function add(index) {
  const button = card(index);
  if (!button || button.disabled || button.dataset.kind === "action") return;
  let letter = button.dataset.letter;
  const joker = button.dataset.kind === "joker";
  if (joker) {
    letter = (prompt("Which letter does the joker play?") || "").trim().toUpperCase();
    if (!/^\p{L}$/u.test(letter)) { say("A joker plays one letter."); return; }
  }
  built.push({ index: Number(index), letter, joker });
  draw();
  say(`${joker ? `Joker as ${letter}` : letter} added: ${spelled().join("").toUpperCase()}.`);
  showPreview();
}

function takeBack(at) {
  const [c] = built.splice(at, 1);
  draw();
  say(`${c.letter} back in your hand.`);
  showPreview();
  (document.getElementById(`built-${Math.min(at, built.length - 1)}`) || card(c.index))?.focus();
}

function toggleSource(number) {
  if (sources.has(number)) sources.delete(number); else sources.add(number);
  draw();
  say(sources.has(number) ? `Table word ${number} is in your move: type the words it makes.` : `Table word ${number} left out.`);
  showPreview();
}

function reset() {
  built = [];
  sources = new Set();
  if (results) results.value = "";
  draw();
  showPreview();
}

function aim(button) {
  aiming = { action: button.dataset.action, name: button.dataset.name };
  const panel = document.getElementById("aim");
  document.getElementById("aim-title").textContent = `${button.getAttribute("aria-label")}.`;
  const target = document.getElementById("target");
  const opponents = [...document.querySelectorAll("#opponents li")];
  target.replaceChildren(...opponents.map((li) => new Option(li.textContent, li.dataset.number)));
  document.getElementById("aim-target").hidden = aiming.action === "all-draw-two" || aiming.action === "deck-trade";
  const give = document.getElementById("give");
  const cards = [...document.querySelectorAll("#hand .card")];
  give.replaceChildren(
    ...cards.map((c) => new Option(c.dataset.kind === "joker" ? "joker" : c.dataset.letter, c.dataset.kind === "joker" ? "*" : c.dataset.letter)),
  );
  document.getElementById("aim-give").hidden = !aiming.action.includes("trade");
  panel.hidden = false;
  const first = [...panel.querySelectorAll("select")].find((s) => !s.closest("p").hidden);
  (first || document.getElementById("act")).focus();
}

function controls() {
  if (watcher) return;
  document.getElementById("play").addEventListener("click", async () => {
    if (!built.length && !sources.size) { say("Build a word from your cards first."); return; }
    if (await move(body(), "Played.")) reset();
  });
  document.getElementById("clear").addEventListener("click", () => { reset(); say("Your cards are back in your hand."); });
  document.getElementById("draw").addEventListener("click", async () => {
    if (await move({ action: "draw" }, "You drew a card.")) reset();
  });
  document.getElementById("act").addEventListener("click", async () => {
    if (!aiming) return;
    const target = Number(document.getElementById("target").value || 0);
    const give = document.getElementById("give").value;
    const ok = await move({ action: "card", card: aiming.action, target, give }, `${aiming.name} played.`);
    if (ok) {
      aiming = null;
      document.getElementById("aim").hidden = true;
      reset();
    }
  });
  document.getElementById("unaim").addEventListener("click", () => {
    aiming = null;
    document.getElementById("aim").hidden = true;
  });
  results.addEventListener("input", showPreview);
  results.addEventListener("keydown", (event) => {
    if (event.key === "Enter") { event.preventDefault(); document.getElementById("play").click(); }
  });
  buildArea.addEventListener("click", (event) => {
    const b = event.target.closest(".card");
    if (b) takeBack(Number(b.dataset.at));
  });
}

live.addEventListener("click", (event) => {
  if (watcher || wasDragged()) return;
  const c = event.target.closest(".card");
  if (c && !c.disabled) {
    if (c.dataset.kind === "action") aim(c);
    else add(c.dataset.index);
    return;
  }
  const word = event.target.closest(".tword");
  if (word) toggleSource(Number(word.dataset.number));
});

draggable("#hand .card", (source, target) => {
  if (target.dataset.drop === "table" && !sources.has(Number(target.dataset.number))) toggleSource(Number(target.dataset.number));
  if (target.dataset.drop === "build" || target.dataset.drop === "table") add(source.dataset.index);
});

function loaded() {
  const hand = document.getElementById("hand");
  const key = hand ? hand.dataset.hand : "";
  const table = [...document.querySelectorAll("#table .tword")].map((w) => w.dataset.word).join(" ");
  if (key + "|" + table !== handKey) { // the hand or the table changed: start afresh
    handKey = key + "|" + table;
    if (!watcher) reset();
  }
  draw();
}

controls();
start(loaded);
