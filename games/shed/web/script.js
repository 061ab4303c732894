// Shed's page: a word built from the hand's cards (dragged, or by keyboard), alone or with
// table words, an action card aimed at an opponent, or a draw; every line is previewed by the
// game before it is played. The server judges everything; this script only shows and asks.
import { draggable, live, move, preview, say, start, wasDragged, watcher } from "./pick.js";
import { t } from "./messages.js";

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
      b.setAttribute("aria-label", t("inWord", { card: c.joker ? t("jokerAs", { letter: c.letter }) : c.letter, position: at + 1 }));
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
    previewLine.textContent = t("handHint");
    return;
  }
  if (sources.size && !results.value.trim()) {
    previewLine.textContent = t("typeResults");
    return;
  }
  const data = await preview(body());
  if (!data) return;
  const said = data.ok ? data.said : data.reason || t("notYet");
  previewLine.textContent = data.move ? t("reasonOf", { move: data.move, reason: said }) : said;
}

function add(index) {
  const button = card(index);
  if (!button || button.disabled || button.dataset.kind === "action") return;
  let letter = button.dataset.letter;
  const joker = button.dataset.kind === "joker";
  if (joker) {
    letter = (prompt(t("jokerWhich")) || "").trim().toUpperCase();
    if (!/^\p{L}$/u.test(letter)) { say(t("jokerOne")); return; }
  }
  built.push({ index: Number(index), letter, joker });
  draw();
  say(t(joker ? "jokerAdded" : "added", { letter, word: spelled().join("").toUpperCase() }));
  showPreview();
}

function takeBack(at) {
  const [c] = built.splice(at, 1);
  draw();
  say(t("backInHand", { letter: c.letter }));
  showPreview();
  (document.getElementById(`built-${Math.min(at, built.length - 1)}`) || card(c.index))?.focus();
}

function toggleSource(number) {
  if (sources.has(number)) sources.delete(number); else sources.add(number);
  draw();
  say(t(sources.has(number) ? "sourceIn" : "sourceOut", { number }));
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
    ...cards.map((c) => new Option(c.dataset.kind === "joker" ? t("joker") : c.dataset.letter, c.dataset.kind === "joker" ? "*" : c.dataset.letter)),
  );
  document.getElementById("aim-give").hidden = !aiming.action.includes("trade");
  panel.hidden = false;
  const first = [...panel.querySelectorAll("select")].find((s) => !s.closest("p").hidden);
  (first || document.getElementById("act")).focus();
}

function controls() {
  if (watcher) return;
  document.getElementById("play").addEventListener("click", async () => {
    if (!built.length && !sources.size) { say(t("buildFirst")); return; }
    if (await move(body(), t("played"))) reset();
  });
  document.getElementById("clear").addEventListener("click", () => { reset(); say(t("cardsBack")); });
  document.getElementById("draw").addEventListener("click", async () => {
    if (await move({ action: "draw" }, t("drew"))) reset();
  });
  document.getElementById("act").addEventListener("click", async () => {
    if (!aiming) return;
    const target = Number(document.getElementById("target").value || 0);
    const give = document.getElementById("give").value;
    const ok = await move({ action: "card", card: aiming.action, target, give }, t("actionPlayed", { card: aiming.name }));
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
