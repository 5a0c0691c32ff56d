// Focus and keys, shared by the widgets' views: a widget is a good guest in a notebook.
//
// This file exports nothing: the widget's Python class puts it (after _dom.js) in front of
// the view's own file (see _assets.py), so guardKeys() and keepKeys() are the view's own
// names. Its look is in _focus.css, put in front of the view's style sheet the same way.
//
//   const guard = guardKeys(root, {
//     onKey: (event) => ...,          // the view's key handler (it reads event.code)
//     label: () => "Click to play",    // the overlay's words, from the view's catalogue
//     onFocus: (focused) => ...,      // optional: focus came or went (a game may pause)
//   });
//   guard.destroy();                  // in the view's cleanup
//
// What it does:
// * The root takes the keyboard focus itself once it is on the page (without scrolling),
//   and shows that it has it (class "mg-focused": an outline, see _focus.css).
// * While the focus is in the widget, every key without Ctrl, Alt or Meta (Enter, Space,
//   digits, letters, Escape, arrows ...) is handed to onKey and then stopped in the capture
//   phase (stopPropagation + preventDefault).
// * No key pressed in the widget, with or without Ctrl, Alt, Meta or Shift, ever reaches the
//   notebook (keepKeys, below): Enter does not open a cell's editor, Ctrl+Enter and
//   Shift+Enter run no cell, Alt+Enter and A/B add no cell, D D deletes none, M does not turn
//   a cell into Markdown, digits do not change a heading. What the browser itself does with
//   a key is left alone: Tab moves the focus, Ctrl+C / Ctrl+V copy and paste, Ctrl+R reloads,
//   Ctrl+T / Ctrl+W open and close tabs.
// * Typing in a field of the widget (a settings form) reaches the field, and stops there.
// * Enter or Space on a button reached with Tab clicks the button, as usual, and stops there.
// * A page that takes the keyboard at a key pressed in the widget (a console putting it back
//   in its prompt at Enter) gets it taken back: the key was the widget's.
// * When the focus is elsewhere, a "click to play" bar lies over the top of the widget; a
//   press anywhere on the widget gives it the focus back.
//
// keepKeys(host) alone (no focus taken, no overlay, no key handler) is what an ipywidgets box
// of ours gets through KeyGuard (key_guard.js): see there.

const GUARD_FIELDS = "input, select, textarea, [contenteditable]";

const SUPPRESS_SHORTCUTS = "data-lm-suppress-shortcuts";

// Keys pressed in `host` stay in it. JupyterLab runs its shortcuts (Ctrl+Enter runs a cell,
// Alt+Enter adds one, A, B, D D, M, Y, Z in command mode ...) from keydown events that reach
// the document; Lumino, its command registry, skips an event whose target carries the
// attribute data-lm-suppress-shortcuts. The mark on the host alone is not enough: Lumino
// first tries the target itself against a shortcut's selector, and one such as
// `.jp-Notebook.jp-mod-commandMode :focus` matches a focused button, card or key inside the
// host. So every key event (keydown, keypress, keyup) stops at the host's edge, after the
// host's own elements have had it (today's JupyterLab listens as events bubble up to the
// document), and every element inside that takes the focus is marked too (for a host page
// that listens in the capture phase, before the host sees the event). Nothing is
// default-prevented here: the browser's own shortcuts (Tab, copy, paste, reload, new or
// closed tab) work as anywhere.
function keepKeys(host) {
  const mark = (target) => {
    if (target instanceof Element && !target.hasAttribute(SUPPRESS_SHORTCUTS)) {
      target.setAttribute(SUPPRESS_SHORTCUTS, "true");
    }
  };
  mark(host);
  if (host.contains(document.activeElement)) mark(document.activeElement);
  const stop = (event) => event.stopPropagation();
  const focused = (event) => mark(event.target);
  const listeners = [
    ["keydown", stop],
    ["keypress", stop],
    ["keyup", stop],
    ["focusin", focused],
  ];
  for (const [type, handler] of listeners) host.addEventListener(type, handler, false);
  return {
    destroy() {
      for (const [type, handler] of listeners) host.removeEventListener(type, handler, false);
    },
  };
}

function plainKey(event) {
  return !(event.ctrlKey || event.metaKey || event.altKey) && event.key !== "Tab"
    && !/^F\d+$/.test(event.key || "");
}

function guardKeys(root, { onKey, label, onFocus }) {
  root.setAttribute("tabindex", "0");
  const kept = keepKeys(root);
  root.classList.add("mg-guarded");
  const overlay = document.createElement("div");
  overlay.className = "mg-focus-overlay";
  overlay.setAttribute("role", "button");
  overlay.setAttribute("aria-hidden", "true");
  root.prepend(overlay);
  let focused = null;
  let disposed = false;

  const field = (target) => target instanceof Element && target !== root
    && target.closest(GUARD_FIELDS) !== null && root.contains(target);
  const button = (target) => target instanceof Element && target !== root
    && target.closest("button, a[href], summary") !== null;

  const refresh = () => {
    if (disposed) return;
    const now = root.contains(document.activeElement)
      && (typeof document.hasFocus !== "function" || document.hasFocus());
    const said = label ? label() : "";
    if (overlay.textContent !== said) overlay.textContent = said;  // no write when the same
    if (now === focused) return;
    focused = now;
    root.classList.toggle("mg-focused", now);
    overlay.hidden = now;
    if (onFocus) onFocus(now);
  };

  // A page around the widget may have taken the keyboard at this very key, listening in the
  // capture phase before the root: JupyterLab's and JupyterLite's console put it back in
  // their prompt at an Enter pressed anywhere in their outputs. The key was pressed in the
  // widget, so the keyboard goes back where it was (and a button's Enter clicks it, which
  // the console's preventDefault stopped).
  const keepKeyboard = (event) => {
    const target = event.target;
    if (!(target instanceof HTMLElement) || !plainKey(event)
      || root.contains(document.activeElement)) return;
    target.focus({ preventScroll: true });
    if (button(target) && event.defaultPrevented && event.key === "Enter") target.click();
  };

  // Capture phase on the root: the widget's keys are the widget's, before anything inside
  // it sees them (and around it, but for keepKeyboard's case).
  const capture = (event) => {
    keepKeyboard(event);
    if (field(event.target)) return;  // typing in a field: it stops at the edge (keepKeys)
    if (!plainKey(event)) return;     // Ctrl/Alt/Meta, Tab, F1…: the same
    if (button(event.target) && (event.code === "Enter" || event.code === "NumpadEnter"
      || event.code === "Space")) return;  // a button reached with Tab clicks, and the same
    event.stopPropagation();
    event.preventDefault();
    onKey(event);
  };
  const press = (event) => {
    const t = event.target;
    if (!(t instanceof Element && t.closest(GUARD_FIELDS))) {
      if (!root.contains(document.activeElement)) root.focus({ preventScroll: true });
    }
  };
  // After a click on one of the widget's buttons (not in a form), keys go to the widget
  // again: a focused button would take Space and Enter for itself.
  const click = (event) => {
    const t = event.target;
    if (t instanceof Element && t.closest("button") && !t.closest("form")) {
      root.focus({ preventScroll: true });
    }
  };
  const changed = () => setTimeout(refresh, 0);
  // Every listener, once: added here, removed by destroy().
  const listeners = [
    [root, "keydown", capture, true],
    [root, "pointerdown", press, false],
    [root, "click", click, false],
    [root, "focusin", changed, false],
    [root, "focusout", changed, false],
    [window, "blur", changed, false],
    [window, "focus", changed, false],
  ];
  for (const [target, type, handler, inCapture] of listeners) {
    target.addEventListener(type, handler, inCapture);
  }

  // Take the focus once the root is on the page (a view is often drawn before its element
  // is attached): try for a few frames.
  let tries = 0;
  let frame = null;
  const take = () => {
    frame = null;
    if (disposed) return;
    if (root.isConnected && root.getClientRects().length) {
      root.focus({ preventScroll: true });
      refresh();
      return;
    }
    if (++tries < 120) frame = requestAnimationFrame(take);
    else refresh();
  };
  refresh();
  frame = requestAnimationFrame(take);

  return {
    get focused() { return Boolean(focused); },
    refresh,
    focus() { root.focus({ preventScroll: true }); refresh(); },
    destroy() {
      disposed = true;
      if (frame !== null) cancelAnimationFrame(frame);
      kept.destroy();
      for (const [target, type, handler, inCapture] of listeners) {
        target.removeEventListener(type, handler, inCapture);
      }
    },
  };
}
