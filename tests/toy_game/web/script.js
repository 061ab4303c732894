// Spell's page: the game is played in the chat; the page follows it (the live channel every page
// shares) and tells a player, in the page's language, what to type next.
import { live, start, t, watcher } from "./pick.js";

const hint = document.getElementById("hint");

start(() => {
  const length = live.querySelector("#length")?.dataset.length;
  if (!watcher && length) hint.textContent = t("spellHint", { length });
});
