// Small helpers for building a view's page, shared by the widgets' views.
//
// This file exports nothing: the widget's Python class puts its text in front of the view's
// own file (see _assets.py), so the names below are the view's own.

// A new element: h("button", {class: "x", onclick: f, disabled: true}, "text", child, ...).
// Attributes that are null, undefined or false are left out; children may be nested arrays.
function h(tag, attrs, ...children) {
  const node = document.createElement(tag);
  for (const [name, value] of Object.entries(attrs || {})) {
    if (value === null || value === undefined || value === false) continue;
    if (name === "class") node.className = value;
    else if (name.startsWith("on")) node.addEventListener(name.slice(2), value);
    else node.setAttribute(name, value === true ? "" : String(value));
  }
  node.append(...domChildren(children));
  return node;
}

// The nodes of a list of children (nested arrays flattened): null, undefined and false are
// nothing, never the words "null" or "undefined"; other values become text.
function domChildren(children) {
  const out = [];
  for (const child of [children].flat(Infinity)) {
    if (child === null || child === undefined || child === false) continue;
    out.push(child instanceof Node ? child : document.createTextNode(String(child)));
  }
  return out;
}

// Replace what a node holds with these children, as h() takes them.
function replaceWith(node, ...children) {
  node.replaceChildren(...domChildren(children));
}

// Replace what a node holds with these children only if they differ from what it shows
// (same tags, attributes and text, and a list showing the same choice): a redraw that
// changes nothing then leaves the page alone, with no new style, layout or paint, and focus
// and hover stay where they were. The nodes kept must act as the new ones would: whatever a
// click handler uses is in an attribute. Returns whether the node changed.
function replaceChanged(node, ...children) {
  const next = domChildren(children);
  const now = node.childNodes;
  const same = now.length === next.length && next.every((child, i) => child === now[i]
    || (child.isEqualNode(now[i]) && (!(child instanceof HTMLSelectElement) || child.value === now[i].value)));
  if (!same) node.replaceChildren(...next);
  return !same;
}

// An attribute, a text or the hidden flag set only when it changes (setting one to the value
// it has still tells the page, its observers and its style sheets that it changed).
function setAttr(node, name, value) {
  if (node.getAttribute(name) !== String(value)) node.setAttribute(name, String(value));
}

function setText(node, text) {
  if (node.textContent !== String(text)) node.textContent = String(text);
}

function setHidden(node, hidden) {
  if (node.hidden !== !!hidden) node.hidden = !!hidden;
}

// A string of the catalogue with its {names} filled in: fill("{n} of {total}", {n: 1, total: 5}).
function fill(template, values) {
  return String(template).replace(/\{(\w+)\}/g, (whole, key) =>
    key in values ? String(values[key]) : whole);
}

// Numbers, percentages and plural forms as the page's language writes them, by the browser's
// Intl (the CLDR rules Babel applies on the Python side). `strings` is the page's catalogue:
// its "language.code" names the language ("en", "es", "fr").
function pageLocale(strings) {
  return (strings && strings["language.code"]) || "en";
}

// numberText(strings, 0.7, 1) → "0.7" in English, "0,7" in Spanish and French.
function numberText(strings, value, digits) {
  const options = digits === undefined ? {}
    : { minimumFractionDigits: digits, maximumFractionDigits: digits };
  return new Intl.NumberFormat(pageLocale(strings), options).format(value);
}

// A share from 0 to 1 as a whole percentage: "25%", "25 %".
function percentText(strings, share) {
  return new Intl.NumberFormat(pageLocale(strings), { style: "percent", maximumFractionDigits: 0 })
    .format(share);
}

// The catalogue key of the form `count` takes: key + ".one", ".many"… as the language's plural
// rules choose (French says "0 carte", English "0 cards"); key + ".other" when the catalogue
// has no text for that form.
function pluralKey(strings, key, count) {
  const form = new Intl.PluralRules(pageLocale(strings)).select(count);
  return strings && strings[key + "." + form] !== undefined ? key + "." + form : key + ".other";
}
