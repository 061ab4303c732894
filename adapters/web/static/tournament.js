// A tournament's page keeps itself up to date while the tournament is open or running: every
// few seconds (the page's data-every) it fetches its changing part (data-source, JSON) and, when
// that changed (data-version), puts it in place. Without this script the page is whole as served.
import { t } from "./messages.js";

const live = document.getElementById("tournament-live");
const status = document.getElementById("live-status");

if (live instanceof HTMLElement && live.dataset.source) {
  const every = Math.max(Number(live.dataset.every) || 10, 0.05) * 1000;
  let ongoing = live.dataset.live === "true";
  let timer = 0;
  let busy = false;

  const schedule = () => {
    window.clearTimeout(timer);
    if (ongoing) timer = window.setTimeout(refresh, every);
  };

  async function refresh() {
    if (busy) return;
    busy = true;
    try {
      const response = await fetch(live.dataset.source, {
        headers: { Accept: "application/json" },
        cache: "no-store",
        credentials: "same-origin",
      });
      if (!response.ok) throw new Error(`HTTP ${response.status}`);
      const data = await response.json();
      ongoing = Boolean(data.live);
      live.dataset.live = String(ongoing);
      if (data.version !== live.dataset.version) {
        const focused = focusKey();
        live.innerHTML = data.html; // rendered and escaped by the server's templates
        refocus(focused);
        live.dataset.version = data.version;
        if (status) status.textContent = t("tournamentUpdated");
      }
    } catch {
      if (status) status.textContent = t("tournamentOffline");
    } finally {
      busy = false;
      schedule();
    }
  }

  // focus inside the replaced part stays on the same link or table (never back to the page's top)
  function focusKey() {
    const active = document.activeElement;
    if (!(active instanceof HTMLElement) || !live.contains(active)) return null;
    if (active instanceof HTMLAnchorElement) return `a[href="${CSS.escape(active.getAttribute("href") ?? "")}"]`;
    const label = active.getAttribute("aria-label");
    return label === null ? null : `[aria-label="${CSS.escape(label)}"]`;
  }

  function refocus(selector) {
    const again = selector ? live.querySelector(selector) : null;
    if (again instanceof HTMLElement) again.focus({ preventScroll: true });
  }

  // a hidden tab does not poll; it catches up as soon as it is shown again
  document.addEventListener("visibilitychange", () => {
    if (document.hidden) window.clearTimeout(timer);
    else if (ongoing) refresh();
  });
  // (a refresh now, for whoever wants one without waiting: the tests, a console)
  window.mojiRefreshTournament = refresh;
  schedule();
}
