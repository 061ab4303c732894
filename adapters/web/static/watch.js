// A watcher's page: follows the game live (Server-Sent Events). Each update is the page's live
// part, rendered by the server for watchers (no hand, rack or list is ever in it); the newest
// play is copied into a polite live region once, so a screen reader hears each take, not each
// change of the table.
import { t } from "./messages.js";

const root = document.getElementById("watch");
const game = root.dataset.game;
const live = document.getElementById("live");
const latest = document.getElementById("latest");
const statusLine = document.getElementById("status");
// the server's clock minus this browser's, from the page's rendering (the hourglass counts down
// in the server's time; a shared update carries no time of its own)
const skew = Number(root.dataset.now) - Date.now() / 1000;

function tick() {
  const clock = document.getElementById("clock");
  if (!clock) return;
  const left = Math.max(0, Number(clock.dataset.deadline) - (Date.now() / 1000 + skew));
  const h = Math.floor(left / 3600), m = Math.floor((left % 3600) / 60), s = Math.floor(left % 60);
  clock.textContent = h ? t("hoursLeft", { hours: h, minutes: String(m).padStart(2, "0") }) : `${m}:${String(s).padStart(2, "0")}`;
}

function shown() {
  const newest = document.getElementById("log")?.dataset.latest || "";
  if (newest && newest !== latest.textContent) latest.textContent = newest;
  tick();
}

function follow() {
  const events = new EventSource(`/g/${encodeURIComponent(game)}/events`);
  events.addEventListener("state", (event) => {
    const data = JSON.parse(event.data);
    live.innerHTML = data.html;
    live.dataset.version = String(Number(live.dataset.version || 0) + 1);
    shown();
    if (data.ended) events.close();
  });
  events.addEventListener("gone", (event) => {
    statusLine.textContent = JSON.parse(event.data).reason;
    events.close();
  });
}

shown();
setInterval(tick, 1000);
follow();
