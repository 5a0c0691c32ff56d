// Keyboard Duel: the page's drawing, joined in front of keyboard_duel.js into one module (see
// musicgames/widgets/_assets.py). It defines names and exports nothing: the constants and small
// helpers the view shares, and duelDrawing(v), which makes the functions that draw each part
// of the table from what the kernel sent. The drawing holds no rule: it draws the table.

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

// The drawing of one view. `v` holds the view's model, its elements, the person's state `ui`
// and the view's own functions the drawing calls (t, button, act ...); every function here
// draws one part of the table `tb` the kernel sent.
function duelDrawing(v) {
  const {
    model, root, ui, sound, soundTimers, pianos, board, players, handRow, choices, duelPanel,
    actions, title, status, controls, logTitle, logBox, rulesBox, roundPanel, overlay,
  } = v;
  const {
    t, button, act, send, canAct, legal, targets, keyOf, onKey, onCard, cardUse, clearSelection,
    openChooser, closeChooser, toggleRules, placeDialogs, draw,
  } = v;

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
  function drawToken(tok, tb) {
    const g = geometry(tok.key);
    if (!g) return null;
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
    return group;
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
    setAttr(board, "aria-label", t("duel.aria.board"));
    board.classList.toggle("is-finished", !!tb.board_finished);
    pianos.forEach((piano, p) => {
      const pianoInfo = (tb.pianos || [])[p] || {};
      setText(piano.name, pianoInfo.name || "");
      setAttr(piano.card, "title", pianoInfo.tones_text || "");
      if (!piano.overlay) return;
      const layer = []; // the layer's drawings, put on the page only if they differ
      for (const rect of piano.svg.querySelectorAll("rect.mg-key")) {
        const key = Number(rect.getAttribute("data-board"));
        rect.classList.toggle("is-target", goals.has(key));
        rect.classList.toggle("is-hint", hintKeys.has(key));
      }
      for (const key of hintKeys) {
        if (Math.floor(key / 12) !== p) continue;
        const g = geometry(key);
        if (!g) continue;
        layer.push(s("polygon", { points: keyOutline(key, 1.2), class: "mg-duel-hintmark" }));
      }
      for (const tok of tb.tokens || []) {
        if (Math.floor(tok.key / 12) === p) layer.push(drawToken(tok, tb));
      }
      for (const key of goals.keys()) {
        if (Math.floor(key / 12) !== p) continue;
        const g = geometry(key);
        if (!g) continue;
        // a ring round the part of the key in sight (over tokens too: an attack rings the
        // opponent's token), on a light halo that keeps it clear on black keys and tokens,
        // and a marker on the part of the key a person sees
        const outline = keyOutline(key, 1.5);
        layer.push(
          s("polygon", { points: outline, class: "mg-duel-target-halo" }),
          s("polygon", { points: outline, class: "mg-duel-target", "data-board-key": key }),
          s("circle", { cx: g.cx, cy: g.black ? 8 : 54, r: 3.2, class: "mg-duel-target-dot", "data-board-key": key }),
        );
      }
      if (ui.pending && ui.pending.key !== null && Math.floor(ui.pending.key / 12) === p) {
        // shown at once, before the kernel answers
        const g = geometry(ui.pending.key);
        if (g) {
          layer.push(
            s("rect", { x: g.cx - 10.5, y: g.black ? 12 : 62, width: 21, height: 23, rx: 3.5, class: "mg-duel-ghost" })
          );
        }
      }
      replaceChanged(piano.overlay, layer);
      for (const hit of piano.hits.children) {
        const key = Number(hit.dataset.keyButton);
        let label = keyName(tb, key);
        if (goals.has(key)) label = t("duel.aria.key_target", { key: label });
        setAttr(hit, "aria-label", label);
        hit.classList.toggle("is-target", goals.has(key));
        setAttr(hit, "aria-pressed", ui.token === key);
        setAttr(hit, "tabindex", key === ui.keyFocus ? 0 : -1);
      }
      // arrow cards: shift every token of yours on this piano card
      const shifts = [];
      const picked = [...ui.selected];
      if (canAct() && !tb.duel_active && picked.length === 1 && ui.token === null) {
        for (const sh of legal().shift) {
          if (sh.card !== picked[0] || sh.piano !== p) continue;
          const node = button("mg-duel-shift", t(sh.up ? "duel.button.shift_up" : "duel.button.shift_down"), () =>
            act({ type: "shift", card: sh.card, piano: p })
          );
          node.dataset.focus = "btn:mg-duel-shift-" + p;
          node.dataset.card = sh.card;
          shifts.push(node);
        }
      }
      replaceChanged(piano.shiftRow, shifts);
    });
  }

  function drawPlayers(tb) {
    for (const seat of SEATS) {
      const info = (tb.players || {})[seat];
      const view = players[seat];
      if (!info) continue;
      view.box.classList.toggle("is-to-act", tb.to_act === seat);
      setText(view.name, info.name);
      setAttr(view.tray, "aria-label", info.tray_label || "");
      replaceChanged(view.tray, (info.tray || []).map((state, i) => {
        const name = (info.tray_names || [])[i] || state;
        return h("span", {
          class: "mg-duel-slot is-" + state, "data-state": state, "data-index": i,
          title: name, role: "listitem", "aria-label": name,
        }, state === "merged" ? "+" : null);
      }));
      setText(view.total, t("duel.label.total", { total: info.total }));
      setAttr(view.total, "data-value", info.total);
      setText(view.running, t("duel.label.running", { running: info.running }));
      setAttr(view.running, "data-value", info.running);
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
    setHidden(handRow, !!tb.board_finished);
    setAttr(handRow, "aria-label", t("duel.aria.hand"));
    const shown = [h("div", { class: "mg-duel-hand-label", "aria-hidden": "true" }, t("duel.label.hand"))];
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
      shown.push(node);
    }
    replaceChanged(handRow, shown);
  }

  function drawChoices(tb) {
    setHidden(choices, !!tb.board_finished);
    replaceChanged(choices, choiceNodes(tb));
  }

  // What the person may do with what is picked: the moves of a token, or a tip.
  function choiceNodes(tb) {
    if (!canAct() || tb.duel_active) return [];
    const lg = legal();
    const out = [];
    if (ui.token !== null) {
      // Move: the token is chosen; offer every number card and direction that is legal
      const picked = [...ui.selected];
      const options = lg.move.filter((mv) => mv.key === ui.token && (picked.length === 0 || mv.card === picked[0]));
      out.push(h("span", { class: "mg-duel-choices-label" }, t("duel.help.move_choose")));
      for (const mv of options) {
        const node = button("mg-duel-move" + (mv.duel ? " is-duel" : ""), (mv.steps < 0 ? "← " : "") + mv.label + (mv.steps > 0 ? " →" : ""),
          () => act({ type: "move", card: mv.card, key: mv.key, steps: mv.steps }, mv.to));
        node.dataset.card = mv.card;
        node.dataset.steps = mv.steps;
        node.dataset.to = mv.to;
        node.dataset.key = mv.key;
        node.dataset.focus = "btn:mg-duel-move:" + mv.card + ":" + mv.steps;
        out.push(node);
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
      out.push(h("span", { class: "mg-duel-choices-label" }, tips.join(" ")));
    } else {
      out.push(h("span", { class: "mg-duel-choices-label" }, t(tb.turn_help || "duel.help.start")));
    }
    return out;
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
    const duel = tb.duel;
    if (!duel || ui.dismissedDuel === duel.id) {
      setHidden(duelPanel, true);
      replaceChanged(duelPanel);
      return;
    }
    setHidden(duelPanel, false);
    setAttr(duelPanel, "data-stage", duel.stage);
    setAttr(duelPanel, "aria-label", duel.title);
    replaceChanged(duelPanel, duelNodes(tb, duel));
  }

  // The duel's panel: what to do now, each side's dice and cards, the odds, the result.
  function duelNodes(tb, duel) {
    const out = [h("div", { class: "mg-duel-duel-head", "data-duel": duel.id }, duel.title)];
    // what to do now comes first, so Lock in is in sight with the board (1024×768 included)
    if (!duel.result && duel.you_decide && canAct()) {
      const lock = button("mg-duel-lock", t("duel.button.lock_in") + " (" + keyOf("lock") + ")", () => act({ type: "lock_in" }), { "aria-keyshortcuts": keyOf("lock") });
      lock.disabled = !legal().lock_in;
      out.push(h("div", { class: "mg-duel-duel-now" }, lock, h("span", { class: "mg-duel-duel-help" }, t(duel.help))));
    } else if (!duel.result) {
      out.push(h("div", { class: "mg-duel-duel-help" }, t("duel.help.duel_wait")));
    }
    out.push(h("div", { class: "mg-duel-duel-sides" },
      drawRun(duel.attacker, duel), h("div", { class: "mg-duel-vs" }, t("duel.label.vs")), drawRun(duel.defender, duel)));
    const odds = h("div", { class: "mg-duel-odds" });
    (duel.odds_lines || []).forEach((line, i) => {
      odds.appendChild(h("div", { class: "mg-duel-odds-line" + (i === 1 ? " mg-duel-chance-now" : "") }, line));
    });
    out.push(odds);
    if (duel.result) {
      out.push(h("div", { class: "mg-duel-result", role: "status" }, duel.result));
      if (duel.decided) out.push(h("div", { class: "mg-duel-decided" }, duel.decided));
      if (!tb.duel_active) {
        out.push(button("mg-duel-close", t("duel.button.close"), () => {
          ui.dismissedDuel = duel.id;
          draw();
          root.focus({ preventScroll: true });
        }, { "data-duel": duel.id }));
      }
    }
    return out;
  }

  function drawActions(tb) {
    setHidden(actions, !!tb.board_finished);
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
    replaceChanged(actions, end, clear, hint, undo);
  }

  function drawHeader(tb) {
    setText(title, t("duel.title"));
    setAttr(root, "aria-label", t("duel.title"));
    setText(status, tb.status || "");
    status.classList.toggle("is-thinking", !!tb.thinking);
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
    replaceChanged(controls, newGame, rules, naming, language, sound.control);
  }

  function drawLog(tb) {
    setText(logTitle, t("duel.label.log"));
    setAttr(logBox, "aria-label", t("duel.aria.log"));
    const lines = tb.log || [];
    // The lines drawn already stay: only the new ones are added (a long game's log has
    // hundreds), unless the game or a line before them changed (a take-back, a new game).
    const shown = logBox.children;
    let same = logBox.dataset.game === String(tb.game) && shown.length <= lines.length;
    for (let i = 0; same && i < shown.length; i++) {
      same = shown[i].textContent === lines[i].text
        && shown[i].classList.contains("mg-duel-log-head") === !!lines[i].head;
    }
    const from = same ? shown.length : 0;
    if (same && from === lines.length) return;
    if (!same) logBox.replaceChildren();
    for (const line of lines.slice(from)) {
      logBox.appendChild(line.head
        ? h("div", { class: "mg-duel-log-line mg-duel-log-head", role: "heading", "aria-level": "4" }, line.text)
        : h("div", { class: "mg-duel-log-line" }, line.text));
    }
    logBox.dataset.game = String(tb.game);
    logBox.scrollTop = logBox.scrollHeight; // the newest in view
  }

  // The view's own prefix for its dialogs' ids: two duels on one page never share one, and a
  // redraw of the same dialog gives the same id (it is then left as it is).
  const dialogIds = "mg-duel-dialog-" + Math.random().toString(36).slice(2) + "-";

  function dialog(labelText, extraClass, ...children) {
    const id = dialogIds + extraClass;
    return h("div", { class: "mg-duel-dialog " + extraClass, role: "dialog", "aria-modal": "true", "aria-labelledby": id },
      h("h3", { id }, labelText), ...children);
  }

  // Show a dialog in its layer unless the same one shows already. Where it sits in the widget
  // (placeDialogs) is not part of what it shows, so the new one starts where the old one is.
  function showDialog(layer, box) {
    const before = layer.querySelector(".mg-duel-dialog");
    const place = before && before.getAttribute("style");
    if (place) box.setAttribute("style", place);
    return replaceChanged(layer, box);
  }

  function drawRules(tb) {
    setHidden(rulesBox, !ui.rules);
    if (!ui.rules) {
      replaceChanged(rulesBox);
      return;
    }
    const before = rulesBox.querySelector(".mg-duel-dialog");
    const scrolled = before ? before.scrollTop : 0; // a redraw keeps the reader's place
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
    if (showDialog(rulesBox, box)) box.scrollTop = scrolled;
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
    const shown = (tb.screen === "round_end" || tb.screen === "game_over") && tb.result;
    setHidden(roundPanel, !shown);
    if (!shown) {
      replaceChanged(roundPanel);
      return;
    }
    setAttr(roundPanel, "class", "mg-duel-roundend mg-duel-" + tb.screen.replace("_", "-"));
    setAttr(roundPanel, "aria-label", tb.result.title);
    const out = [
      h("h3", {}, tb.result.title),
      h("p", { class: "mg-duel-finished-note" }, t("duel.label.finished_board", { round: (tb.result && tb.result.round) || "" })),
      breakdownTable(tb.result),
      h("p", { class: "mg-duel-result-line" }, tb.result.line),
    ];
    if (tb.screen === "round_end") {
      out.push(button("mg-duel-next", t("duel.button.next_round"), () => send({ type: "continue" }), { "aria-keyshortcuts": keyOf("next") }));
    } else {
      out.push(button("mg-duel-again", t("duel.button.play_again"), openChooser));
    }
    replaceChanged(roundPanel, out);
  }

  function drawOverlay(tb) {
    const showing = ui.chooser || tb.screen === "setup";
    setHidden(overlay, !showing);
    if (!showing) {
      replaceChanged(overlay);
      return;
    }
    const box = dialog(t("duel.opponent.prompt"), "mg-duel-chooser", h("p", {}, t("duel.opponent.you_white")));
    // the rules can be read before choosing: their button beside the title, in the dialog
    // (the header's is under the grey layer); they open over the chooser
    const rules = button("mg-duel-chooser-rules", t("duel.button.rules"), toggleRules,
      { "aria-haspopup": "dialog", "aria-expanded": String(ui.rules), "aria-keyshortcuts": keyOf("rules") });
    box.prepend(h("div", { class: "mg-duel-dialog-head" }, box.querySelector("h3"), rules));
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
    showDialog(overlay, box);
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

  return {
    drawCards, drawHeader, drawPlayers, drawBoard, drawRoundEnd, drawDuel, drawChoices,
    drawHand, drawActions, drawLog, drawRules, drawOverlay, playSounds,
  };
}
