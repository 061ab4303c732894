// Trades the link's secret (the URL's fragment, never sent by the browser) for this game's
// session cookie, once, then reloads the page without the fragment.
import { t } from "./messages.js";

const status = document.getElementById("opening");
const game = status.dataset.game;
const token = location.hash.slice(1);
history.replaceState(null, "", location.pathname); // the secret leaves the address bar at once

async function open() {
  if (!token) {
    status.textContent = t("openFromChat");
    return;
  }
  const response = await fetch(`/g/${encodeURIComponent(game)}/session`, {
    method: "POST",
    headers: { "Content-Type": "application/json" },
    body: JSON.stringify({ token }),
    credentials: "same-origin",
  });
  if (response.ok) {
    location.replace(location.pathname);
    return;
  }
  let reason = t("linkDead");
  try {
    reason = (await response.json()).reason || reason;
  } catch {
    // (not JSON: keep the general reason)
  }
  status.textContent = reason;
}

open();
