// Shared by every game's page script (games/<game>/web/script.js): requests, the live
// channel, dragging (pointer events: mouse, pen and touch alike), grid keys and the clock. Plain
// ES module, served by moji.
import { t } from "./messages.js";
export const root = document.getElementById("game");
export const game = root.dataset.game;
export const watcher = root.dataset.watcher === "yes";
export const live = document.getElementById("live");
export const base = `/g/${encodeURIComponent(game)}`;
const statusLine = document.getElementById("status");
export { t };

export function say(text, refused = false) {
  statusLine.textContent = text;
  statusLine.classList.toggle("refused", refused);
}

export async function post(path, body) {
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

// A move: the server hands it to the chat's game as the typed move; the refusal is the game's.
export async function move(body, done) {
  const { ok, data } = await post("/move", body);
  if (ok) say(done);
  else say(data.reason || t("refused"), true);
  return ok;
}

// Previews come back in any order: only the latest one asked for is shown, and a burst of
// changes (typing a word) asks once, when it pauses (a page's requests are rate-limited).
let asked = 0;
export async function preview(body) {
  const mine = ++asked;
  await new Promise((resolve) => setTimeout(resolve, 120));
  if (mine !== asked) return null;
  const answer = await post("/preview", body);
  return mine === asked ? answer.data : null;
}

// Dragging: ``sources`` (a selector) onto an element matching ``targets`` (any with
// ``data-drop`` unless told); ``drop(source, target)``. A press without a move stays a click
// (``wasDragged()`` tells the click handler).
let dragged = false;
export function wasDragged() { return dragged; }
export function draggable(sources, drop, targets = "[data-drop]") {
  let drag = null;
  live.addEventListener("pointerdown", (event) => {
    const source = event.target.closest(sources);
    if (!source || source.disabled) return;
    dragged = false;
    const ghost = source.cloneNode(true);
    ghost.classList.add("ghost");
    ghost.removeAttribute("id");
    ghost.removeAttribute("aria-label");
    ghost.setAttribute("aria-hidden", "true");
    drag = { source, ghost, x: event.clientX, y: event.clientY, id: event.pointerId };
    source.setPointerCapture(event.pointerId);
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
    const { source, ghost } = drag;
    drag = null;
    ghost.remove();
    if (!dragged) return;
    const target = document.elementFromPoint(event.clientX, event.clientY)?.closest(targets);
    if (target) drop(source, target);
    setTimeout(() => { dragged = false; }, 0);
  });
  live.addEventListener("pointercancel", () => {
    if (drag) drag.ghost.remove();
    drag = null;
    dragged = false;
  });
}

// A grid's keys: arrows, Home and End move ``cursor`` (kept by the caller), Enter or Space
// calls ``enter``, Backspace or Delete ``back``, Escape ``escape``.
export function gridKeys(selector, cursor, size, { enter, back, escape }) {
  live.addEventListener("keydown", (event) => {
    const cell = event.target.closest?.(selector);
    if (!cell) return;
    const steps = { ArrowUp: [-1, 0], ArrowDown: [1, 0], ArrowLeft: [0, -1], ArrowRight: [0, 1] };
    const n = size();
    if (steps[event.key]) {
      const [dr, dc] = steps[event.key];
      cursor.row = Math.max(0, Math.min(n - 1, cursor.row + dr));
      cursor.col = Math.max(0, Math.min(n - 1, cursor.col + dc));
    } else if (event.key === "Home") {
      cursor.col = 0;
    } else if (event.key === "End") {
      cursor.col = n - 1;
    } else if (event.key === "Enter" || event.key === " ") {
      event.preventDefault();
      enter();
      return;
    } else if (event.key === "Backspace" || event.key === "Delete") {
      event.preventDefault();
      back();
      return;
    } else if (event.key === "Escape") {
      escape();
      return;
    } else {
      return;
    }
    event.preventDefault();
    roving(selector, cursor);
    cellAt(cursor)?.focus();
  });
}

export function cellAt(cursor) {
  return document.querySelector(`#board [data-row="${cursor.row}"][data-col="${cursor.col}"]`);
}

export function roving(selector, cursor) {
  for (const cell of document.querySelectorAll(`${selector}[tabindex="0"]`)) cell.tabIndex = -1;
  const cell = cellAt(cursor);
  if (cell) cell.tabIndex = 0;
}

// The live channel: each change of the game brings this page's part, rendered for its viewer.
// It sends the whole live part once ("state", on each (re)connection), then, for a page whose
// part is cut into regions (its live.html marks them), only the regions that changed ("patch": elements replaced by
// id), each numbered: a patch that does not follow the version shown means something was missed,
// and the channel starts afresh. EventSource reconnects by itself when a stream ends (the server
// says after how long; a stopping moji ends them all); when the server refuses it outright (a
// proxy's error page while moji restarts) it gives up, so the page opens a new one, waiting
// longer each time. ``loaded`` redraws the page's own state (what the player is placing or
// building) on the new part; ``keepFocus(apply)`` applies a change keeping the focus (by default
// on the element of the same id).
export function follow(loaded, keepFocus = keepFocusById) {
  let version = null;
  let shown = null;
  let backoff = 1000;
  let finished = false;
  const update = (change) => keepFocus(() => {
    change();
    clockLoaded();
    loaded();
    live.dataset.version = String(Number(live.dataset.version || 0) + 1);
  });
  function open() {
    const events = new EventSource(`${base}/events`);
    const end = () => { finished = true; events.close(); };
    events.addEventListener("open", () => { backoff = 1000; });
    events.addEventListener("state", (event) => {
      const data = JSON.parse(event.data);
      version = data.v;
      const view = data.html.replace(/ data-now="[^"]*"/g, ""); // (the server's clock at rendering)
      if (view !== shown) {
        // (the same view again, after a reconnection: replacing it would only take the focus
        // from a player placing tiles by keyboard)
        shown = view;
        update(() => { live.innerHTML = data.html; });
      }
      if (data.ended) end();
    });
    events.addEventListener("patch", (event) => {
      const data = JSON.parse(event.data);
      if (data.base !== version) {
        events.close(); // a missed update: start afresh (the whole state comes first)
        version = null;
        open();
        return;
      }
      version = data.v;
      update(() => {
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
      setTimeout(open, backoff);
      backoff = Math.min(backoff * 2, 30000);
    });
  }
  open();
}

function keepFocusById(apply) {
  const focused = document.activeElement;
  const id = live.contains(focused) ? focused.id : "";
  apply();
  if (id) document.getElementById(id)?.focus();
}

function clockLoaded() {
  const clock = document.getElementById("clock");
  if (clock) clock.dataset.loaded = String(Date.now() / 1000);
  tick();
}

function tick() {
  const clock = document.getElementById("clock");
  if (!clock) return;
  const skew = Number(clock.dataset.now) - Number(clock.dataset.loaded);
  const left = Math.max(0, Number(clock.dataset.deadline) - (Date.now() / 1000 + skew));
  const h = Math.floor(left / 3600), m = Math.floor((left % 3600) / 60), s = Math.floor(left % 60);
  clock.textContent = h ? t("hoursLeft", { hours: h, minutes: String(m).padStart(2, "0") }) : `${m}:${String(s).padStart(2, "0")}`;
}

// The page's first drawing, its clock, and its live channel.
export function start(loaded, keepFocus = keepFocusById) {
  clockLoaded();
  loaded();
  setInterval(tick, 1000);
  follow(loaded, keepFocus);
}
