// What the page's scripts say, in the page's language: the server renders the translated
// messages into <script type="application/json" id="moji-messages"> (adapters/web/scripts.py);
// ``t(key, {name: value})`` fills a message's {placeholders}. No player-facing text lives here.
const block = document.getElementById("moji-messages");
const messages = block ? JSON.parse(block.textContent) : {};

export function t(key, params = {}) {
  const text = messages[key] ?? key;
  return text.replace(/\{(\w+)\}/g, (whole, name) => (name in params ? String(params[name]) : whole));
}
