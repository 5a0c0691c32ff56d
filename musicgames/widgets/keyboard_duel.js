// Keyboard Duel: the page side of KeyboardDuelWidget (uses h() and fill() of _dom.js).
//
// The kernel is the source of truth. It sends three traits:
//   table     — everything the person's seat may see, with the legal choices already listed
//   cards_svg — the two piano cards as SVG (drawn in Python by musicgames.render)
//   strings   — the words of the page in the chosen language
// and the page sends back what the person did, as typed messages:
//   {type: "act", action: {...engine action JSON...}}, {type: "new_game", opponent},
//   {type: "undo"}, {type: "hint"}, {type: "continue"}, {type: "settings", naming|language}
// each with a sequence number `seq` that the kernel echoes in table.seq once handled.
// The page only offers what table.legal lists, so the rules stay in Python.
//
// Keyboard: every card, key (with its token) and button can be focused and shows it. In the
// hand and along the 24 keys the arrow keys move (roving tabindex); Enter or Space selects,
// places, picks a token up; Escape clears the selection or closes a panel; H hint, U take
// back, E end turn, L lock in, N next round, R rules (in Spanish the words' letters: P pista,
// D deshacer, T terminar turno, C confirmar, S siguiente ronda, R reglas). Keys pressed in
// the widget never reach the notebook. Dialogs (opponent choice, rules) hold focus and give
// it back when closed; in the rules, Space and Shift+Space page down and up (also on the
// close button, which closes on Enter, a click or Escape).
//
// Layout follows the widget's own width (a ResizeObserver sets data-layout on the root):
// "wide" from 820 px, with a side column for the duel panel and the log, so the hand stays
// where it is during a duel; "narrow" below, one column.

const SVG_NS = "http://www.w3.org/2000/svg";
const SEATS = ["white", "black"];
const WIDE_FROM_PX = 820;
const PIPS = {
  1: [[0.5, 0.5]],
  2: [[0.27, 0.27], [0.73, 0.73]],
  3: [[0.25, 0.25], [0.5, 0.5], [0.75, 0.75]],
  4: [[0.27, 0.27], [0.73, 0.27], [0.27, 0.73], [0.73, 0.73]],
  5: [[0.25, 0.25], [0.75, 0.25], [0.5, 0.5], [0.25, 0.75], [0.75, 0.75]],
  6: [[0.27, 0.22], [0.73, 0.22], [0.27, 0.5], [0.73, 0.5], [0.27, 0.78], [0.73, 0.78]],
};

// Timings of the person's clicks (click → the kernel's answer drawn), for the browser test
// and the benchmark: window.mgKeyboardDuel.timings holds the last 200.
function timingLog() {
  if (!window.mgKeyboardDuel) window.mgKeyboardDuel = { timings: [] };
  return window.mgKeyboardDuel;
}

function s(tag, attrs) {
  const node = document.createElementNS(SVG_NS, tag);
  for (const [name, value] of Object.entries(attrs || {})) node.setAttribute(name, String(value));
  return node;
}

function placeKey(ids) {
  return [...ids].sort((a, b) => a - b).join(",");
}

function percent(strings, p) {
  if (p === null || p === undefined) return "–";
  return percentText(strings, p);
}

// A die as a small SVG square with its pips.
function dieSvg(value) {
  const svg = s("svg", { viewBox: "0 0 20 20", width: 22, height: 22, "aria-hidden": "true" });
  svg.classList.add("mg-duel-die");
  svg.setAttribute("data-value", value);
  svg.appendChild(s("rect", { x: 1, y: 1, width: 18, height: 18, rx: 3, class: "mg-duel-die-face" }));
  for (const [px, py] of PIPS[value] || []) {
    svg.appendChild(s("circle", { cx: 1 + 18 * px, cy: 1 + 18 * py, r: 1.8, class: "mg-duel-die-pip" }));
  }
  return svg;
}

// The elements of `box` that Tab can reach, in order.
function tabbables(box) {
  return [...box.querySelectorAll("button, select, [tabindex]")].filter(
    (node) => !node.disabled && node.tabIndex >= 0 && !node.closest("[hidden]") && node.getClientRects().length
  );
}

// The part of `node` a person can see now: clipped by the window and by every scrolling
// ancestor (JupyterLab scrolls the notebook inside a panel, not the window).
function visibleBox(node) {
  const rect = node.getBoundingClientRect();
  let top = Math.max(rect.top, 0);
  let bottom = Math.min(rect.bottom, window.innerHeight);
  for (let up = node.parentElement; up; up = up.parentElement) {
    const style = getComputedStyle(up);
    if (/(auto|scroll)/.test(style.overflowY)) {
      const clip = up.getBoundingClientRect();
      top = Math.max(top, clip.top);
      bottom = Math.min(bottom, clip.bottom);
    }
  }
  return { top: top - rect.top, height: Math.max(0, bottom - top) };
}

function render({ model, el }) {
  const root = h("div", {
    class: "mg-duel", tabindex: "0", role: "region", "data-lm-suppress-shortcuts": "true",
    "data-layout": "wide",
  });
  el.appendChild(root);

  // What the person has picked but not yet sent: cards in hand, a token to move.
  const ui = {
    selected: new Set(),
    token: null, // board key of the person's token being moved
    pending: null, // {seq, key} while a message waits for the kernel's answer
    chooser: false, // the New game / opponent chooser is open
    rules: false,
    dismissedDuel: null,
    game: null,
    screen: null,
    handFocus: null, // the card of the hand that Tab reaches (roving tabindex)
    keyFocus: 0, // the key of the board that Tab reaches
    returnFocus: null, // where focus goes back when a dialog closes
    soundsSeen: false, // drawn once: from then on, what appears is news and may sound
    soundRound: null, // the round whose chords were played
    soundDuel: null, // the duel whose result was played
  };
  // Sound (_sound.js): a soft chord as each round's piano cards appear, a sound on each
  // duel's result; one mute / volume control in the header. Nothing sounds before the
  // person's first click or key, and nothing without a browser.
  const sound = new WidgetSound("keyboard_duel", (key) => t(key));
  const soundTimers = [];
  let seq = 0;
  const sentAt = new Map();

  function t(key, values) {
    const strings = model.get("strings") || {};
    const template = strings[key] === undefined ? key : strings[key];
    return values ? fill(template, values) : template;
  }

  function table() {
    return model.get("table") || {};
  }

  // The letter of a shortcut in the page's language, as the table sends it (P for Pista),
  // and what a letter pressed does. The page keeps no letters of its own.
  function keyOf(name) {
    return (table().shortcut_keys || {})[name] || "";
  }

  function shortcutFor(key) {
    if (key.length !== 1) return null;
    const names = Object.keys(table().shortcut_keys || {});
    return names.find((name) => keyOf(name).toLowerCase() === key.toLowerCase()) || null;
  }

  function send(message, pendingKey) {
    seq += 1;
    message.seq = seq;
    sentAt.set(seq, { at: performance.now(), type: message.type === "act" ? message.action.type : message.type });
    ui.pending = { seq, key: pendingKey === undefined ? null : pendingKey };
    model.send(message);
    draw();
  }

  function act(action, pendingKey) {
    ui.selected.clear();
    ui.token = null;
    send({ type: "act", action }, pendingKey);
  }

  function button(className, label, onClick, extra) {
    return h("button", {
      type: "button", class: "mg-duel-btn " + className, "data-focus": "btn:" + className,
      onclick: (event) => {
        event.stopPropagation();
        if (!event.currentTarget.disabled) onClick(event);
      },
      ...(extra || {}),
    }, label);
  }

  // -- the skeleton ---------------------------------------------------------------------
  const title = h("div", { class: "mg-duel-title", id: "" });
  const status = h("div", { class: "mg-duel-status", role: "status", "aria-live": "polite" });
  const controls = h("div", { class: "mg-duel-controls" });
  const header = h("div", { class: "mg-duel-header" }, title, status, controls);

  const players = {};
  const seatsRow = h("div", { class: "mg-duel-seats" });
  for (const seat of SEATS) {
    const name = h("div", { class: "mg-duel-player-name" });
    const tray = h("div", { class: "mg-duel-tray", role: "list", "data-seat": seat });
    const total = h("div", { class: "mg-duel-total" });
    const running = h("div", { class: "mg-duel-running" });
    const box = h("div", { class: "mg-duel-player mg-duel-player-" + seat, "data-seat": seat },
      name, tray, h("div", { class: "mg-duel-figures" }, total, running));
    players[seat] = { box, name, tray, total, running };
    seatsRow.appendChild(box);
  }

  const board = h("div", { class: "mg-duel-board", role: "group" });
  const pianos = [];
  for (let p = 0; p < 2; p++) {
    const name = h("div", { class: "mg-duel-chord" });
    const keys = h("div", { class: "mg-duel-keys" });
    const hits = h("div", { class: "mg-duel-keyhits" });
    const stage = h("div", { class: "mg-duel-keystage" }, keys, hits);
    const shiftRow = h("div", { class: "mg-duel-shift-row" });
    const card = h("div", { class: "mg-duel-piano", "data-piano": p }, name, stage, shiftRow);
    board.appendChild(card);
    pianos.push({ card, name, keys, hits, shiftRow, svg: null, overlay: null, svgText: null, box: null });
    keys.addEventListener("click", (event) => onBoardClick(event, p));
  }

  const duelPanel = h("div", { class: "mg-duel-duelpanel", role: "region" });
  const roundPanel = h("div", { class: "mg-duel-roundend", role: "region" });
  const warning = h("div", { class: "mg-duel-warning", role: "note" });
  const choices = h("div", { class: "mg-duel-choices" });
  const handRow = h("div", { class: "mg-duel-hand", role: "group" });
  const actions = h("div", { class: "mg-duel-actions" });
  const message = h("div", { class: "mg-duel-error", role: "alert" });
  const hintBox = h("div", { class: "mg-duel-hint", role: "status" });
  const logTitle = h("div", { class: "mg-duel-log-title" });
  const logBox = h("div", { class: "mg-duel-log", role: "log", tabindex: "0", "data-focus": "log" });
  const rulesBox = h("div", { class: "mg-duel-overlay mg-duel-rules-overlay" });
  const overlay = h("div", { class: "mg-duel-overlay" });

  const main = h("div", { class: "mg-duel-main" }, seatsRow, board, warning, choices, handRow, actions, message, hintBox);
  const side = h("div", { class: "mg-duel-side" }, roundPanel, duelPanel, logTitle, logBox);
  const body = h("div", { class: "mg-duel-body" }, main, side);
  root.append(header, body, rulesBox, overlay);

  // -- layout by the widget's own width --------------------------------------------------
  const resize = new ResizeObserver(() => {
    const wide = root.clientWidth >= WIDE_FROM_PX;
    const layout = wide ? "wide" : "narrow";
    if (root.dataset.layout !== layout) root.dataset.layout = layout;
    placeDialogs();
  });
  resize.observe(root);

  // -- what the person may do now ---------------------------------------------------------
  function canAct() {
    const tb = table();
    return tb.screen === "play" && tb.your_turn && !ui.pending && !tb.thinking;
  }

  function legal() {
    return table().legal || { place: {}, move: [], shift: [], duel_cards: [], lock_in: false, end_turn: false };
  }

  // Keys that a click would now send an action for, with the action.
  function targets() {
    const result = new Map();
    if (!canAct() || table().duel_active) return result;
    const lg = legal();
    const picked = [...ui.selected];
    if (ui.token !== null) {
      if (picked.length !== 1) return result;
      for (const mv of lg.move) {
        if (mv.key !== ui.token || mv.card !== picked[0]) continue;
        result.set(mv.to, { type: "move", card: mv.card, key: mv.key, steps: mv.steps });
      }
      return result;
    }
    if (picked.length > 0) {
      const keys = lg.place[placeKey(picked)] || [];
      for (const key of keys) result.set(key, { type: "place", cards: [...picked].sort((a, b) => a - b), key });
    }
    return result;
  }

  function onBoardClick(event, p) {
    const key = keyAt(event, p);
    if (key === null) return;
    ui.keyFocus = key;
    onKey(key);
  }

  // The key a click lands on is the key drawn at that point: a token names the key it
  // stands on; anywhere else it is the key on top there (a black key over the white keys
  // beside it). Rings, dots, marks and names only show; they never take a click.
  function keyAt(event, p) {
    const token = event.target instanceof Element ? event.target.closest(".mg-duel-token") : null;
    if (token) return Number(token.getAttribute("data-board-key"));
    const drawn = event.detail > 0 ? document.elementsFromPoint(event.clientX, event.clientY) : [];
    const rect = drawn.find((node) => node.matches("rect.mg-key") && pianos[p].keys.contains(node));
    const hit = rect || (event.target instanceof Element ? event.target.closest("rect.mg-key") : null);
    return hit ? p * 12 + Number(hit.getAttribute("data-key")) : null;
  }

  function onKey(key) {
    if (!canAct() || table().duel_active) return;
    const goal = targets().get(key);
    if (goal) {
      act(goal, key);
      return;
    }
    const tb = table();
    const mine = (tb.tokens || []).find((tok) => tok.key === key && tok.seat === tb.you && !tok.arriving);
    const movable = mine && legal().move.some((mv) => mv.key === key);
    if (movable) {
      ui.token = ui.token === key ? null : key;
      // a selection that cannot move this token is dropped
      const picked = [...ui.selected];
      if (ui.token !== null && !(picked.length === 1 && legal().move.some((mv) => mv.key === key && mv.card === picked[0]))) {
        ui.selected.clear();
      }
      draw();
    } else if (ui.token !== null || ui.selected.size) {
      clearSelection();
    }
  }

  function clearSelection() {
    ui.token = null;
    ui.selected.clear();
    draw();
  }

  function cardUse(id) {
    // What clicking this card in the hand would do now: "duel", "select" or null.
    const tb = table();
    const lg = legal();
    if (!canAct()) return null;
    if (tb.duel_active) return lg.duel_cards.includes(id) ? "duel" : null;
    if (ui.selected.has(id)) return "select";
    if (ui.token !== null) {
      return lg.move.some((mv) => mv.key === ui.token && mv.card === id) ? "select" : null;
    }
    const wanted = [...ui.selected, id];
    for (const combo of Object.keys(lg.place)) {
      const ids = combo.split(",").map(Number);
      if (wanted.every((c) => ids.includes(c))) return "select";
    }
    if (ui.selected.size === 0) {
      if (lg.move.some((mv) => mv.card === id) || lg.shift.some((sh) => sh.card === id)) return "select";
    }
    return null;
  }

  function onCard(id) {
    ui.handFocus = id;
    const use = cardUse(id);
    if (use === "duel") {
      act({ type: "duel_card", card: id });
    } else if (use === "select") {
      if (ui.token !== null) {
        const had = ui.selected.has(id);
        ui.selected.clear();
        if (!had) ui.selected.add(id);
      } else if (ui.selected.has(id)) ui.selected.delete(id);
      else ui.selected.add(id);
      draw();
    }
  }

  // -- the keyboard ----------------------------------------------------------------------
  function shortcut(name) {
    const tb = table();
    const press = (selector) => {
      const node = root.querySelector(selector);
      if (node && !node.disabled && !node.closest("[hidden]")) node.click();
    };
    if (name === "rules") toggleRules();
    else if (name === "hint") press(".mg-duel-hint-btn");
    else if (name === "undo") press(".mg-duel-undo");
    else if (name === "end") press(".mg-duel-end");
    else if (name === "lock") press(".mg-duel-lock");
    else if (name === "next" && tb.screen === "round_end") press(".mg-duel-next");
  }

  function openDialog() {
    return ui.rules ? rulesBox.querySelector(".mg-duel-dialog") : overlay.hidden ? null : overlay.querySelector(".mg-duel-dialog");
  }

  // Tab: a modal dialog holds the focus (the shared guard leaves Tab to the page).
  function onTab(event) {
    const dialog = openDialog();
    if (event.key === "Tab" && dialog) {
      // a modal dialog holds focus
      const stops = tabbables(dialog);
      if (!stops.length) return;
      const first = stops[0];
      const last = stops[stops.length - 1];
      if (!dialog.contains(document.activeElement)) {
        event.preventDefault();
        first.focus();
      } else if (event.shiftKey && document.activeElement === first) {
        event.preventDefault();
        last.focus();
      } else if (!event.shiftKey && document.activeElement === last) {
        event.preventDefault();
        first.focus();
      }
    }
  }
  root.addEventListener("keydown", onTab);

  // Every other key pressed in the widget comes here through the shared guard (_focus.js),
  // which keeps it from the notebook; Enter and Space on a button click the button.
  function onKeydown(event) {
    const target = event.target;
    const dialog = openDialog();
    if (event.key === "Escape") {
      event.preventDefault();
      if (ui.rules) toggleRules();
      else if (ui.chooser && table().screen !== "setup") closeChooser();
      else clearSelection();
      return;
    }
    if (dialog) {
      if (ui.rules) scrollRules(event);
      return;
    }
    const keyButton = target instanceof Element ? target.closest("[data-key-button]") : null;
    const cardButton = target instanceof Element ? target.closest(".mg-duel-hand .mg-duel-card") : null;
    const arrows = { ArrowLeft: -1, ArrowRight: 1, ArrowUp: -12, ArrowDown: 12 };
    if (keyButton && event.key in arrows) {
      event.preventDefault();
      const step = arrows[event.key];
      // focus moves along the keys drawn, round from the last to the first
      const count = board.querySelectorAll("[data-key-button]").length;
      focusKey((Number(keyButton.dataset.keyButton) + step + count) % count);
      return;
    }
    if (keyButton && (event.key === "Home" || event.key === "End")) {
      event.preventDefault();
      focusKey(event.key === "Home" ? 0 : board.querySelectorAll("[data-key-button]").length - 1);
      return;
    }
    if (cardButton && (event.key === "ArrowLeft" || event.key === "ArrowRight")) {
      event.preventDefault();
      const cards = [...handRow.querySelectorAll(".mg-duel-card")];
      const at = cards.indexOf(cardButton);
      const next = cards[(at + (event.key === "ArrowRight" ? 1 : -1) + cards.length) % cards.length];
      if (next) {
        ui.handFocus = Number(next.dataset.id);
        for (const c of cards) c.tabIndex = c === next ? 0 : -1;
        next.focus();
      }
      return;
    }
    const name = shortcutFor(event.key);
    if (name && event.key.length === 1) {
      event.preventDefault();
      shortcut(name);
    }
  }
  const guard = guardKeys(root, { onKey: onKeydown, label: () => t("duel.focus") });

  // Space in the rules panel pages through it, as on any page that scrolls — also on its
  // close button, which the shared guard would otherwise let click (and close the panel
  // under a reader paging down). The button closes on Enter, a click or Escape.
  function onRulesSpace(event) {
    if (event.code !== "Space" || event.ctrlKey || event.altKey || event.metaKey) return;
    event.preventDefault(); // no click on the focused button (it would come on keyup)
    event.stopPropagation();
    if (event.type === "keydown") scrollRules(event);
  }
  rulesBox.addEventListener("keydown", onRulesSpace, true);
  rulesBox.addEventListener("keyup", onRulesSpace, true);

  // The rules panel scrolls by keyboard: arrows, Page Up / Page Down, Space, Home and End.
  function scrollRules(event) {
    const box = rulesBox.querySelector(".mg-duel-dialog");
    if (!box) return;
    const page = Math.max(40, box.clientHeight - 40);
    const steps = { ArrowDown: 40, ArrowUp: -40, PageDown: page, PageUp: -page, " ": event.shiftKey ? -page : page };
    if (event.key in steps) box.scrollTop += steps[event.key];
    else if (event.key === "Home") box.scrollTop = 0;
    else if (event.key === "End") box.scrollTop = box.scrollHeight;
    else return;
    event.preventDefault();
  }

  function focusKey(key) {
    ui.keyFocus = key;
    for (const node of board.querySelectorAll("[data-key-button]")) {
      node.tabIndex = Number(node.dataset.keyButton) === key ? 0 : -1;
    }
    const node = board.querySelector('[data-key-button="' + key + '"]');
    if (node) node.focus();
  }

  // What has focus, as a name that survives a redraw ("card:12", "key:5", "btn:mg-duel-end").
  function focusName() {
    const active = document.activeElement;
    if (!active || !root.contains(active)) return null;
    const named = active.closest("[data-focus]");
    return named ? named.dataset.focus : active === root ? "root" : null;
  }

  function restoreFocus(name) {
    if (!name || name === "root") return;
    const active = document.activeElement;
    if (active && root.contains(active) && active.dataset.focus === name && active.isConnected) return;
    let node = root.querySelector('[data-focus="' + name + '"]');
    if (node && (node.disabled || node.closest("[hidden]"))) node = null;
    if (!node && name.startsWith("card:")) node = handRow.querySelector(".mg-duel-card:not([disabled])") || handRow.querySelector(".mg-duel-card");
    if (!node && name.startsWith("btn:mg-duel-move")) node = handRow.querySelector(".mg-duel-card[tabindex='0']");
    if (!node && name.startsWith("btn:")) node = actions.querySelector("button:not([disabled])");
    (node || root).focus({ preventScroll: true });
  }

  // -- dialogs ---------------------------------------------------------------------------
  function rememberFocus() {
    const active = document.activeElement;
    ui.returnFocus = active && root.contains(active) ? focusName() || "root" : "root";
  }

  function giveFocusBack() {
    const name = ui.returnFocus;
    ui.returnFocus = null;
    draw();
    if (name === "root" || !name) root.focus({ preventScroll: true });
    else restoreFocus(name);
  }

  function toggleRules() {
    if (!ui.rules) {
      rememberFocus();
      ui.rules = true;
      draw();
      const close = rulesBox.querySelector(".mg-duel-rules-close");
      if (close) close.focus({ preventScroll: true });
    } else {
      ui.rules = false;
      giveFocusBack();
    }
  }

  function openChooser() {
    rememberFocus();
    ui.chooser = true;
    draw();
    const first = overlay.querySelector(".mg-duel-opponent");
    if (first) first.focus({ preventScroll: true });
  }

  function closeChooser() {
    ui.chooser = false;
    giveFocusBack();
  }

  // A dialog's grey layer covers the whole widget (CSS); the dialog itself sits in the part
  // of the widget a person can see, whatever its scroll position.
  function placeDialogs() {
    const box = visibleBox(root);
    for (const layer of [rulesBox, overlay]) {
      const dialog = layer.hidden ? null : layer.querySelector(".mg-duel-dialog");
      if (!dialog) continue;
      const height = Math.max(box.height, 240);
      const top = Math.min(Math.max(0, box.top), Math.max(0, root.clientHeight - height));
      dialog.style.marginTop = top + "px";
      dialog.style.maxHeight = Math.max(200, height - 28) + "px";
    }
  }

  // -- drawing ---------------------------------------------------------------------------
  function drawCards() {
    const svgs = model.get("cards_svg") || [];
    pianos.forEach((piano, p) => {
      const text = svgs[p] || "";
      if (text === piano.svgText) return;
      piano.svgText = text;
      piano.keys.innerHTML = text;
      piano.svg = piano.keys.querySelector("svg");
      piano.overlay = null;
      piano.hits.replaceChildren();
      if (!piano.svg) return;
      piano.svg.removeAttribute("width");
      piano.svg.removeAttribute("height");
      piano.svg.classList.add("mg-duel-svg");
      piano.svg.setAttribute("aria-hidden", "true");
      piano.overlay = s("g", { class: "mg-duel-layer" });
      piano.svg.appendChild(piano.overlay);
      // the keys' names and marks over the rings, dots and hints: a lit key still shows them
      const words = s("g", { class: "mg-duel-words" });
      for (const text of [...piano.svg.querySelectorAll(":scope > text")]) words.appendChild(text);
      piano.svg.appendChild(words);
      const vb = piano.svg.viewBox.baseVal;
      piano.box = vb;
      const rects = [...piano.svg.querySelectorAll("rect.mg-key")];
      // white keys first, black keys over them (the same order as on the drawing)
      rects.sort((a, b) => Number(a.classList.contains("mg-black")) - Number(b.classList.contains("mg-black")));
      for (const rect of rects) {
        const key = p * 12 + Number(rect.getAttribute("data-key"));
        rect.setAttribute("data-board", key);
        const x = Number(rect.getAttribute("x"));
        const y = Number(rect.getAttribute("y"));
        const w = Number(rect.getAttribute("width"));
        const hgt = Number(rect.getAttribute("height"));
        // a real button over each key: it takes focus and shows it; clicks go to the drawing
        const hit = h("button", {
          type: "button", class: "mg-duel-keybtn" + (rect.classList.contains("mg-black") ? " is-black" : ""),
          "data-key-button": key, "data-focus": "key:" + key, tabindex: "-1",
          onclick: (event) => {
            event.stopPropagation();
            ui.keyFocus = key;
            onKey(key);
          },
        });
        hit.style.left = ((x - vb.x) / vb.width) * 100 + "%";
        hit.style.width = (w / vb.width) * 100 + "%";
        hit.style.top = ((y - vb.y) / vb.height) * 100 + "%";
        hit.style.height = (hgt / vb.height) * 100 + "%";
        piano.hits.appendChild(hit);
      }
    });
  }

  function keyRect(key) {
    const piano = pianos[Math.floor(key / 12)];
    if (!piano || !piano.svg) return null;
    return piano.svg.querySelector('rect.mg-key[data-key="' + (key % 12) + '"]');
  }

  function geometry(key) {
    const rect = keyRect(key);
    if (!rect) return null;
    const x = Number(rect.getAttribute("x"));
    const w = Number(rect.getAttribute("width"));
    const hgt = Number(rect.getAttribute("height"));
    const black = rect.classList.contains("mg-black");
    return { x, w, h: hgt, black, cx: x + w / 2 };
  }

  // The outline of the part of a key in sight, ``inset`` inside its edge, as SVG points: a
  // white key's steps in beside the black keys over it, so a ring never crosses them.
  function keyOutline(key, inset) {
    const g = geometry(key);
    const left = g.x + inset, right = g.x + g.w - inset, top = inset, bottom = g.h - inset;
    const points = [[left, top], [right, top], [right, bottom], [left, bottom]];
    if (!g.black) {
      let inLeft = left, inRight = right, low = top;
      for (const rect of pianos[Math.floor(key / 12)].svg.querySelectorAll("rect.mg-key.mg-black")) {
        const bx = Number(rect.getAttribute("x"));
        const bw = Number(rect.getAttribute("width"));
        if (bx >= g.x + g.w || bx + bw <= g.x) continue;
        if (bx + bw / 2 < g.cx) inLeft = Math.max(inLeft, bx + bw + inset);
        else inRight = Math.min(inRight, bx - inset);
        low = Math.max(low, Number(rect.getAttribute("height")) + inset);
      }
      points.splice(0, points.length, [inLeft, top], [inRight, top]);
      if (inRight < right) points.push([inRight, low], [right, low]);
      points.push([right, bottom], [left, bottom]);
      if (inLeft > left) points.push([left, low], [inLeft, low]);
    }
    return points.map(([x, y]) => x.toFixed(1) + "," + y.toFixed(1)).join(" ");
  }

  // A token: power, white pips for its dice (D11a), and a gold number, what it scores (D13).
  // On a white key it sits above the key's note name, which stays readable.
  function drawToken(layer, tok, tb) {
    const g = geometry(tok.key);
    if (!g) return;
    const w = 21;
    const hgt = 23;
    const x = g.cx - w / 2;
    // a token still arriving (in a duel for this key) waits above the holder
    const y = tok.arriving ? (g.black ? 40 : 36) : g.black ? 12 : 62;
    const group = s("g", {
      class: "mg-duel-token mg-duel-token-" + tok.seat,
      "data-board-key": tok.key,
      "data-seat": tok.seat,
      "data-power": tok.power,
      "data-score": tok.score,
    });
    if (tok.seat === tb.you && ui.token === tok.key) group.classList.add("is-picked");
    if (tb.duel_key === tok.key) group.classList.add("is-dueling");
    if (tok.arriving) group.classList.add("is-arriving");
    if (tb.board_finished) group.classList.add("is-scored");
    group.appendChild(s("rect", { x, y, width: w, height: hgt, rx: 3.5, class: "mg-duel-chip" }));
    const power = s("text", { x: g.cx, y: y + 9.5, "text-anchor": "middle", class: "mg-duel-power" });
    power.textContent = tok.power;
    group.appendChild(power);
    group.appendChild(s("rect", { x: x + 2, y: y + 11.5, width: w - 4, height: 4.5, rx: 1.5, class: "mg-duel-pipband" }));
    for (let i = 0; i < tok.dice; i++) {
      const px = g.cx + (i - (tok.dice - 1) / 2) * 5;
      group.appendChild(s("circle", { cx: px, cy: y + 13.75, r: 1.4, class: "mg-duel-pip" }));
    }
    const gold = s("text", { x: g.cx, y: y + hgt - 1.6, "text-anchor": "middle", class: "mg-duel-gold" });
    gold.textContent = tok.score;
    group.appendChild(gold);
    const tip = s("title");
    tip.textContent = tok.title || "";
    group.appendChild(tip);
    layer.appendChild(group);
  }

  // A key's accessible name: the key ("Re, left card, ff"), or the token on it, which says
  // its key first ("Re, left card, ff, your power-3 token, scores 6").
  function keyName(tb, key) {
    const info = (tb.pianos || [])[Math.floor(key / 12)];
    const tokens = (tb.tokens || []).filter((tok) => tok.key === key);
    if (tokens.length) return tokens.map((tok) => tok.label).join("; ");
    return info && info.keys ? info.keys[key % 12] : String(key);
  }

  function drawBoard(tb) {
    const goals = targets();
    const hintKeys = new Set((tb.hint && tb.hint.keys) || []);
    board.setAttribute("aria-label", t("duel.aria.board"));
    board.classList.toggle("is-finished", !!tb.board_finished);
    pianos.forEach((piano, p) => {
      const pianoInfo = (tb.pianos || [])[p] || {};
      piano.name.textContent = pianoInfo.name || "";
      piano.card.title = pianoInfo.tones_text || "";
      if (!piano.overlay) return;
      piano.overlay.replaceChildren();
      for (const rect of piano.svg.querySelectorAll("rect.mg-key")) {
        const key = Number(rect.getAttribute("data-board"));
        rect.classList.toggle("is-target", goals.has(key));
        rect.classList.toggle("is-hint", hintKeys.has(key));
      }
      for (const key of hintKeys) {
        if (Math.floor(key / 12) !== p) continue;
        const g = geometry(key);
        if (!g) continue;
        piano.overlay.appendChild(s("polygon", { points: keyOutline(key, 1.2), class: "mg-duel-hintmark" }));
      }
      for (const tok of tb.tokens || []) {
        if (Math.floor(tok.key / 12) === p) drawToken(piano.overlay, tok, tb);
      }
      for (const key of goals.keys()) {
        if (Math.floor(key / 12) !== p) continue;
        const g = geometry(key);
        if (!g) continue;
        // a ring round the part of the key in sight (over tokens too: an attack rings the
        // opponent's token), and a marker on the part of the key a person sees
        piano.overlay.appendChild(
          s("polygon", { points: keyOutline(key, 1.5), class: "mg-duel-target", "data-board-key": key })
        );
        piano.overlay.appendChild(
          s("circle", { cx: g.cx, cy: g.black ? 8 : 54, r: 3.2, class: "mg-duel-target-dot", "data-board-key": key })
        );
      }
      if (ui.pending && ui.pending.key !== null && Math.floor(ui.pending.key / 12) === p) {
        // shown at once, before the kernel answers
        const g = geometry(ui.pending.key);
        if (g) {
          piano.overlay.appendChild(
            s("rect", { x: g.cx - 10.5, y: g.black ? 12 : 62, width: 21, height: 23, rx: 3.5, class: "mg-duel-ghost" })
          );
        }
      }
      for (const hit of piano.hits.children) {
        const key = Number(hit.dataset.keyButton);
        let label = keyName(tb, key);
        if (goals.has(key)) label = t("duel.aria.key_target", { key: label });
        hit.setAttribute("aria-label", label);
        hit.classList.toggle("is-target", goals.has(key));
        hit.setAttribute("aria-pressed", String(ui.token === key));
        hit.tabIndex = key === ui.keyFocus ? 0 : -1;
      }
      // arrow cards: shift every token of yours on this piano card
      piano.shiftRow.replaceChildren();
      const picked = [...ui.selected];
      if (canAct() && !tb.duel_active && picked.length === 1 && ui.token === null) {
        for (const sh of legal().shift) {
          if (sh.card !== picked[0] || sh.piano !== p) continue;
          const node = button("mg-duel-shift", t(sh.up ? "duel.button.shift_up" : "duel.button.shift_down"), () =>
            act({ type: "shift", card: sh.card, piano: p })
          );
          node.dataset.focus = "btn:mg-duel-shift-" + p;
          piano.shiftRow.appendChild(node);
        }
      }
    });
  }

  function drawPlayers(tb) {
    for (const seat of SEATS) {
      const info = (tb.players || {})[seat];
      const view = players[seat];
      if (!info) continue;
      view.box.classList.toggle("is-to-act", tb.to_act === seat);
      view.name.textContent = info.name;
      view.tray.setAttribute("aria-label", info.tray_label || "");
      view.tray.replaceChildren();
      (info.tray || []).forEach((state, i) => {
        const name = (info.tray_names || [])[i] || state;
        const slot = h("span", {
          class: "mg-duel-slot is-" + state, "data-state": state, "data-index": i,
          title: name, role: "listitem", "aria-label": name,
        }, state === "merged" ? "+" : null);
        view.tray.appendChild(slot);
      });
      view.total.textContent = t("duel.label.total", { total: info.total });
      view.total.dataset.value = info.total;
      view.running.textContent = t("duel.label.running", { running: info.running });
      view.running.dataset.value = info.running;
    }
  }

  function cardFace(card, extra) {
    const node = h("button", {
      type: "button", class: "mg-duel-card" + (card.wild ? " is-wild" : "") + (extra ? " " + extra : ""),
      "data-id": card.id, "data-code": card.code, title: card.title || "",
    },
      h("span", { class: "mg-duel-card-corner", "aria-hidden": "true" }, card.corner),
      h("span", { class: "mg-duel-card-letter", "aria-hidden": "true" }, card.wild ? t("duel.card.wild") : card.letter),
      h("span", { class: "mg-duel-card-corner mg-duel-card-corner-low", "aria-hidden": "true" }, card.corner),
    );
    return node;
  }

  function drawHand(tb) {
    handRow.replaceChildren();
    handRow.hidden = !!tb.board_finished;
    handRow.setAttribute("aria-label", t("duel.aria.hand"));
    handRow.appendChild(h("div", { class: "mg-duel-hand-label", "aria-hidden": "true" }, t("duel.label.hand")));
    const hints = new Set((tb.hint && tb.hint.cards) || []);
    const hand = tb.hand || [];
    if (!hand.some((c) => c.id === ui.handFocus)) ui.handFocus = hand.length ? hand[0].id : null;
    for (const card of hand) {
      const use = cardUse(card.id);
      const node = cardFace(card, "");
      node.dataset.focus = "card:" + card.id;
      node.tabIndex = card.id === ui.handFocus ? 0 : -1;
      const selected = ui.selected.has(card.id);
      node.classList.toggle("is-selected", selected);
      node.classList.toggle("is-hint", hints.has(card.id));
      node.classList.toggle("is-duel-play", use === "duel");
      node.setAttribute("aria-pressed", String(selected));
      // a card that cannot be used now stays focusable (its name is still read), but does nothing
      node.setAttribute("aria-disabled", String(use === null));
      node.classList.toggle("is-idle", use === null);
      let label = card.title || card.label;
      if (use === "duel" && tb.duel && tb.duel.card_chance && tb.duel.card_chance[card.id] !== undefined) {
        const chance = percent(model.get("strings"), tb.duel.card_chance[card.id]);
        node.appendChild(h("span", { class: "mg-duel-card-chance", "aria-hidden": "true" }, "→ " + chance));
        label += " → " + chance;
      }
      node.setAttribute("aria-label", label);
      node.addEventListener("click", (event) => {
        event.stopPropagation(); // the focus stays on the card (see _focus.js)
        onCard(card.id);
      });
      handRow.appendChild(node);
    }
  }

  function drawChoices(tb) {
    choices.replaceChildren();
    choices.hidden = !!tb.board_finished;
    if (!canAct() || tb.duel_active) return;
    const lg = legal();
    if (ui.token !== null) {
      // Move: the token is chosen; offer every number card and direction that is legal
      const picked = [...ui.selected];
      const options = lg.move.filter((mv) => mv.key === ui.token && (picked.length === 0 || mv.card === picked[0]));
      choices.appendChild(h("span", { class: "mg-duel-choices-label" }, t("duel.help.move_choose")));
      for (const mv of options) {
        const node = button("mg-duel-move" + (mv.duel ? " is-duel" : ""), (mv.steps < 0 ? "← " : "") + mv.label + (mv.steps > 0 ? " →" : ""),
          () => act({ type: "move", card: mv.card, key: mv.key, steps: mv.steps }, mv.to));
        node.dataset.card = mv.card;
        node.dataset.steps = mv.steps;
        node.dataset.to = mv.to;
        node.dataset.focus = "btn:mg-duel-move:" + mv.card + ":" + mv.steps;
        choices.appendChild(node);
      }
    } else if (ui.selected.size) {
      const combo = lg.place[placeKey(ui.selected)];
      const only = [...ui.selected][0];
      const arrow = ui.selected.size === 1 && lg.shift.some((sh) => sh.card === only);
      const mover = ui.selected.size === 1 && lg.move.some((mv) => mv.card === only);
      const tips = [];
      if (combo) tips.push(t("duel.help.place_key", { power: ui.selected.size }));
      if (mover) tips.push(t("duel.help.move_token"));
      if (arrow) tips.push(t("duel.help.shift_card"));
      if (!tips.length) tips.push(t("duel.help.add_cards"));
      choices.appendChild(h("span", { class: "mg-duel-choices-label" }, tips.join(" ")));
    } else {
      choices.appendChild(h("span", { class: "mg-duel-choices-label" }, t(tb.turn_help || "duel.help.start")));
    }
  }

  function drawRun(seat, duel) {
    const side = duel.sides[seat];
    const dice = h("div", { class: "mg-duel-dice", "aria-label": side.dice_label || "" });
    for (const value of side.dice) dice.appendChild(dieSvg(value));
    if (side.added) dice.appendChild(h("span", { class: "mg-duel-added" }, "+" + side.added));
    dice.appendChild(h("span", { class: "mg-duel-side-total", "data-value": side.total }, "= " + side.total));
    const run = h("ol", { class: "mg-duel-run" });
    for (const step of side.run) {
      const face = cardFace(step.card, "is-small");
      face.tabIndex = -1;
      face.setAttribute("aria-hidden", "true");
      run.appendChild(h("li", { class: "mg-duel-run-step" }, face, h("span", { class: "mg-duel-run-effect" }, step.card.label + " " + step.effect)));
    }
    return h("div", { class: "mg-duel-side-box mg-duel-side-" + seat, "data-seat": seat },
      h("div", { class: "mg-duel-side-head" },
        h("span", { class: "mg-duel-side-name" }, side.title),
        side.locked ? h("span", { class: "mg-duel-locked" }, t("duel.label.locked")) : null),
      dice, run);
  }

  function drawDuel(tb) {
    duelPanel.replaceChildren();
    const duel = tb.duel;
    if (!duel || ui.dismissedDuel === duel.id) {
      duelPanel.hidden = true;
      return;
    }
    duelPanel.hidden = false;
    duelPanel.dataset.stage = duel.stage;
    duelPanel.setAttribute("aria-label", duel.title);
    duelPanel.appendChild(h("div", { class: "mg-duel-duel-head" }, duel.title));
    // what to do now comes first, so Lock in is in sight with the board (1024×768 included)
    if (!duel.result && duel.you_decide && canAct()) {
      const lock = button("mg-duel-lock", t("duel.button.lock_in") + " (" + keyOf("lock") + ")", () => act({ type: "lock_in" }), { "aria-keyshortcuts": keyOf("lock") });
      lock.disabled = !legal().lock_in;
      duelPanel.appendChild(h("div", { class: "mg-duel-duel-now" }, lock, h("span", { class: "mg-duel-duel-help" }, t(duel.help))));
    } else if (!duel.result) {
      duelPanel.appendChild(h("div", { class: "mg-duel-duel-help" }, t("duel.help.duel_wait")));
    }
    duelPanel.appendChild(h("div", { class: "mg-duel-duel-sides" },
      drawRun(duel.attacker, duel), h("div", { class: "mg-duel-vs" }, t("duel.label.vs")), drawRun(duel.defender, duel)));
    const odds = h("div", { class: "mg-duel-odds" });
    (duel.odds_lines || []).forEach((line, i) => {
      odds.appendChild(h("div", { class: "mg-duel-odds-line" + (i === 1 ? " mg-duel-chance-now" : "") }, line));
    });
    duelPanel.appendChild(odds);
    if (duel.result) {
      duelPanel.appendChild(h("div", { class: "mg-duel-result", role: "status" }, duel.result));
      if (duel.decided) duelPanel.appendChild(h("div", { class: "mg-duel-decided" }, duel.decided));
      if (!tb.duel_active) {
        duelPanel.appendChild(button("mg-duel-close", t("duel.button.close"), () => {
          ui.dismissedDuel = duel.id;
          draw();
          root.focus({ preventScroll: true });
        }));
      }
    }
  }

  function drawActions(tb) {
    actions.replaceChildren();
    actions.hidden = !!tb.board_finished;
    const end = button("mg-duel-end", t("duel.button.end_turn"), () => act({ type: "end_turn" }), { "aria-keyshortcuts": keyOf("end") });
    end.disabled = !(canAct() && legal().end_turn && !tb.duel_active);
    const undo = button("mg-duel-undo", t(tb.undo_label || "duel.button.take_back"), () => {
      ui.selected.clear();
      ui.token = null;
      send({ type: "undo" });
    }, { "aria-keyshortcuts": keyOf("undo") });
    undo.disabled = !tb.can_undo || !!ui.pending;
    const hint = button("mg-duel-hint-btn", t("duel.button.hint"), () => send({ type: "hint" }), { "aria-keyshortcuts": keyOf("hint") });
    hint.disabled = !canAct();
    const clear = button("mg-duel-clear", t("duel.button.clear"), clearSelection, { "aria-keyshortcuts": "Escape" });
    clear.disabled = !(ui.selected.size || ui.token !== null);
    actions.append(end, clear, hint, undo);
  }

  function drawHeader(tb) {
    title.textContent = t("duel.title");
    root.setAttribute("aria-label", t("duel.title"));
    status.textContent = tb.status || "";
    status.classList.toggle("is-thinking", !!tb.thinking);
    controls.replaceChildren();
    const newGame = button("mg-duel-new", t("duel.button.new_game"), openChooser);
    const naming = h("select", { class: "mg-duel-naming", "aria-label": t("duel.label.naming"), "data-focus": "naming" });
    for (const [value, key] of [["solfege", "duel.naming.solfege"], ["letters", "duel.naming.letters"]]) {
      naming.appendChild(h("option", { value, selected: tb.naming === value }, t(key)));
    }
    naming.addEventListener("change", () => send({ type: "settings", naming: naming.value }));
    const language = h("select", { class: "mg-duel-language", "aria-label": t("duel.label.language"), "data-focus": "language" });
    for (const [value, label] of tb.languages || []) {
      language.appendChild(h("option", { value, selected: tb.language === value }, label));
    }
    language.addEventListener("change", () => send({ type: "settings", language: language.value }));
    const rules = button("mg-duel-rules-btn", t("duel.button.rules"), toggleRules,
      { "aria-haspopup": "dialog", "aria-expanded": String(ui.rules), "aria-keyshortcuts": keyOf("rules") });
    controls.append(newGame, rules, naming, language, sound.control);
  }

  function drawLog(tb) {
    logTitle.textContent = t("duel.label.log");
    logBox.setAttribute("aria-label", t("duel.aria.log"));
    const lines = tb.log || [];
    const last = lines.length ? lines[lines.length - 1].text : "";
    if (logBox.childElementCount === lines.length && logBox.dataset.game === String(tb.game) && logBox.dataset.last === last) return;
    logBox.replaceChildren();
    for (const line of lines) {
      logBox.appendChild(line.head
        ? h("div", { class: "mg-duel-log-line mg-duel-log-head", role: "heading", "aria-level": "4" }, line.text)
        : h("div", { class: "mg-duel-log-line" }, line.text));
    }
    logBox.dataset.game = String(tb.game);
    logBox.dataset.last = last;
    logBox.scrollTop = logBox.scrollHeight; // the newest in view
  }

  function dialog(labelText, extraClass, ...children) {
    const id = "mg-duel-dialog-" + Math.random().toString(36).slice(2);
    return h("div", { class: "mg-duel-dialog " + extraClass, role: "dialog", "aria-modal": "true", "aria-labelledby": id },
      h("h3", { id }, labelText), ...children);
  }

  function drawRules(tb) {
    rulesBox.hidden = !ui.rules;
    if (!ui.rules) return;
    const before = rulesBox.querySelector(".mg-duel-dialog");
    const scrolled = before ? before.scrollTop : 0; // a redraw keeps the reader's place
    rulesBox.replaceChildren();
    const body = h("div", { class: "mg-duel-rules-body" });
    for (const key of tb.rules_keys || []) {
      const text = t(key);
      body.appendChild(key.endsWith(".head") ? h("h4", {}, text) : h("p", {}, text));
    }
    const keys = h("dl", { class: "mg-duel-shortcuts" });
    for (const [key, what] of tb.shortcuts || []) keys.append(h("dt", {}, h("kbd", {}, key)), h("dd", {}, what));
    body.appendChild(keys);
    // the close button at the top, beside the title, in sight however far the rules scroll
    const box = dialog(t("duel.rules.title"), "mg-duel-rules", body);
    const close = button("mg-duel-rules-close", t("duel.button.rules_hide"), toggleRules);
    box.insertBefore(h("div", { class: "mg-duel-dialog-head" }, box.querySelector("h3"), close), body);
    rulesBox.appendChild(box);
    box.scrollTop = scrolled;
    placeDialogs();
  }

  function breakdownTable(result) {
    const wrap = h("div", { class: "mg-duel-breakdown" });
    for (const seat of SEATS) {
      const side = result[seat];
      wrap.appendChild(h("div", { class: "mg-duel-breakdown-side", "data-seat": seat },
        h("div", { class: "mg-duel-breakdown-name" }, side.name),
        h("ul", { class: "mg-duel-breakdown-lines" }, side.lines.map((line) => h("li", {}, line))),
        h("div", { class: "mg-duel-breakdown-score", "data-value": side.score }, side.summary)));
    }
    return wrap;
  }

  // The end of a round: the finished board stays on the table (each token's gold number is
  // what it scored), the breakdown beside it, then "Next round".
  function drawRoundEnd(tb) {
    roundPanel.replaceChildren();
    const shown = (tb.screen === "round_end" || tb.screen === "game_over") && tb.result;
    roundPanel.hidden = !shown;
    if (!shown) return;
    roundPanel.className = "mg-duel-roundend mg-duel-" + tb.screen.replace("_", "-");
    roundPanel.setAttribute("aria-label", tb.result.title);
    roundPanel.append(
      h("h3", {}, tb.result.title),
      h("p", { class: "mg-duel-finished-note" }, t("duel.label.finished_board", { round: (tb.result && tb.result.round) || "" })),
      breakdownTable(tb.result),
      h("p", { class: "mg-duel-result-line" }, tb.result.line),
    );
    if (tb.screen === "round_end") {
      roundPanel.appendChild(button("mg-duel-next", t("duel.button.next_round"), () => send({ type: "continue" }), { "aria-keyshortcuts": keyOf("next") }));
    } else {
      roundPanel.appendChild(button("mg-duel-again", t("duel.button.play_again"), openChooser));
    }
  }

  function drawOverlay(tb) {
    overlay.replaceChildren();
    const showing = ui.chooser || tb.screen === "setup";
    overlay.hidden = !showing;
    if (!showing) return;
    const box = dialog(t("duel.opponent.prompt"), "mg-duel-chooser", h("p", {}, t("duel.opponent.you_white")));
    for (const level of tb.opponents || []) {
      const choice = button("mg-duel-opponent", level.name, () => {
        ui.chooser = false;
        ui.selected.clear();
        ui.token = null;
        ui.dismissedDuel = null;
        ui.returnFocus = null;
        send({ type: "new_game", opponent: level.id });
        root.focus({ preventScroll: true });
      });
      choice.dataset.opponent = level.id;
      choice.dataset.focus = "opponent:" + level.id;
      box.append(choice, h("p", { class: "mg-duel-opponent-about" }, level.about));
    }
    if (tb.screen !== "setup") box.appendChild(button("mg-duel-cancel", t("duel.button.cancel"), closeChooser));
    overlay.appendChild(box);
    placeDialogs();
  }

  // Sounds for what just appeared: the round's chords (left card, then right), a duel's end.
  function playSounds(tb) {
    const first = !ui.soundsSeen; // what shows on the first drawing is not news
    ui.soundsSeen = true;
    const round = tb.sound || null;
    const stopChords = () => soundTimers.splice(0).forEach((id) => clearTimeout(id));
    if (tb.screen !== "play") stopChords(); // a round's chords do not outlast it
    if (round && round.id !== ui.soundRound) {
      ui.soundRound = round.id;
      stopChords();
      if (!first && tb.screen === "play") {
        (round.chords || []).forEach((chord, i) => {
          soundTimers.push(setTimeout(() => sound.play(chord), i * 1100));
        });
      }
    }
    const duel = tb.duel && tb.duel.sound ? tb.duel : null;
    if (duel && duel.id !== ui.soundDuel) {
      ui.soundDuel = duel.id;
      if (!first) sound.play(duel.sound);
    }
  }

  function draw() {
    const tb = table();
    const focused = focusName();
    if (tb.game !== ui.game) {
      ui.game = tb.game;
      ui.selected.clear();
      ui.token = null;
    }
    // drop selections that stopped being possible
    for (const id of [...ui.selected]) {
      if (!(tb.hand || []).some((c) => c.id === id)) ui.selected.delete(id);
    }
    if (ui.token !== null && !legal().move.some((mv) => mv.key === ui.token)) ui.token = null;
    const screenChanged = tb.screen !== ui.screen;
    ui.screen = tb.screen;
    root.classList.toggle("is-busy", !!ui.pending || !!tb.thinking);
    // state on the root element, for people's style sheets and for tests
    root.dataset.screen = tb.screen || "";
    root.dataset.busy = String(!!ui.pending || !!tb.thinking);
    root.dataset.yourTurn = String(!!tb.your_turn);
    root.dataset.toAct = tb.to_act || "";
    root.dataset.seq = tb.seq === undefined ? "" : String(tb.seq);
    root.dataset.finished = String(!!tb.board_finished);
    root.dataset.duel = String(!!tb.duel && ui.dismissedDuel !== (tb.duel && tb.duel.id));
    drawHeader(tb);
    drawPlayers(tb);
    drawBoard(tb);
    drawRoundEnd(tb);
    drawDuel(tb);
    warning.textContent = tb.warning || "";
    warning.hidden = !tb.warning;
    drawChoices(tb);
    drawHand(tb);
    drawActions(tb);
    message.textContent = tb.error || "";
    message.hidden = !tb.error;
    hintBox.textContent = (tb.hint && tb.hint.text) || "";
    hintBox.hidden = !tb.hint;
    drawLog(tb);
    drawRules(tb);
    drawOverlay(tb);
    playSounds(tb);
    if (screenChanged && (tb.screen === "round_end" || tb.screen === "game_over") && root.contains(document.activeElement)) {
      const next = roundPanel.querySelector("button");
      if (next) next.focus({ preventScroll: true });
      roundPanel.scrollIntoView({ block: "nearest" });
    } else {
      restoreFocus(focused);
    }
  }

  function onTable() {
    const tb = table();
    if (ui.pending && tb.seq >= ui.pending.seq) {
      const sent = sentAt.get(ui.pending.seq);
      ui.pending = null;
      draw();
      if (sent) {
        const log = timingLog();
        log.timings.push({ type: sent.type, ms: performance.now() - sent.at });
        if (log.timings.length > 200) log.timings.shift();
      }
      for (const key of [...sentAt.keys()]) if (key <= tb.seq) sentAt.delete(key);
      return;
    }
    draw();
  }

  const onSvg = () => {
    drawCards();
    draw();
  };
  model.on("change:table", onTable);
  model.on("change:cards_svg", onSvg);
  const onStrings = () => {
    sound.refresh();
    draw();
  };
  model.on("change:strings", onStrings);
  drawCards();
  draw();
  guard.refresh();

  return () => {
    resize.disconnect();
    model.off("change:table", onTable);
    model.off("change:cards_svg", onSvg);
    model.off("change:strings", onStrings);
    for (const id of soundTimers) clearTimeout(id);
    sound.destroy();
    root.removeEventListener("keydown", onTab);
    guard.destroy();
    root.remove();
  };
}

export default { render };
