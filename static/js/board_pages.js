// The TV board cannot scroll: what does not fit its space (a long waiting list, many open tables,
// several live games) is shown in pages that take turns, every board_page_seconds. One clock for the
// whole board, so the panels turn together; a panel whose content fits has one page and stays put.
let turn = 0;
const listeners = [];

export function startPages(seconds) {
  if (seconds > 0) setInterval(() => { turn += 1; listeners.forEach(fn => fn()); }, seconds * 1000);
}
export function onTurn(fn) { listeners.push(fn); }

// Cut the nodes, laid out in `box`, into pages that fit it: along "y" (rows, stacked panels) or "x"
// (columns). A node taller than the box is a page of its own.
function pagesOf(box, nodes, axis) {
  const b = box.getBoundingClientRect();
  const room = (axis === "x" ? b.width : b.height) + 0.5;
  const from = n => (axis === "x" ? n.getBoundingClientRect().left : n.getBoundingClientRect().top);
  const to = n => (axis === "x" ? n.getBoundingClientRect().right : n.getBoundingClientRect().bottom);
  const pages = [[]];
  let origin = nodes.length ? from(nodes[0]) : 0;
  for (const n of nodes) {
    if (to(n) - origin > room && pages[pages.length - 1].length) { pages.push([]); origin = from(n); }
    pages[pages.length - 1].push(n);
  }
  return pages;
}

// Show `nodes` in `box`, the page the clock says. Returns { page, pages } (1-based) for a footer.
export function paged(box, nodes, axis = "y") {
  box.replaceChildren(...nodes);
  const pages = pagesOf(box, nodes, axis);
  const index = turn % pages.length;
  if (pages.length > 1) box.replaceChildren(...pages[index]);
  return { page: index + 1, pages: pages.length };
}
