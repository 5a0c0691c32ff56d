// KeyGuard: keeps the keys pressed in an ipywidgets box of ours (a lesson's exercise or
// settings, the hand-in box, the deck maker, the teacher's view) from the notebook.
//
// The box's Python side (keep_keys in key_guard.py) gives it the class "mg-keep-keys" and
// this widget as its last child, hidden. Once this view sits in the box, keepKeys()
// (_focus.js, put in front of this file) holds the box: no key pressed on one of its
// buttons, menus or links runs, adds or changes a cell; typing in its fields and the
// browser's own shortcuts work as usual. It takes no focus and handles no key itself.

function render({ el }) {
  el.classList.add("mg-key-guard");
  let kept = null;
  let frame = null;
  let tries = 0;
  // The view is drawn before the box puts it in place: look for the box for a few frames.
  const hold = () => {
    frame = null;
    const host = el.parentElement && el.parentElement.closest(".mg-keep-keys");
    if (host) kept = keepKeys(host);
    else if (++tries < 600) frame = requestAnimationFrame(hold);
  };
  hold();
  return () => {
    if (frame !== null) cancelAnimationFrame(frame);
    if (kept) kept.destroy();
  };
}

export default { render };
