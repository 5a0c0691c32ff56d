// Note Snap's page: drawing the table it is sent (seats, centre, result, history, winner).
//
// The middle part of the view's class (see note_snap/view.js): it extends SnapPanels
// (note_snap/form.js), and SnapView extends it.

class SnapDrawing extends SnapPanels {
  // -- drawing --------------------------------------------------------------------------
  put(name, signature, build) {
    const text = JSON.stringify(signature);
    if (this.signatures[name] === text) return false;
    this.signatures[name] = text;
    replaceWith(this.slots[name], build());
    return true;
  }

  draw() {
    const table = this.model.get("table") || {};
    if (table.game !== this.game) {
      this.game = table.game;
      this.card = undefined;
      this.stopCount();
      this.paused = false;  // a new game starts playing (the kernel's starts unpaused)
      this.pauseWhy = null;
    }
    const cardNumber = table.card ? table.card.number : null;
    if (cardNumber !== this.card) this.newCard(table);
    this.noteAnswers(table);
    const strings = this.model.get("strings") || {};
    const lang = strings["snap.title"] + (strings["snap.seat.alone"] || "");
    const hadFocus = this.root.contains(document.activeElement);
    const form = this.model.get("form") || {};
    const paused = this.isPaused();
    this.startClock(table);
    this.put("header", [lang, form.language, form.naming, this.model.get("options"), paused],
      () => this.drawHeader());
    this.put("notice", [this.model.get("notice") || ""], () => this.drawNotice());
    const shown = (table.seats || []).map((s) => this.slapShown(table, s.seat));
    this.put("seats", [lang, table.game, table.seats, table.phase, table.turn, table.winners,
      shown], () => (table.seats || []).map((s, i) => this.drawSeat(table, s, shown[i])));
    this.put("centre", [lang, table.game, table.card, table.centre, table.names, table.flips,
      Boolean((this.model.get("card_svgs") || {})[table.card ? table.card.note : ""])],
    () => this.drawCentre(table));
    if (this.face && !this.face.classList.contains("is-empty")) {
      const live = table.phase === "slaps" && cardNumber === this.card && !this.windowOver;
      this.face.classList.toggle("is-live", live);
      const slapped = [...this.slaps.values()].some((s) => !s.late);
      this.face.classList.toggle("is-slapped", slapped);
      this.face.classList.toggle("is-right", slapped && this.cardMatches(table));
    }
    this.put("controls", [lang, table.game, table.phase, table.turn, table.seats, table.names,
      table.pass_key, paused], () => this.drawControls(table));
    this.put("hint", [lang, table.phase, table.turn, table.seats, table.pass_key],
      () => this.drawHint(table));
    this.put("result", [lang, table.game, table.result, table.seats, table.names],
      () => this.drawResult(table));
    this.put("history", [lang, table.game, table.history, table.seats],
      () => this.drawHistory(table));
    this.put("pause", [lang, this.paused, this.pauseWhy, this.counting && this.counting.n],
      () => (paused ? this.drawPause() : null));
    this.put("overlay", [lang, table.game, table.phase, table.winners, table.seats,
      table.summary, table.standings, this.overOpen(table)],
    () => (this.overOpen(table) ? this.drawWinner(table) : null));
    this.put("guide", [lang, this.guideOpen, this.guideOpen ? this.model.get("guide") : null],
      () => (this.guideOpen ? this.drawGuide() : null));
    if (this.guideOpen && this.slots.guide.dataset.placed !== "yes") this.placeGuideLabels();
    this.put("panel", [lang, this.panel, this.panel === "settings" ? this.model.get("form")
      : null, this.panel === "settings" ? this.model.get("options") : null],
    () => (this.panel === "settings" ? this.drawSettings() : null));
    this.holdPanel(table);
    this.root.classList.toggle("has-guide", this.guideOpen);
    this.root.classList.toggle("is-paused", paused);
    this.root.dataset.phase = table.phase || "";
    this.root.dataset.paused = String(paused);
    this.root.dataset.game = String(table.game === undefined ? "" : table.game);
    this.root.dataset.flips = String(table.flips === undefined ? "" : table.flips);
    if (hadFocus && !this.root.contains(document.activeElement)) {
      this.root.focus({ preventScroll: true });
    }
  }

  // A panel over the table (Settings, or the end of a game) holds the keyboard: what lies
  // under it is inert, the focus goes to its first control, and back to the table when it
  // closes.
  holdPanel(table) {
    let modal = null;
    if (this.panel === "settings") modal = this.slots.panel;
    else if (this.overOpen(table)) modal = this.slots.overlay;
    for (const part of [this.main, this.slots.guide, this.slots.overlay, this.slots.panel]) {
      part.inert = modal !== null && part !== modal;
    }
    if (modal === this.modal) return;
    const was = this.modal;
    this.modal = modal;
    // After the click that opened it (the table takes the focus back on a click).
    setTimeout(() => {
      if (this.modal !== modal) return;
      if (modal) {
        if (!modal.contains(document.activeElement)) {
          // The end of a game opens by itself, maybe as a player presses Enter to flip: the
          // panel itself takes the focus, not its Close button, so that key cannot close
          // what nobody has read yet (Tab reaches the buttons).
          const first = modal === this.slots.overlay
            ? modal.querySelector(".mg-snap-winner") : this.panelControls(modal)[0];
          if (first) first.focus({ preventScroll: true });
        }
      } else if (was && this.root.isConnected) {
        this.root.focus({ preventScroll: true });
      }
    }, 0);
  }

  panelControls(modal) {
    const all = modal.querySelectorAll(
      "button, select, input, textarea, a[href], [tabindex]:not([tabindex='-1'])");
    return [...all].filter((node) => !node.disabled && node.getClientRects().length > 0);
  }

  keepTabInPanel(event) {
    if (event.key !== "Tab" || !this.modal || event.ctrlKey || event.altKey || event.metaKey) {
      return;
    }
    const controls = this.panelControls(this.modal);
    if (!controls.length) return;
    const at = controls.indexOf(document.activeElement);
    const last = controls.length - 1;
    let next = null;
    if (at < 0) next = event.shiftKey ? controls[last] : controls[0];
    else if (event.shiftKey && at === 0) next = controls[last];
    else if (!event.shiftKey && at === last) next = controls[0];
    if (next) {
      event.preventDefault();
      next.focus({ preventScroll: true });
    }
  }

  noteAnswers(table) {
    // The kernel's answer to a person's slap: the slap is listed in `table.slaps`, or in
    // the result when it closed the slap phase.
    if (!this.pending.size) return;
    if (table.card && table.card.number === this.card) this.answered(table.slaps || []);
    if (table.result && table.result.number === this.card) this.answered(table.result.slaps || []);
  }

  answered(slaps) {
    for (const [seat] of slaps) {
      const wait = this.pending.get(seat);
      if (!wait) continue;
      this.pending.delete(seat);
      const record = this.timings.find(
        (r) => r.kind === "slap" && r.seat === seat && r.number === wait.number);
      if (record) {
        record.answer_drawn_at = performance.now();
        requestAnimationFrame(() => { record.answer_at = performance.now(); });
      }
    }
  }

  // A timed game's clock: the kernel says how much is left; the page counts it down, and
  // stands still while the game is paused.
  startClock(table) {
    const left = table.time_left_s;
    if (left === null || left === undefined || table.phase === "over") {
      if (this.clockTimer !== null) clearInterval(this.clockTimer);
      this.clockTimer = null;
      this.clockKernel = null;
      this.clockBase = null;
      return;
    }
    if (this.clockKernel !== left) {
      this.clockKernel = left;
      this.clockBase = left;
      this.clockAt = performance.now();
    }
    if (this.clockTimer === null) this.clockTimer = setInterval(() => this.tickClock(), 500);
    this.tickClock();
  }

  tickClock() {
    const node = this.root.querySelector(".mg-snap-clock");
    if (!node || this.clockBase === null || this.clockBase === undefined) return;
    const now = performance.now();
    let left = this.clockBase;
    if (!this.isPaused() && this.running()) left -= (now - this.clockAt) / 1000;
    else {
      this.clockAt = now;
    }
    this.clockBase = Math.max(0, left);
    this.clockAt = now;
    const whole = Math.ceil(this.clockBase);
    const text = `${Math.floor(whole / 60)}:${String(whole % 60).padStart(2, "0")}`;
    node.textContent = this.t("snap.clock.left", { time: text });
  }

  drawHeader() {
    const form = this.model.get("form") || {};
    const options = this.model.get("options") || {};
    const display = (name, value, pairs, label) => h("select", {
      class: `mg-snap-${name}`, "aria-label": label,
      onchange: (event) => this.model.send({ type: "display", [name]: event.target.value }),
    }, pairs.map(([v, text]) => h("option", { value: v, selected: v === value }, text)));
    const paused = this.isPaused();
    this.sound.refresh();  // the mute button and volume speak the page's language too
    return [
      h("span", { class: "mg-snap-title" }, this.t("snap.title")),
      h("span", { class: "mg-snap-clock", "aria-live": "off" }),
      h("span", { class: "mg-snap-buttons" },
        h("button", { class: "mg-snap-pause", type: "button",
          onclick: () => (paused ? this.resume() : this.pause("key")) },
        this.t(paused ? "snap.button.resume" : "snap.button.pause")),
        h("button", { class: "mg-snap-open-guide", type: "button",
          "aria-pressed": this.guideOpen ? "true" : "false",
          onclick: () => this.toggleGuide() }, this.t("snap.button.guide")),
        h("button", { class: "mg-snap-open-settings", type: "button",
          onclick: () => this.openSettings() }, this.t("snap.button.settings")),
        h("button", { class: "mg-snap-new", type: "button",
          onclick: () => this.model.send({ type: "new_game" }) }, this.t("snap.button.new_game")),
        display("naming", form.naming, [
          ["solfege", this.t("snap.settings.naming_solfege")],
          ["letters", this.t("snap.settings.naming_letters")]], this.t("snap.settings.naming")),
        display("language", form.language,
          (options.languages || []).map((l) => [l.code, l.name]), this.t("snap.settings.language")),
        this.sound.control,
      ),
    ];
  }

  drawNotice() {
    const notice = this.model.get("notice");
    return notice ? h("div", { class: "mg-snap-notice", role: "alert" }, notice) : null;
  }

  drawPause() {
    if (this.counting !== null) {
      return h("div", { class: "mg-snap-pause is-counting", role: "status" },
        h("div", { class: "mg-snap-pause-count" }, this.t("snap.pause.count",
          { n: this.counting.n })));
    }
    return h("div", { class: "mg-snap-pause", role: "dialog" },
      h("div", { class: "mg-snap-pause-title" }, this.t("snap.pause.title")),
      h("div", { class: "mg-snap-pause-why" }, this.t(`snap.pause.${this.pauseWhy || "key"}`)),
      this.panel === "settings" ? null
        : h("button", { class: "mg-snap-resume", type: "button", onclick: () => this.resume() },
          this.t("snap.button.resume")));
  }

  slapShown(table, seat) {
    if (!table.card || table.card.number !== this.card) return null;
    const local = this.slaps.get(seat);
    if (local) return { ms: Math.round(local.ms), late: local.late };
    for (const [s, value] of table.slaps || []) {
      if (s === seat) return { ms: Math.round(value), late: false };
    }
    if (this.passes.has(seat) || (table.passes || []).includes(seat)) return { passed: true };
    return null;
  }

  drawSeat(table, seat, slap) {
    const turn = table.phase === "flip" && table.turn === seat.seat;
    const people = (table.seats || []).filter((s) => s.kind === "person").length;
    const classes = ["mg-snap-seat", `mg-snap-${seat.kind}`];
    if (turn) classes.push("is-turn");
    if (slap && slap.passed) classes.push("has-passed");
    else if (slap) {
      classes.push(slap.late ? "is-late" : "has-slapped");
      if (!slap.late) classes.push(this.cardMatches(table) ? "is-right" : "is-wrong");
    }
    if ((table.winners || []).includes(seat.seat)) classes.push("is-winner");
    let slapText = "\u00a0";
    if (slap && slap.passed) slapText = this.t("snap.seat.passed");
    else if (slap) {
      slapText = slap.late ? this.t("snap.seat.late")
        : this.t("snap.seat.slapped", { ms: ms(slap.ms) });
    }
    // A label in parts, "Computer 1 · expert" and "26 cards · to flip": laid out by the
    // seat's own width, a part that does not fit goes whole to the next line, and the "·"
    // before it then falls in the label's hidden left margin (table.css).
    const part = (cls, words) => h("span", { class: `mg-snap-part ${cls}` },
      h("span", { class: "mg-snap-sep", "aria-hidden": "true" }, "\u00a0·\u00a0"), words);
    const label = (cls, attrs, first, ...rest) => h("div", { class: cls, ...attrs },
      h("span", { class: "mg-snap-parts" }, h("span", { class: "mg-snap-part" }, first),
        ...rest));
    return h("div", { class: classes.join(" "), "data-seat": seat.seat },
      label("mg-snap-seat-name", {}, seat.name,
        seat.kind === "computer" ? part("mg-snap-seat-level", seat.level_label) : null),
      label("mg-snap-seat-cards", { "data-cards": seat.cards },
        this.t("snap.seat.cards", { cards: this.cards(seat.cards) }),
        turn ? part("mg-snap-seat-turn", this.t("snap.seat.turn")) : null),
      seat.kind === "person"
        ? h("div", { class: "mg-snap-seat-key" },
          this.t("snap.seat.key", { key: this.keyName(seat.key) }))
        : null,
      seat.kind === "person" && people > 1
        ? h("button", { class: "mg-snap-pad", type: "button",
          onpointerdown: (event) => {
            const at = performance.now();
            event.preventDefault();
            this.slap(seat.seat, at, "pad", event.timeStamp);
          } }, this.t("snap.seat.pad"))
        : null,
      h("div", { class: "mg-snap-seat-slap" }, slapText),
    );
  }

  // True when the kernel says the card shown is a match for the name called (S6): a slap
  // on it is right. The rules decide it in Python; the page only reads their answer.
  cardMatches(table) {
    return !!table.card && table.card.match === true;
  }

  overOpen(table) {
    return table.phase === "over" && this.overClosed !== table.game;
  }

  closeOver(table) {
    this.overClosed = table.game;
    this.draw();
    this.root.focus({ preventScroll: true });
  }

  keyName(code) {
    if (code === SPACE) return this.t("snap.key.space");
    if (/^Key[A-Z]$/.test(code)) return code.slice(3);
    if (/^Digit\d$/.test(code)) return code.slice(5);
    return code;
  }

  label(syllable) {
    const table = this.model.get("table") || {};
    const names = table.names || CYCLE;
    const i = CYCLE.indexOf(syllable);
    return i < 0 ? syllable : names[i];
  }

  // A card's drawing (the staff of its note), at the play card's size or small.
  cardDrawing(note, cls) {
    const drawing = h("div", { class: cls, "data-note": note || "" });
    drawing.innerHTML = (this.model.get("card_svgs") || {})[note] || "";
    return drawing;
  }

  drawCentre(table) {
    const card = table.card;
    const people = (table.seats || []).filter((s) => s.kind === "person");
    const face = h("div", {
      class: "mg-snap-card",
      onpointerdown: (event) => {
        const at = performance.now();
        if (people.length === 1) {
          event.preventDefault();
          this.root.focus({ preventScroll: true });
          this.slap(people[0].seat, at, "click", event.timeStamp);
        }
      },
    });
    this.face = face;
    if (card && table.centre) {
      face.append(this.cardDrawing(card.note, "mg-snap-staff"));
      face.dataset.note = card.note;
      face.dataset.call = card.call;
      face.dataset.number = String(card.number);
      if (card.number === this.card && this.shownAt !== null) {
        face.dataset.shownAt = String(this.shownAt);
      }
    } else {
      face.classList.add("is-empty");
      face.append(h("div", { class: "mg-snap-empty" }, this.t("snap.centre.empty")));
    }
    return [
      face,
      h("div", { class: "mg-snap-call" },
        card && table.centre ? [
          h("span", { class: "mg-snap-call-word" }, this.t("snap.centre.called")),
          h("span", { class: "mg-snap-call-name" }, this.label(card.call)),
        ] : "\u00a0"),
      h("div", { class: "mg-snap-pile", "data-cards": table.centre || 0 },
        this.t("snap.centre.pile", { n: table.centre || 0 })),
      table.card_limit ? h("div", { class: "mg-snap-count" }, this.t("snap.centre.count",
        { n: table.flips || 0, limit: table.card_limit })) : null,
    ];
  }

  drawControls(table) {
    const seats = table.seats || [];
    if (table.phase === "slaps" && table.pass_key) {
      const person = seats.find((s) => s.kind === "person");
      return h("button", { class: "mg-snap-no-match", type: "button",
        onclick: () => person && this.pass(person.seat, performance.now()) },
      this.t("snap.button.no_match"));
    }
    if (table.phase !== "flip") return null;
    const seat = seats[table.turn];
    if (!seat || seat.kind !== "person") return null;
    if (seat.call_mode === "self") {
      return CYCLE.map((syllable, i) => h("button", {
        class: "mg-snap-call-button", type: "button", "data-call": syllable,
        onclick: () => this.flip(syllable),
      }, `${i + 1} · ${this.label(syllable)}`));
    }
    return h("button", { class: "mg-snap-flip", type: "button", onclick: () => this.flip(null) },
      `${this.t("snap.flip")} (${this.t("snap.key.enter")})`);
  }

  drawHint(table) {
    let text = "";
    const seats = table.seats || [];
    const people = seats.filter((s) => s.kind === "person");
    if (table.phase === "flip") {
      const seat = seats[table.turn];
      if (seat && seat.kind === "person") {
        text = seat.call_mode === "self"
          ? this.t("snap.hint.call", { name: seat.name })
          : this.t("snap.hint.flip", { name: seat.name, key: this.t("snap.key.enter") });
      } else if (seat) {
        text = this.t("snap.hint.wait", { name: seat.name });
      }
    } else if (table.phase === "slaps") {
      text = people.length === 1
        ? this.t("snap.hint.slap", { keys: this.keyName(people[0].key),
          pass: this.t("snap.key.pass") })
        : this.t("snap.hint.slap_pads");
    }
    return h("div", { class: "mg-snap-hint" }, text || "\u00a0");
  }

  // The last card, drawn small beside the centre with what became of it, until the next.
  drawResult(table) {
    const r = table.result;
    if (!r) return null;
    const seats = table.seats || [];
    const name = (seat) => (seats[seat] ? seats[seat].name : `#${seat}`);
    const lines = [];
    (r.slaps || []).forEach(([seat, value], i) => {
      lines.push(h("li", { class: "mg-snap-result-slap", "data-seat": seat, "data-ms": ms(value) },
        `${i + 1}. `, this.t("snap.result.slap_line", { name: name(seat), ms: ms(value) })));
    });
    for (const seat of r.not_slapped || []) {
      lines.push(h("li", { class: "mg-snap-result-missed", "data-seat": seat },
        this.say("snap.result.missed", seat, { name: name(seat) })));
    }
    let reasonKey = `snap.reason.${r.reason}`;
    if (r.reason === "last_to_slap" && (r.not_slapped || []).length) {
      reasonKey = "snap.reason.last_to_slap_missing";
    }
    const slapPhase = r.slappable !== false;  // a wrong call or a missed match: no slaps
    let slapList = null;
    const saysNobody = r.reason === "no_slap" || r.reason === "match_not_slapped";
    if (slapPhase && lines.length) {
      slapList = h("ol", { class: "mg-snap-result-slaps" }, lines);
    } else if (slapPhase && !saysNobody) {  // the reason says "Nobody slapped" itself
      slapList = h("div", { class: "mg-snap-result-slaps" }, this.t("snap.result.no_slaps"));
    }
    return h("div", {
      class: `mg-snap-result ${r.match ? "is-match" : ""}`, "data-number": r.number,
      "data-reason": r.reason, "data-taker": r.taker === null ? "" : r.taker,
    },
    h("div", { class: "mg-snap-result-title" }, this.t("snap.result.title")),
    h("div", { class: "mg-snap-result-face" },
      this.cardDrawing(r.note, "mg-snap-result-staff"),
      h("div", { class: "mg-snap-result-label" }, r.label)),
    h("div", { class: "mg-snap-result-card" }, this.say("snap.result.card", r.flipper, {
      flipper: name(r.flipper), note: r.label, call: this.label(r.call),
    }), slapPhase ? [" ", this.t(r.match ? "snap.result.match" : "snap.result.no_match")]
      : null),
    slapList,
    h("div", { class: "mg-snap-result-reason" }, this.say(reasonKey, r.taker, {
      taker: r.taker === null ? "" : name(r.taker), cards: this.cards(r.cards_taken),
      call: this.label(r.call), expected: this.label(r.expected),
    })));
  }

  // The strip of the last five cards: card, call, who took it, your time.
  drawHistory(table) {
    const history = table.history || [];
    if (!history.length) return null;
    const seats = table.seats || [];
    const alone = seats.filter((s) => s.kind === "person").length === 1;
    return h("div", { class: "mg-snap-history" },
      h("div", { class: "mg-snap-history-title" }, this.t("snap.history.title")),
      h("ol", { class: "mg-snap-history-cards" }, history.map((c) => h("li", {
        class: `mg-snap-history-card ${c.match ? "is-match" : ""}`, "data-number": c.number,
        "data-reason": c.reason, title: this.t(`snap.reason.${c.reason}`, {
          taker: c.taker === null ? "" : (seats[c.taker] || {}).name, cards: this.cards(c.cards),
          call: this.label(c.call), expected: "" }),
      },
      this.cardDrawing(c.note, "mg-snap-history-staff"),
      h("div", { class: "mg-snap-history-line" }, `${c.label} · ${this.label(c.call)}`,
        c.slappable === false ? null
          : [" · ", this.t(c.match ? "snap.history.match" : "snap.history.no_match")]),
      h("div", { class: "mg-snap-history-line" }, c.taker === null || c.taker === undefined
        ? this.t("snap.history.nobody")
        : this.say("snap.history.took", c.taker, { name: (seats[c.taker] || {}).name,
          cards: this.cards(c.cards) })),
      alone ? h("div", { class: "mg-snap-history-line" }, c.your_ms === null
        ? this.t("snap.history.you_none")
        : this.t("snap.history.you_ms", { ms: ms(c.your_ms) })) : null))));
  }

  drawWinner(table) {
    const seats = table.seats || [];
    const names = (table.winners || []).map((s) => (seats[s] ? seats[s].name : `#${s}`));
    const winners = table.winners || [];
    const summary = table.summary || {};
    const text = winners.length === 1
      ? this.say("snap.winner.one", winners[0], { names: names[0] })
      : this.t("snap.winner.many", { names: names.join(this.t("snap.winner.and")) });
    const standings = table.standings || [];
    const place = (n) => this.t(`snap.place.${n}`);
    const mine = standings.find((s) => seats[s.seat] && seats[s.seat].is_you);
    const lines = summary.lines || [];  // whole sentences, written by the kernel
    const practice = summary.practice_labels || [];
    const close = () => this.closeOver(table);
    return h("div", { class: "mg-snap-winner", role: "dialog", tabindex: "-1" },
      h("button", { class: "mg-snap-close mg-snap-winner-close", type: "button", onclick: close },
        this.t("snap.button.close")),
      h("div", { class: "mg-snap-winner-text" }, text),
      mine ? h("div", { class: "mg-snap-winner-place" }, this.t("snap.standings.yours",
        { place: place(mine.place), cards: this.cards(mine.cards) })) : null,
      (summary.ended || []).map((line) => h("div", { class: "mg-snap-winner-why" }, line)),
      standings.length ? h("div", { class: "mg-snap-standings" },
        h("div", { class: "mg-snap-summary-title" }, this.t("snap.standings.title")),
        h("ol", {}, standings.map((s) => h("li", { "data-seat": s.seat, "data-place": s.place,
          "data-cards": s.cards }, this.t("snap.standings.line",
          { place: s.place, name: s.name, cards: this.cards(s.cards) }))))) : null,
      lines.length ? h("div", { class: "mg-snap-summary" },
        h("div", { class: "mg-snap-summary-title" }, this.t("snap.summary.title")),
        h("ul", {}, lines.map((line) => h("li", {}, line))),
        h("div", { class: "mg-snap-summary-drill" }, summary.advice,
          practice.length ? [" ", h("button", { class: "mg-snap-practise", type: "button",
            onclick: () => { this.model.send({ type: "practise" }); close(); } },
          this.t("snap.button.practise"))] : null)) : null,
      h("div", { class: "mg-snap-winner-buttons" },
        h("button", { class: "mg-snap-new", type: "button",
          onclick: () => this.model.send({ type: "new_game" }) }, this.t("snap.button.new_game"))));
  }
}
