// Keyboard Duel: the page side of KeyboardDuelWidget.
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

const SVG_NS = "http://www.w3.org/2000/svg";
const SEATS = ["white", "black"];
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

function h(tag, className, text) {
  const node = document.createElement(tag);
  if (className) node.className = className;
  if (text !== undefined && text !== null) node.textContent = String(text);
  return node;
}

function s(tag, attrs) {
  const node = document.createElementNS(SVG_NS, tag);
  for (const [name, value] of Object.entries(attrs || {})) node.setAttribute(name, String(value));
  return node;
}

function button(className, label, onClick) {
  const node = h("button", "mg-duel-btn " + className, label);
  node.type = "button";
  node.addEventListener("click", (event) => {
    event.stopPropagation();
    if (!node.disabled) onClick(event);
  });
  return node;
}

function placeKey(ids) {
  return [...ids].sort((a, b) => a - b).join(",");
}

function percent(p) {
  if (p === null || p === undefined) return "–";
  return Math.round(p * 100) + "%";
}

// A die as a small SVG square with its pips.
function dieSvg(value, extraClass) {
  const svg = s("svg", { viewBox: "0 0 20 20", width: 22, height: 22 });
  svg.classList.add("mg-duel-die");
  if (extraClass) svg.classList.add(extraClass);
  svg.setAttribute("data-value", value);
  svg.appendChild(s("rect", { x: 1, y: 1, width: 18, height: 18, rx: 3, class: "mg-duel-die-face" }));
  for (const [px, py] of PIPS[value] || []) {
    svg.appendChild(s("circle", { cx: 1 + 18 * px, cy: 1 + 18 * py, r: 1.8, class: "mg-duel-die-pip" }));
  }
  return svg;
}

function render({ model, el }) {
  const root = h("div", "mg-duel");
  el.appendChild(root);

  // What the person has picked but not yet sent: cards in hand, a token to move.
  const ui = {
    selected: new Set(),
    token: null, // board key of the person's token being moved
    pending: null, // {seq, key} while a click waits for the kernel's answer
    chooser: false, // the New game / opponent chooser is open
    rules: false,
    dismissedDuel: null,
    game: null,
  };
  let seq = 0;
  const sentAt = new Map();

  function t(key, values) {
    const strings = model.get("strings") || {};
    let text = strings[key];
    if (text === undefined) text = key;
    if (values) {
      for (const [name, value] of Object.entries(values)) text = text.split("{" + name + "}").join(String(value));
    }
    return text;
  }

  function send(message, pendingKey) {
    seq += 1;
    message.seq = seq;
    sentAt.set(seq, { at: performance.now(), type: message.type === "act" ? message.action.type : message.type });
    if (pendingKey !== undefined) ui.pending = { seq, key: pendingKey };
    else ui.pending = { seq, key: null };
    model.send(message);
    draw();
  }

  function act(action, pendingKey) {
    ui.selected.clear();
    ui.token = null;
    send({ type: "act", action }, pendingKey);
  }

  // -- the skeleton ---------------------------------------------------------------------
  const header = h("div", "mg-duel-header");
  const title = h("div", "mg-duel-title");
  const status = h("div", "mg-duel-status");
  status.setAttribute("role", "status");
  const controls = h("div", "mg-duel-controls");
  header.append(title, status, controls);

  const players = {};
  const seatsRow = h("div", "mg-duel-seats");
  for (const seat of SEATS) {
    const box = h("div", "mg-duel-player mg-duel-player-" + seat);
    box.dataset.seat = seat;
    const name = h("div", "mg-duel-player-name");
    const tray = h("div", "mg-duel-tray");
    tray.dataset.seat = seat;
    const total = h("div", "mg-duel-total");
    const running = h("div", "mg-duel-running");
    const figures = h("div", "mg-duel-figures");
    figures.append(total, running);
    box.append(name, tray, figures);
    players[seat] = { box, name, tray, total, running };
    seatsRow.appendChild(box);
  }

  const board = h("div", "mg-duel-board");
  const pianos = [];
  for (let p = 0; p < 2; p++) {
    const card = h("div", "mg-duel-piano");
    card.dataset.piano = p;
    const name = h("div", "mg-duel-chord");
    const keys = h("div", "mg-duel-keys");
    const shiftRow = h("div", "mg-duel-shift-row");
    card.append(name, keys, shiftRow);
    board.appendChild(card);
    pianos.push({ card, name, keys, shiftRow, svg: null, overlay: null, svgText: null });
    keys.addEventListener("click", (event) => onBoardClick(event, p));
  }

  const duelPanel = h("div", "mg-duel-duelpanel");
  const choices = h("div", "mg-duel-choices");
  const handRow = h("div", "mg-duel-hand");
  const actions = h("div", "mg-duel-actions");
  const message = h("div", "mg-duel-error");
  message.setAttribute("role", "alert");
  const hintBox = h("div", "mg-duel-hint");
  const logBox = h("ol", "mg-duel-log");
  const rulesBox = h("div", "mg-duel-rules");
  const overlay = h("div", "mg-duel-overlay");

  const main = h("div", "mg-duel-main");
  main.append(seatsRow, board, duelPanel, choices, handRow, actions, message, hintBox);
  const side = h("div", "mg-duel-side");
  const logTitle = h("div", "mg-duel-log-title");
  side.append(logTitle, logBox);
  const body = h("div", "mg-duel-body");
  body.append(main, side);
  root.append(header, body, rulesBox, overlay);

  // -- clicks -----------------------------------------------------------------------------
  function table() {
    return model.get("table") || {};
  }

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
      for (const mv of lg.move) {
        if (mv.key !== ui.token) continue;
        if (picked.length === 1 && mv.card !== picked[0]) continue;
        if (picked.length > 1) continue;
        if (picked.length === 0) continue;
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
    const hit = event.target.closest("[data-board-key], [data-key]");
    if (!hit) return;
    let key;
    if (hit.hasAttribute("data-board-key")) key = Number(hit.getAttribute("data-board-key"));
    else key = p * 12 + Number(hit.getAttribute("data-key"));
    onKey(key, hit.classList.contains("mg-duel-token"));
  }

  function onKey(key, onToken) {
    if (!canAct() || table().duel_active) return;
    const goal = targets().get(key);
    if (goal) {
      act(goal, key);
      return;
    }
    const tb = table();
    const mine = (tb.tokens || []).find((tok) => tok.key === key && tok.seat === tb.you);
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
      ui.token = null;
      ui.selected.clear();
      draw();
    }
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
    const use = cardUse(id);
    if (use === "duel") {
      act({ type: "duel_card", card: id });
    } else if (use === "select") {
      if (ui.token !== null) {
        if (ui.selected.has(id)) ui.selected.clear();
        else {
          ui.selected.clear();
          ui.selected.add(id);
        }
      } else if (ui.selected.has(id)) ui.selected.delete(id);
      else ui.selected.add(id);
      draw();
    }
  }

  // -- drawing ----------------------------------------------------------------------------
  function drawCards() {
    const svgs = model.get("cards_svg") || [];
    pianos.forEach((piano, p) => {
      const text = svgs[p] || "";
      if (text === piano.svgText) return;
      piano.svgText = text;
      piano.keys.innerHTML = text;
      piano.svg = piano.keys.querySelector("svg");
      piano.overlay = null;
      if (piano.svg) {
        piano.svg.removeAttribute("width");
        piano.svg.removeAttribute("height");
        piano.svg.classList.add("mg-duel-svg");
        piano.overlay = s("g", { class: "mg-duel-layer" });
        piano.svg.appendChild(piano.overlay);
        for (const rect of piano.svg.querySelectorAll("rect.mg-key")) {
          rect.setAttribute("data-board", p * 12 + Number(rect.getAttribute("data-key")));
        }
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

  function drawToken(layer, tok, tb) {
    const g = geometry(tok.key);
    if (!g) return;
    const w = 21;
    const hgt = 29;
    const x = g.cx - w / 2;
    // a token still arriving (in a duel for this key) waits beside the holder
    const y = tok.arriving ? (g.black ? 48 : 26) : g.black ? 14 : 58;
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
    group.appendChild(s("rect", { x, y, width: w, height: hgt, rx: 3.5, class: "mg-duel-chip" }));
    const power = s("text", { x: g.cx, y: y + 12.5, "text-anchor": "middle", class: "mg-duel-power" });
    power.textContent = tok.power;
    group.appendChild(power);
    // white pips: the dice this token would roll (D11a)
    const band = s("rect", { x: x + 2, y: y + 16, width: w - 4, height: 5.5, rx: 1.5, class: "mg-duel-pipband" });
    group.appendChild(band);
    for (let i = 0; i < tok.dice; i++) {
      const px = g.cx + (i - (tok.dice - 1) / 2) * 5;
      group.appendChild(s("circle", { cx: px, cy: y + 18.75, r: 1.6, class: "mg-duel-pip" }));
    }
    // the gold number: what it scores now (D13)
    const gold = s("text", { x: g.cx, y: y + hgt - 1.8, "text-anchor": "middle", class: "mg-duel-gold" });
    gold.textContent = tok.score;
    group.appendChild(gold);
    const tip = s("title");
    tip.textContent = tok.title || "";
    group.appendChild(tip);
    layer.appendChild(group);
  }

  function drawBoard(tb) {
    const goals = targets();
    const hintKeys = new Set((tb.hint && tb.hint.keys) || []);
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
        piano.overlay.appendChild(
          s("rect", { x: g.x + 0.8, y: 0.8, width: g.w - 1.6, height: g.h - 1.6, rx: 2, class: "mg-duel-hintmark" })
        );
      }
      for (const tok of tb.tokens || []) {
        if (Math.floor(tok.key / 12) === p) drawToken(piano.overlay, tok, tb);
      }
      for (const key of goals.keys()) {
        if (Math.floor(key / 12) !== p) continue;
        const g = geometry(key);
        // drawn over tokens too (an attack lights the opponent's token), on the part of the
        // key a person sees: all of a black key, the lower part of a white one
        piano.overlay.appendChild(
          s("rect", {
            x: g.x + 1, y: g.black ? 1 : 63, width: g.w - 2, height: g.black ? g.h - 2 : g.h - 64, rx: 2,
            class: "mg-duel-target", "data-board-key": key,
          })
        );
      }
      if (ui.pending && ui.pending.key !== null && Math.floor(ui.pending.key / 12) === p) {
        // shown at once, before the kernel answers
        const g = geometry(ui.pending.key);
        if (g) {
          piano.overlay.appendChild(
            s("rect", { x: g.cx - 10.5, y: g.black ? 14 : 58, width: 21, height: 29, rx: 3.5, class: "mg-duel-ghost" })
          );
        }
      }
      // arrow cards: shift every token of yours on this piano card
      piano.shiftRow.replaceChildren();
      const picked = [...ui.selected];
      if (canAct() && !tb.duel_active && picked.length === 1 && ui.token === null) {
        for (const sh of legal().shift) {
          if (sh.card !== picked[0] || sh.piano !== p) continue;
          piano.shiftRow.appendChild(
            button("mg-duel-shift", t(sh.up ? "duel.button.shift_up" : "duel.button.shift_down"), () =>
              act({ type: "shift", card: sh.card, piano: p })
            )
          );
        }
      }
    });
  }

  function trayTitle(state) {
    return t("duel.tray." + state);
  }

  function drawPlayers(tb) {
    for (const seat of SEATS) {
      const info = (tb.players || {})[seat];
      const view = players[seat];
      if (!info) continue;
      view.box.classList.toggle("is-to-act", tb.to_act === seat);
      view.name.textContent = info.name;
      view.tray.replaceChildren();
      (info.tray || []).forEach((state, i) => {
        const slot = h("span", "mg-duel-slot is-" + state);
        slot.dataset.state = state;
        slot.dataset.index = i;
        slot.title = trayTitle(state);
        if (state === "merged") slot.textContent = "+";
        view.tray.appendChild(slot);
      });
      view.total.textContent = t("duel.label.total", { total: info.total });
      view.total.dataset.value = info.total;
      view.running.textContent = t("duel.label.running", { running: info.running });
      view.running.dataset.value = info.running;
    }
  }

  function cardFace(card, extra) {
    const node = h("button", "mg-duel-card" + (card.wild ? " is-wild" : "") + (extra ? " " + extra : ""));
    node.type = "button";
    node.dataset.id = card.id;
    node.dataset.code = card.code;
    node.appendChild(h("span", "mg-duel-card-corner", card.corner));
    node.appendChild(h("span", "mg-duel-card-letter", card.wild ? t("duel.card.wild") : card.letter));
    node.appendChild(h("span", "mg-duel-card-corner mg-duel-card-corner-low", card.corner));
    node.title = card.title || "";
    return node;
  }

  function drawHand(tb) {
    handRow.replaceChildren();
    const label = h("div", "mg-duel-hand-label", t("duel.label.hand"));
    handRow.appendChild(label);
    const hints = new Set((tb.hint && tb.hint.cards) || []);
    for (const card of tb.hand || []) {
      const use = cardUse(card.id);
      const node = cardFace(card, "");
      node.classList.toggle("is-selected", ui.selected.has(card.id));
      node.classList.toggle("is-hint", hints.has(card.id));
      node.classList.toggle("is-duel-play", use === "duel");
      node.disabled = use === null;
      if (use === "duel" && tb.duel && tb.duel.card_chance && tb.duel.card_chance[card.id] !== undefined) {
        node.appendChild(h("span", "mg-duel-card-chance", "→ " + percent(tb.duel.card_chance[card.id])));
      }
      node.addEventListener("click", () => onCard(card.id));
      handRow.appendChild(node);
    }
  }

  function drawChoices(tb) {
    choices.replaceChildren();
    if (!canAct() || tb.duel_active) return;
    const lg = legal();
    if (ui.token !== null) {
      // Move: the token is chosen; offer every number card and direction that is legal
      const picked = [...ui.selected];
      const options = lg.move.filter((mv) => mv.key === ui.token && (picked.length === 0 || mv.card === picked[0]));
      choices.appendChild(h("span", "mg-duel-choices-label", t("duel.help.move_choose")));
      for (const mv of options) {
        const card = (tb.hand || []).find((c) => c.id === mv.card);
        const label = (mv.steps < 0 ? "← " : "") + (card ? card.label : mv.card) + (mv.steps > 0 ? " →" : "") + "  " + mv.to_name;
        const node = button("mg-duel-move", label, () => act({ type: "move", card: mv.card, key: mv.key, steps: mv.steps }, mv.to));
        node.dataset.card = mv.card;
        node.dataset.steps = mv.steps;
        node.dataset.to = mv.to;
        choices.appendChild(node);
      }
    } else if (ui.selected.size) {
      const combo = lg.place[placeKey(ui.selected)];
      const arrow = ui.selected.size === 1 && lg.shift.some((sh) => sh.card === [...ui.selected][0]);
      const mover = ui.selected.size === 1 && lg.move.some((mv) => mv.card === [...ui.selected][0]);
      const tips = [];
      if (combo) tips.push(t("duel.help.place_key", { power: ui.selected.size }));
      if (mover) tips.push(t("duel.help.move_token"));
      if (arrow) tips.push(t("duel.help.shift_card"));
      if (!tips.length) tips.push(t("duel.help.add_cards"));
      choices.appendChild(h("span", "mg-duel-choices-label", tips.join(" ")));
    } else {
      choices.appendChild(h("span", "mg-duel-choices-label", t(tb.turn_help || "duel.help.start")));
    }
  }

  function drawRun(seat, duel, tb) {
    const side = duel.sides[seat];
    const box = h("div", "mg-duel-side-box mg-duel-side-" + seat);
    box.dataset.seat = seat;
    const head = h("div", "mg-duel-side-head");
    head.appendChild(h("span", "mg-duel-side-name", side.title));
    if (side.locked) head.appendChild(h("span", "mg-duel-locked", t("duel.label.locked")));
    box.appendChild(head);
    const dice = h("div", "mg-duel-dice");
    for (const value of side.dice) dice.appendChild(dieSvg(value));
    if (side.added) dice.appendChild(h("span", "mg-duel-added", "+" + side.added));
    const total = h("span", "mg-duel-side-total", "= " + side.total);
    total.dataset.value = side.total;
    dice.appendChild(total);
    box.appendChild(dice);
    const run = h("ol", "mg-duel-run");
    for (const step of side.run) {
      const item = h("li", "mg-duel-run-step");
      item.appendChild(cardFace(step.card, "is-small"));
      item.appendChild(h("span", "mg-duel-run-effect", step.effect));
      run.appendChild(item);
    }
    box.appendChild(run);
    return box;
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
    const head = h("div", "mg-duel-duel-head", duel.title);
    duelPanel.appendChild(head);
    const sides = h("div", "mg-duel-duel-sides");
    sides.append(drawRun(duel.attacker, duel, tb), h("div", "mg-duel-vs", t("duel.label.vs")), drawRun(duel.defender, duel, tb));
    duelPanel.appendChild(sides);
    const odds = h("div", "mg-duel-odds");
    const before = h("span", "mg-duel-chance-before", t("duel.label.chance_before", { p: percent(duel.chance_before) }));
    const now = h("span", "mg-duel-chance-now", t("duel.label.chance_now", { p: percent(duel.chance_now) }));
    odds.append(before, now);
    duelPanel.appendChild(odds);
    if (duel.result) {
      duelPanel.appendChild(h("div", "mg-duel-result", duel.result));
      if (!tb.duel_active) {
        duelPanel.appendChild(
          button("mg-duel-close", t("duel.button.close"), () => {
            ui.dismissedDuel = duel.id;
            draw();
          })
        );
      }
    } else if (duel.you_decide && canAct()) {
      duelPanel.appendChild(h("div", "mg-duel-duel-help", t(duel.help)));
      const lock = button("mg-duel-lock", t("duel.button.lock_in"), () => act({ type: "lock_in" }));
      lock.disabled = !legal().lock_in;
      duelPanel.appendChild(lock);
    } else {
      duelPanel.appendChild(h("div", "mg-duel-duel-help", t("duel.help.duel_wait")));
    }
  }

  function drawActions(tb) {
    actions.replaceChildren();
    const end = button("mg-duel-end", t("duel.button.end_turn"), () => act({ type: "end_turn" }));
    end.disabled = !(canAct() && legal().end_turn && !tb.duel_active);
    const undo = button("mg-duel-undo", t("duel.button.take_back"), () => {
      ui.selected.clear();
      ui.token = null;
      send({ type: "undo" });
    });
    undo.disabled = !tb.can_undo || !!ui.pending;
    const hint = button("mg-duel-hint-btn", t("duel.button.hint"), () => send({ type: "hint" }));
    hint.disabled = !canAct();
    const clear = button("mg-duel-clear", t("duel.button.clear"), () => {
      ui.selected.clear();
      ui.token = null;
      draw();
    });
    clear.disabled = !(ui.selected.size || ui.token !== null);
    actions.append(end, clear, hint, undo);
  }

  function drawHeader(tb) {
    title.textContent = t("duel.title");
    let text = tb.status || "";
    status.textContent = text;
    status.classList.toggle("is-thinking", !!tb.thinking);
    controls.replaceChildren();
    const newGame = button("mg-duel-new", t("duel.button.new_game"), () => {
      ui.chooser = true;
      draw();
    });
    const naming = h("select", "mg-duel-naming");
    naming.setAttribute("aria-label", t("duel.label.naming"));
    for (const [value, key] of [["solfege", "duel.naming.solfege"], ["letters", "duel.naming.letters"]]) {
      const option = h("option", "", t(key));
      option.value = value;
      option.selected = tb.naming === value;
      naming.appendChild(option);
    }
    naming.addEventListener("change", () => send({ type: "settings", naming: naming.value }));
    const language = h("select", "mg-duel-language");
    language.setAttribute("aria-label", t("duel.label.language"));
    for (const [value, label] of tb.languages || []) {
      const option = h("option", "", label);
      option.value = value;
      option.selected = tb.language === value;
      language.appendChild(option);
    }
    language.addEventListener("change", () => send({ type: "settings", language: language.value }));
    const rules = button("mg-duel-rules-btn", t(ui.rules ? "duel.button.rules_hide" : "duel.button.rules"), () => {
      ui.rules = !ui.rules;
      draw();
    });
    controls.append(newGame, rules, naming, language);
  }

  function drawLog(tb) {
    logTitle.textContent = t("duel.label.log");
    const lines = tb.log || [];
    if (logBox.childElementCount === lines.length && logBox.dataset.game === String(tb.game) && logBox.dataset.last === (lines[lines.length - 1] || "")) return;
    logBox.replaceChildren();
    for (const line of lines) logBox.appendChild(h("li", "mg-duel-log-line", line));
    logBox.dataset.game = String(tb.game);
    logBox.dataset.last = lines[lines.length - 1] || "";
    logBox.scrollTop = logBox.scrollHeight;
  }

  function drawRules(tb) {
    rulesBox.hidden = !ui.rules;
    if (!ui.rules) return;
    rulesBox.replaceChildren();
    rulesBox.appendChild(h("h3", "mg-duel-rules-title", t("duel.rules.title")));
    for (const key of tb.rules_keys || []) {
      const text = t(key);
      if (key.endsWith(".head")) rulesBox.appendChild(h("h4", "", text));
      else rulesBox.appendChild(h("p", "", text));
    }
  }

  function breakdownTable(result) {
    const wrap = h("div", "mg-duel-breakdown");
    for (const seat of SEATS) {
      const side = result[seat];
      const box = h("div", "mg-duel-breakdown-side");
      box.dataset.seat = seat;
      box.appendChild(h("div", "mg-duel-breakdown-name", side.name));
      const list = h("ul", "mg-duel-breakdown-lines");
      for (const line of side.lines) list.appendChild(h("li", "", line));
      box.appendChild(list);
      const sum = h("div", "mg-duel-breakdown-score", side.summary);
      sum.dataset.value = side.score;
      box.appendChild(sum);
      wrap.appendChild(box);
    }
    return wrap;
  }

  function drawOverlay(tb) {
    overlay.replaceChildren();
    let showing = false;
    if (ui.chooser || tb.screen === "setup") {
      showing = true;
      const box = h("div", "mg-duel-dialog mg-duel-chooser");
      box.appendChild(h("h3", "", t("duel.opponent.prompt")));
      box.appendChild(h("p", "", t("duel.opponent.you_white")));
      for (const level of ["casual", "sharp"]) {
        const choice = button("mg-duel-opponent", t("duel.opponent." + level), () => {
          ui.chooser = false;
          ui.selected.clear();
          ui.token = null;
          ui.dismissedDuel = null;
          send({ type: "new_game", opponent: level });
        });
        choice.dataset.opponent = level;
        box.appendChild(choice);
        box.appendChild(h("p", "mg-duel-opponent-about", t("duel.opponent." + level + ".about")));
      }
      if (tb.screen !== "setup") {
        box.appendChild(
          button("mg-duel-cancel", t("duel.button.cancel"), () => {
            ui.chooser = false;
            draw();
          })
        );
      }
      overlay.appendChild(box);
    } else if ((tb.screen === "round_end" || tb.screen === "game_over") && tb.result) {
      showing = true;
      const box = h("div", "mg-duel-dialog mg-duel-" + tb.screen.replace("_", "-"));
      box.appendChild(h("h3", "", tb.result.title));
      box.appendChild(breakdownTable(tb.result));
      box.appendChild(h("p", "mg-duel-result-line", tb.result.line));
      if (tb.screen === "round_end") {
        box.appendChild(button("mg-duel-next", t("duel.button.next_round"), () => send({ type: "continue" })));
      } else {
        box.appendChild(
          button("mg-duel-again", t("duel.button.play_again"), () => {
            ui.chooser = true;
            draw();
          })
        );
      }
      overlay.appendChild(box);
    }
    overlay.hidden = !showing;
  }

  function draw() {
    const tb = table();
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
    root.classList.toggle("is-busy", !!ui.pending || !!tb.thinking);
    // state on the root element, for people's style sheets and for tests
    root.dataset.screen = tb.screen || "";
    root.dataset.busy = String(!!ui.pending || !!tb.thinking);
    root.dataset.yourTurn = String(!!tb.your_turn);
    root.dataset.toAct = tb.to_act || "";
    root.dataset.seq = tb.seq === undefined ? "" : String(tb.seq);
    drawHeader(tb);
    drawPlayers(tb);
    drawBoard(tb);
    drawDuel(tb);
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
  model.on("change:strings", draw);
  drawCards();
  draw();

  return () => {
    model.off("change:table", onTable);
    model.off("change:cards_svg", onSvg);
    model.off("change:strings", draw);
    root.remove();
  };
}

export default { render };
