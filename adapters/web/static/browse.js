// moji's browsing pages: a replay steps back and forward with the arrow keys (Home and End: the
// first and last step). Each step is a page of its own (the links work without this script).
const keys = { ArrowLeft: "prev", ArrowRight: "next", Home: "first", End: "last" };

document.addEventListener("keydown", (event) => {
  if (event.altKey || event.ctrlKey || event.metaKey || event.shiftKey) return;
  const target = event.target;
  if (target instanceof HTMLElement && target.closest("input, select, textarea, [contenteditable]")) return;
  const id = keys[event.key];
  const link = id ? document.getElementById(id) : null;
  if (!(link instanceof HTMLAnchorElement)) return;
  event.preventDefault();
  window.location.assign(link.href);
});

// after a step by keyboard or link, focus stays on the steps' navigation (not the page's top)
const where = document.getElementById("where");
if (where && new URLSearchParams(window.location.search).has("step")) {
  where.setAttribute("tabindex", "-1");
  where.focus({ preventScroll: true });
}
