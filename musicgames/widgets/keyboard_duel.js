// Keyboard Duel: the page side of KeyboardDuelWidget (uses h() and fill() of _dom.js, and the
// drawing of keyboard_duel_draw.js, joined in front of this file).
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
    returnFocus: null, // where focus goes back when the chooser closes
    rulesReturnFocus: null, // and when the rules close
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
      // the rules open over the opponent chooser by their key too, as by its Rules button
      else if (shortcutFor(event.key) === "rules") {
        event.preventDefault();
        toggleRules();
      }
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
  // What has focus now, to give it back when a dialog closes.
  function focusToGiveBack() {
    const active = document.activeElement;
    return active && root.contains(active) ? focusName() || "root" : "root";
  }

  function giveFocusBack(name) {
    draw();
    if (name === "root" || !name) root.focus({ preventScroll: true });
    else restoreFocus(name);
  }

  // The rules keep their own place to give focus back to: they open over the chooser too.
  function toggleRules() {
    if (!ui.rules) {
      ui.rulesReturnFocus = focusToGiveBack();
      ui.rules = true;
      draw();
      const close = rulesBox.querySelector(".mg-duel-rules-close");
      if (close) close.focus({ preventScroll: true });
    } else {
      ui.rules = false;
      const name = ui.rulesReturnFocus;
      ui.rulesReturnFocus = null;
      giveFocusBack(name);
    }
  }

  function openChooser() {
    ui.returnFocus = focusToGiveBack();
    ui.chooser = true;
    draw();
    const first = overlay.querySelector(".mg-duel-opponent");
    if (first) first.focus({ preventScroll: true });
  }

  function closeChooser() {
    ui.chooser = false;
    const name = ui.returnFocus;
    ui.returnFocus = null;
    giveFocusBack(name);
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

  // -- drawing (keyboard_duel_draw.js) ---------------------------------------------------
  const {
    drawCards, drawHeader, drawPlayers, drawBoard, drawRoundEnd, drawDuel, drawChoices,
    drawHand, drawActions, drawLog, drawRules, drawOverlay, playSounds,
  } = duelDrawing({
    model, root, ui, sound, soundTimers, pianos, board, players, handRow, choices, duelPanel,
    actions, title, status, controls, logTitle, logBox, rulesBox, roundPanel, overlay,
    t, button, act, send, canAct, legal, targets, keyOf, onKey, onCard, cardUse, clearSelection,
    openChooser, closeChooser, toggleRules, placeDialogs, draw,
  });

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
    setAttr(root, "data-screen", tb.screen || "");
    setAttr(root, "data-busy", !!ui.pending || !!tb.thinking);
    setAttr(root, "data-your-turn", !!tb.your_turn);
    setAttr(root, "data-to-act", tb.to_act || "");
    setAttr(root, "data-seq", tb.seq === undefined ? "" : tb.seq);
    setAttr(root, "data-finished", !!tb.board_finished);
    setAttr(root, "data-duel", !!tb.duel && ui.dismissedDuel !== (tb.duel && tb.duel.id));
    drawHeader(tb);
    drawPlayers(tb);
    drawBoard(tb);
    drawRoundEnd(tb);
    drawDuel(tb);
    setText(warning, tb.warning || "");
    setHidden(warning, !tb.warning);
    drawChoices(tb);
    drawHand(tb);
    drawActions(tb);
    setText(message, tb.error || "");
    setHidden(message, !tb.error);
    setText(hintBox, (tb.hint && tb.hint.text) || "");
    setHidden(hintBox, !tb.hint);
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
