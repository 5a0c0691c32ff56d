// Focus and keys, shared by the widgets' views: a widget is a good guest in a notebook.
//
// This file exports nothing: the widget's Python class puts it (after _dom.js) in front of
// the view's own file (see _assets.py), so guardKeys() is the view's own name. Its look is in
// _focus.css, put in front of the view's style sheet the same way.
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
//   phase (stopPropagation + preventDefault), so JupyterLab's command-mode shortcuts never
//   see it: Enter does not open a cell's editor, A/B do not add cells, M does not turn a cell
//   into Markdown, digits do not change a heading. Tab (moving the focus) and shortcuts with
//   Ctrl/Alt/Meta (save, copy) are left to the page.
// * Typing in a field of the widget (a settings form) reaches the field, and stops there.
// * Enter or Space on a button reached with Tab clicks the button, as usual, and stops there.
// * When the focus is elsewhere, a "click to play" bar lies over the top of the widget; a
//   press anywhere on the widget gives it the focus back.

const GUARD_FIELDS = "input, select, textarea, [contenteditable]";

function plainKey(event) {
  return !(event.ctrlKey || event.metaKey || event.altKey) && event.key !== "Tab"
    && !/^F\d+$/.test(event.key || "");
}

function guardKeys(root, { onKey, label, onFocus }) {
  root.setAttribute("tabindex", "0");
  root.setAttribute("data-lm-suppress-shortcuts", "true");
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
    overlay.textContent = label ? label() : "";
    if (now === focused) return;
    focused = now;
    root.classList.toggle("mg-focused", now);
    overlay.hidden = now;
    if (onFocus) onFocus(now);
  };

  // Capture phase on the root: the widget's keys are the widget's, before anything inside
  // it or around it sees them.
  const capture = (event) => {
    if (field(event.target)) return;  // typing in a field: see `bubble`
    if (!plainKey(event)) return;
    if (button(event.target) && (event.code === "Enter" || event.code === "NumpadEnter"
      || event.code === "Space")) return;  // a button reached with Tab: see `bubble`
    event.stopPropagation();
    event.preventDefault();
    onKey(event);
  };
  // Bubble phase: what a field or a button took stops at the widget's edge.
  const bubble = (event) => {
    if (plainKey(event)) event.stopPropagation();
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
    [root, "keyup", bubble, false],
    [root, "keydown", bubble, false],
    [root, "keypress", bubble, false],
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
      for (const [target, type, handler, inCapture] of listeners) {
        target.removeEventListener(type, handler, inCapture);
      }
    },
  };
}
