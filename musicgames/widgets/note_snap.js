// Note Snap: the page side of the game widget.
//
// The rules live in Python. This view draws the table it is sent (the `table` trait), and
// reports what the people at the keyboard do, as messages:
//   {type: "ready"}                               the view is on the page
//   {type: "shown", game, number}                 card `number` has been painted
//   {type: "slap", game, number, seat, reaction_ms}
//   {type: "flip", game, seat, call}              call is null in auto-call mode
//   {type: "new_game", settings?}                 settings from the form, or the same again
//   {type: "display", language?, naming?}         how the page is shown (no new game)
//
// Timing (rule S13): when a new card arrives, it is put in the page, then in the next
// requestAnimationFrame callback the time is read with performance.now(): that is the
// moment the card was shown. A key press or click reads performance.now() at once; the
// difference is the reaction time sent to the kernel. A slap is drawn at once, before the
// kernel answers. Computer slaps come with the card (their times were drawn in Python) and
// are drawn at their moment, counted from the same painted time.
//
// h() and fill() are in _dom.js, guardKeys() in _focus.js: the Python class puts them in front
// of this file.

const SPACE = "Space";
const FLIP_KEYS = new Set(["Enter", "NumpadEnter"]);
const CALL_KEYS = {
  Digit1: 0, Digit2: 1, Digit3: 2, Digit4: 3, Digit5: 4, Digit6: 5, Digit7: 6,
  Numpad1: 0, Numpad2: 1, Numpad3: 2, Numpad4: 3, Numpad5: 4, Numpad6: 5, Numpad7: 6,
};
const CYCLE = ["Do", "Re", "Mi", "Fa", "Sol", "La", "Si"];

function ms(value) {
  return String(Math.round(value));
}

class SnapView {
  constructor(model, el) {
    this.model = model;
    this.el = el;
    this.game = null;         // the game number the page is drawing
    this.card = null;         // the number of the card on the page
    this.shownAt = null;      // performance.now() when that card was painted
    this.slaps = new Map();   // seat -> {ms, late}: slaps drawn on the page for that card
    this.pending = new Map(); // seat -> {number}: person slaps the kernel has not listed yet
    this.timers = [];         // setTimeout ids of this card (computer slaps, window end)
    this.windowOver = false;
    this.panel = null;        // "settings" | "guide" | null
    this.face = null;         // the card element on the page
    this.signatures = {};
    this.timings = [];        // measurements, read by the browser tests and figures
    this.root = h("div", { class: "mg-snap" });
    this.root.mgSnap = this;
    this.slots = {};
    const slot = (name, cls) => (this.slots[name] = h("div", { class: cls }));
    this.root.append(
      slot("header", "mg-snap-header"),
      slot("notice", "mg-snap-notices"),
      h("div", { class: "mg-snap-table" },
        slot("seats", "mg-snap-seats"),
        slot("centre", "mg-snap-centre")),
      slot("controls", "mg-snap-controls"),
      slot("hint", "mg-snap-hints"),
      slot("result", "mg-snap-results"),
      slot("overlay", "mg-snap-overlay"),
      slot("panel", "mg-snap-panels"),
    );
    el.append(this.root);
    // Takes the focus when drawn, keeps the game's keys from the notebook (_focus.js).
    this.guard = guardKeys(this.root, {
      onKey: (event) => this.keydown(event),
      label: () => this.t("snap.focus"),
    });
    this.onChange = () => this.draw();
    this.traits = ["table", "strings", "form", "options", "notice", "card_svgs",
      "guide_svg"];
    for (const name of this.traits) model.on(`change:${name}`, this.onChange);
    this.draw();
    model.send({ type: "ready" });
  }

  destroy() {
    this.clearTimers();
    for (const name of this.traits) this.model.off(`change:${name}`, this.onChange);
    this.guard.destroy();
  }

  t(key, values) {
    const strings = this.model.get("strings") || {};
    const template = strings[key] === undefined ? key : strings[key];
    return values ? fill(template, values) : template;
  }

  // "1 card" or "3 cards".
  cards(n) {
    return n === 1 ? this.t("snap.cards.one") : this.t("snap.cards.many", { n });
  }

  // A sentence about a seat: the person alone at the table ("You") has its own wording
  // (key + ".you") where the language needs it (Spanish verbs agree with "tú").
  say(key, seat, values) {
    const seats = (this.model.get("table") || {}).seats || [];
    const strings = this.model.get("strings") || {};
    const you = seat !== null && seat !== undefined && seats[seat] && seats[seat].is_you;
    return this.t(you && strings[`${key}.you`] !== undefined ? `${key}.you` : key, values);
  }

  clearTimers() {
    for (const id of this.timers) clearTimeout(id);
    this.timers = [];
  }

  // -- what people do -------------------------------------------------------------------
  // The focus guard hands every plain key here, and keeps it from the notebook.
  keydown(event) {
    const at = performance.now();
    const table = this.model.get("table") || {};
    const seats = table.seats || [];
    const slapper = seats.find((s) => s.kind === "person" && s.key === event.code);
    const isFlip = FLIP_KEYS.has(event.code);
    const isCall = event.code in CALL_KEYS;
    if (event.repeat) return;  // a key held down slaps (or flips) once
    if (slapper) {
      this.slap(slapper.seat, at, "key", event.timeStamp);
    } else if (isFlip) {
      this.flip(null);
    } else if (isCall) {
      this.flip(CYCLE[CALL_KEYS[event.code]]);
    } else if (event.code === "Escape") {
      this.panel = null;
      this.draw();
    }
  }

  // `at` is performance.now() read first thing in the event handler; `eventAt` is the
  // event's own timeStamp (when the browser received the input), kept for the figures.
  slap(seat, at, via, eventAt) {
    const table = this.model.get("table") || {};
    const card = table.card;
    if (table.phase !== "slaps" || !card || card.number !== this.card) return;
    if (this.shownAt === null || this.slaps.has(seat)) return;
    const reaction = at - this.shownAt;
    if (this.windowOver || reaction > card.window_ms) {
      this.slaps.set(seat, { ms: reaction, late: true });
      this.draw();
      return;
    }
    this.slaps.set(seat, { ms: reaction, late: false });
    this.pending.set(seat, { number: card.number });
    this.model.send({
      type: "slap", game: table.game, number: card.number, seat, reaction_ms: reaction,
    });
    this.draw();  // the slap shows at once, before the kernel answers
    const record = {
      kind: "slap", via, seat, number: card.number, reaction_ms: reaction, key_at: at,
      event_at: eventAt === undefined ? at : eventAt,
      drawn_at: performance.now(), painted_at: null, answer_drawn_at: null, answer_at: null,
    };
    this.timings.push(record);
    requestAnimationFrame(() => { record.painted_at = performance.now(); });
  }

  flip(call) {
    const table = this.model.get("table") || {};
    if (table.phase !== "flip" || table.turn === null || table.turn === undefined) return;
    const seat = (table.seats || [])[table.turn];
    if (!seat || seat.kind !== "person") return;
    const selfCall = seat.call_mode === "self";
    if (selfCall !== (call !== null)) return;  // auto: Enter; calling yourself: 1–7
    this.model.send({ type: "flip", game: table.game, seat: seat.seat, call });
  }

  // -- a new card -----------------------------------------------------------------------
  newCard(table) {
    this.clearTimers();
    this.slaps = new Map();
    this.pending = new Map();
    this.windowOver = false;
    this.shownAt = null;
    const card = table.card;
    this.card = card ? card.number : null;
    if (!card || table.phase !== "slaps") return;
    const number = card.number;
    const game = table.game;
    requestAnimationFrame(() => {
      if (this.card !== number || this.game !== game) return;
      this.shownAt = performance.now();
      if (this.face) {
        this.face.dataset.number = String(number);
        this.face.dataset.shownAt = String(this.shownAt);
      }
      this.model.send({ type: "shown", game, number });
      for (const [seat, delay] of card.computer_slaps || []) {
        this.timers.push(setTimeout(() => {
          if (this.card !== number || this.slaps.has(seat)) return;
          this.slaps.set(seat, { ms: delay, late: false });
          this.draw();
        }, Math.max(0, this.shownAt + delay - performance.now())));
      }
      this.timers.push(setTimeout(() => {
        if (this.card !== number) return;
        this.windowOver = true;
        this.draw();
      }, Math.max(0, this.shownAt + card.window_ms - performance.now())));
    });
  }

  // -- drawing --------------------------------------------------------------------------
  put(name, signature, build) {
    const text = JSON.stringify(signature);
    if (this.signatures[name] === text) return false;
    this.signatures[name] = text;
    const built = build();
    this.slots[name].replaceChildren(...[].concat(built === null ? [] : built));
    return true;
  }

  draw() {
    const table = this.model.get("table") || {};
    if (table.game !== this.game) {
      this.game = table.game;
      this.card = undefined;
    }
    const cardNumber = table.card ? table.card.number : null;
    if (cardNumber !== this.card) this.newCard(table);
    this.noteAnswers(table);
    const strings = this.model.get("strings") || {};
    const lang = strings["snap.title"] + (strings["snap.seat.alone"] || "");
    const hadFocus = this.root.contains(document.activeElement);
    const form = this.model.get("form") || {};
    this.put("header", [lang, form.language, form.naming, this.model.get("options")],
      () => this.drawHeader());
    this.put("notice", [this.model.get("notice") || ""], () => this.drawNotice());
    const shown = (table.seats || []).map((s) => this.slapShown(table, s.seat));
    this.put("seats", [lang, table.game, table.seats, table.phase, table.turn, table.winners,
      shown], () => (table.seats || []).map((s, i) => this.drawSeat(table, s, shown[i])));
    this.put("centre", [lang, table.game, table.card, table.centre, table.names,
      Boolean((this.model.get("card_svgs") || {})[table.card ? table.card.note : ""])],
    () => this.drawCentre(table));
    if (this.face && !this.face.classList.contains("is-empty")) {
      const live = table.phase === "slaps" && cardNumber === this.card && !this.windowOver;
      this.face.classList.toggle("is-live", live);
      this.face.classList.toggle("is-slapped",
        [...this.slaps.values()].some((s) => !s.late));
    }
    this.put("controls", [lang, table.game, table.phase, table.turn, table.seats, table.names],
      () => this.drawControls(table));
    this.put("hint", [lang, table.phase, table.turn, table.seats], () => this.drawHint(table));
    this.put("result", [lang, table.game, table.result, table.seats, table.names],
      () => this.drawResult(table));
    this.put("overlay", [lang, table.game, table.phase, table.winners, table.seats],
      () => (table.phase === "over" ? this.drawWinner(table) : null));
    this.put("panel", [lang, this.panel, this.panel === "settings" ? this.model.get("form")
      : null, this.panel === "settings" ? this.model.get("options") : null,
    this.panel === "guide" ? this.model.get("guide_svg") : null],
    () => (this.panel === "settings" ? this.drawSettings()
      : this.panel === "guide" ? this.drawGuide() : null));
    this.root.dataset.phase = table.phase || "";
    this.root.dataset.game = String(table.game === undefined ? "" : table.game);
    this.root.dataset.flips = String(table.flips === undefined ? "" : table.flips);
    if (hadFocus && !this.root.contains(document.activeElement)) {
      this.root.focus({ preventScroll: true });
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

  togglePanel(name) {
    this.panel = this.panel === name ? null : name;
    this.draw();
  }

  drawHeader() {
    const form = this.model.get("form") || {};
    const options = this.model.get("options") || {};
    const display = (name, value, pairs, label) => h("select", {
      class: `mg-snap-${name}`, "aria-label": label,
      onchange: (event) => this.model.send({ type: "display", [name]: event.target.value }),
    }, pairs.map(([v, text]) => h("option", { value: v, selected: v === value }, text)));
    return [
      h("span", { class: "mg-snap-title" }, this.t("snap.title")),
      h("span", { class: "mg-snap-buttons" },
        display("naming", form.naming, [
          ["solfege", this.t("snap.settings.naming_solfege")],
          ["letters", this.t("snap.settings.naming_letters")]], this.t("snap.settings.naming")),
        display("language", form.language,
          (options.languages || []).map((l) => [l.code, l.name]), this.t("snap.settings.language")),
        h("button", { class: "mg-snap-new", type: "button",
          onclick: () => this.model.send({ type: "new_game" }) }, this.t("snap.button.new_game")),
        h("button", { class: "mg-snap-open-settings", type: "button",
          onclick: () => this.togglePanel("settings") }, this.t("snap.button.settings")),
        h("button", { class: "mg-snap-open-guide", type: "button",
          onclick: () => this.togglePanel("guide") }, this.t("snap.button.guide")),
      ),
    ];
  }

  drawNotice() {
    const notice = this.model.get("notice");
    return notice ? h("div", { class: "mg-snap-notice", role: "alert" }, notice) : null;
  }

  slapShown(table, seat) {
    if (!table.card || table.card.number !== this.card) return null;
    const local = this.slaps.get(seat);
    if (local) return { ms: Math.round(local.ms), late: local.late };
    for (const [s, value] of table.slaps || []) {
      if (s === seat) return { ms: Math.round(value), late: false };
    }
    return null;
  }

  drawSeat(table, seat, slap) {
    const turn = table.phase === "flip" && table.turn === seat.seat;
    const people = (table.seats || []).filter((s) => s.kind === "person").length;
    const classes = ["mg-snap-seat", `mg-snap-${seat.kind}`];
    if (turn) classes.push("is-turn");
    if (slap) classes.push(slap.late ? "is-late" : "has-slapped");
    if ((table.winners || []).includes(seat.seat)) classes.push("is-winner");
    let slapText = "\u00a0";
    if (slap) {
      slapText = slap.late ? this.t("snap.seat.late")
        : this.t("snap.seat.slapped", { ms: ms(slap.ms) });
    }
    return h("div", { class: classes.join(" "), "data-seat": seat.seat },
      h("div", { class: "mg-snap-seat-name" }, seat.name),
      seat.kind === "computer"
        ? h("div", { class: "mg-snap-seat-level" }, seat.level_label) : null,
      h("div", { class: "mg-snap-seat-cards", "data-cards": seat.cards },
        this.t("snap.seat.cards", { cards: this.cards(seat.cards) })),
      h("div", { class: "mg-snap-seat-turn" }, turn ? this.t("snap.seat.turn") : "\u00a0"),
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

  drawCentre(table) {
    const card = table.card;
    const svgs = this.model.get("card_svgs") || {};
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
      const drawing = h("div", { class: "mg-snap-staff" });
      drawing.innerHTML = svgs[card.note] || "";
      face.append(drawing);
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
    ];
  }

  drawControls(table) {
    if (table.phase !== "flip") return null;
    const seat = (table.seats || [])[table.turn];
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
        ? this.t("snap.hint.slap", { keys: this.keyName(people[0].key) })
        : this.t("snap.hint.slap_pads");
    }
    return [
      h("div", { class: "mg-snap-focus-hint" }, this.t("snap.hint.focus")),
      h("div", { class: "mg-snap-hint" }, text || "\u00a0"),
    ];
  }

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
        this.t("snap.result.missed", { name: name(seat) })));
    }
    let reasonKey = `snap.reason.${r.reason}`;
    if (r.reason === "last_to_slap" && (r.not_slapped || []).length) {
      reasonKey = "snap.reason.last_to_slap_missing";
    }
    const slapPhase = r.reason !== "wrong_call" && r.reason !== "missed_match";
    let slapList = null;
    if (slapPhase) {
      slapList = lines.length ? h("ol", { class: "mg-snap-result-slaps" }, lines)
        : h("div", { class: "mg-snap-result-slaps" }, this.t("snap.result.no_slaps"));
    }
    return h("div", {
      class: "mg-snap-result", "data-number": r.number, "data-reason": r.reason,
      "data-taker": r.taker === null ? "" : r.taker,
    },
    h("div", { class: "mg-snap-result-title" }, this.t("snap.result.title")),
    h("div", { class: "mg-snap-result-card" }, this.say("snap.result.card", r.flipper, {
      flipper: name(r.flipper), note: r.label, call: this.label(r.call),
    }), " ", r.match ? this.t("snap.result.match") : this.t("snap.result.no_match")),
    slapList,
    h("div", { class: "mg-snap-result-reason" }, this.say(reasonKey, r.taker, {
      taker: r.taker === null ? "" : name(r.taker), cards: this.cards(r.cards_taken),
      call: this.label(r.call), expected: this.label(r.expected),
    })));
  }

  drawWinner(table) {
    const seats = table.seats || [];
    const names = (table.winners || []).map((s) => (seats[s] ? seats[s].name : `#${s}`));
    const winners = table.winners || [];
    const text = winners.length === 1
      ? this.say("snap.winner.one", winners[0], { names: names[0] })
      : this.t("snap.winner.many", { names: names.join(this.t("snap.winner.and")) });
    return h("div", { class: "mg-snap-winner", role: "dialog" },
      h("div", { class: "mg-snap-winner-text" }, text),
      h("div", { class: "mg-snap-winner-flips" },
        this.t("snap.winner.flips", { cards: this.cards(table.flips) })),
      h("button", { class: "mg-snap-new", type: "button",
        onclick: () => this.model.send({ type: "new_game" }) }, this.t("snap.button.new_game")));
  }

  drawGuide() {
    const drawing = h("div", { class: "mg-snap-guide-staff" });
    drawing.innerHTML = this.model.get("guide_svg") || "";
    return h("div", { class: "mg-snap-panel mg-snap-guide" },
      h("div", { class: "mg-snap-panel-title" }, this.t("snap.guide.title")),
      drawing,
      h("button", { class: "mg-snap-close", type: "button",
        onclick: () => this.togglePanel(null) }, this.t("snap.button.close")));
  }

  drawSettings() {
    const settings = this.model.get("form") || {};
    const options = this.model.get("options") || {};
    const form = h("form", { class: "mg-snap-panel mg-snap-settings" });
    const seats = settings.seats || [];
    const count = h("select", { name: "players" },
      [2, 3, 4].map((n) => h("option", { value: n, selected: n === seats.length }, String(n))));
    const seatRows = h("div", { class: "mg-snap-settings-seats" });
    const levels = options.levels || [];
    const drawSeats = () => {
      const rows = [];
      for (let i = 0; i < Number(count.value); i++) {
        const s = seats[i] || { kind: "computer", level: (levels[0] || {}).id, key: "" };
        const key = h("input", {
          name: `key${i}`, value: this.keyName(s.key || ""), size: 6, "data-code": s.key || "",
          onkeydown: (event) => {
            if (event.code === "Tab") return;
            event.preventDefault();
            event.target.dataset.code = event.code;
            event.target.value = this.keyName(event.code);
          },
        });
        rows.push(h("div", { class: "mg-snap-settings-seat", "data-seat": i },
          h("span", {}, this.t("snap.settings.seat", { n: i + 1 })),
          h("select", { name: `kind${i}` },
            h("option", { value: "person", selected: s.kind === "person" },
              this.t("snap.settings.person")),
            h("option", { value: "computer", selected: s.kind === "computer" },
              this.t("snap.settings.computer"))),
          h("label", {}, this.t("snap.settings.level"), " ",
            h("select", { name: `level${i}` }, levels.map((l) =>
              h("option", { value: l.id, selected: l.id === s.level }, l.label)))),
          h("label", {}, this.t("snap.settings.key"), " ", key)));
      }
      seatRows.replaceChildren(...rows);
    };
    count.addEventListener("change", drawSeats);
    drawSeats();
    const number = (name, value) => h("input", { type: "number", name, min: 0, step: 1, value });
    const choice = (name, value, pairs) => h("select", { name },
      pairs.map(([v, text]) => h("option", { value: v, selected: v === value }, text)));
    form.append(
      h("div", { class: "mg-snap-panel-title" }, this.t("snap.settings.title")),
      h("label", {}, this.t("snap.settings.players"), " ", count),
      seatRows,
      h("label", {}, this.t("snap.settings.pace"), " ", number("pace_ms", settings.pace_ms)),
      h("label", {}, this.t("snap.settings.slap_window"), " ",
        number("slap_window_ms", settings.slap_window_ms)),
      h("label", {}, this.t("snap.settings.tie_window"), " ",
        number("tie_window_ms", settings.tie_window_ms)),
      h("label", {}, this.t("snap.settings.call_mode"), " ",
        choice("call_mode", settings.call_mode, [
          ["auto", this.t("snap.settings.call_auto")],
          ["self", this.t("snap.settings.call_self")]])),
      h("label", {}, this.t("snap.settings.naming"), " ", choice("naming", settings.naming, [
        ["solfege", this.t("snap.settings.naming_solfege")],
        ["letters", this.t("snap.settings.naming_letters")]])),
      h("label", {}, this.t("snap.settings.language"), " ", choice("language",
        settings.language, (options.languages || []).map((l) => [l.code, l.name]))),
      h("label", {}, this.t("snap.settings.seed"), " ",
        h("input", { type: "number", name: "seed", step: 1,
          value: settings.seed === null || settings.seed === undefined ? "" : settings.seed })),
      h("div", { class: "mg-snap-settings-buttons" },
        h("button", { class: "mg-snap-start", type: "submit" }, this.t("snap.button.start")),
        h("button", { class: "mg-snap-close", type: "button",
          onclick: () => this.togglePanel(null) }, this.t("snap.button.close"))),
    );
    form.addEventListener("submit", (event) => {
      event.preventDefault();
      const data = new FormData(form);
      const chosen = [];
      for (let i = 0; i < Number(count.value); i++) {
        const keyInput = form.querySelector(`input[name=key${i}]`);
        chosen.push({
          kind: data.get(`kind${i}`),
          level: data.get(`level${i}`),
          key: keyInput ? keyInput.dataset.code : "",
        });
      }
      const seed = String(data.get("seed") || "").trim();
      this.panel = null;
      this.model.send({
        type: "new_game",
        settings: {
          seats: chosen,
          pace_ms: Number(data.get("pace_ms")),
          slap_window_ms: Number(data.get("slap_window_ms")),
          tie_window_ms: Number(data.get("tie_window_ms")),
          call_mode: data.get("call_mode"),
          naming: data.get("naming"),
          language: data.get("language"),
          seed: seed === "" ? null : Number(seed),
        },
      });
      this.draw();
      this.root.focus({ preventScroll: true });
    });
    return form;
  }
}

function render({ model, el }) {
  const view = new SnapView(model, el);
  return () => view.destroy();
}

export default { render };
