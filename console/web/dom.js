// Building the page from data without innerHTML: every value becomes a text node, so nothing an ensemble's name or an
// Event's message holds can run as markup.

/** An element with attributes (`on*` functions become listeners) and children (strings become text). */
export function h(tag, attributes = {}, ...children) {
  const element = tag.startsWith('svg:') ? document.createElementNS('http://www.w3.org/2000/svg', tag.slice(4)) : document.createElement(tag);
  for (const [name, value] of Object.entries(attributes)) {
    if (value === undefined || value === false || value === null) continue;
    if (name.startsWith('on') && typeof value === 'function') element.addEventListener(name.slice(2), value);
    else element.setAttribute(name, value === true ? '' : String(value));
  }
  append(element, children);
  return element;
}

function append(element, children) {
  for (const child of children.flat()) {
    if (child === undefined || child === null || child === false) continue;
    element.append(child instanceof Node ? child : document.createTextNode(String(child)));
  }
}

/** Replaces what `element` holds. */
export function fill(element, ...children) {
  element.replaceChildren();
  append(element, children);
  return element;
}

const NOTICE_MS = 10_000;
let noticeTimer;

/** Says something to everyone: shown in a corner for a while and read by screen readers. */
export function notify(message) {
  fill(document.getElementById('notice'), message);
  clearTimeout(noticeTimer);
  noticeTimer = setTimeout(() => fill(document.getElementById('notice')), NOTICE_MS);
}

/** A time as the reader's clock shows it. */
export function clock(time) {
  return time ? new Date(time).toLocaleTimeString() : '';
}
