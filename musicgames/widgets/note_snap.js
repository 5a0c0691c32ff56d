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
//   {type: "pass", game, number, seat, at_ms}     "no match" (N): the seat will not slap
//   {type: "pause", paused}                       paused (Settings, Guide, focus lost, P);
//                                                 paused: false after the 3-2-1 count
//   {type: "practise"}                            at the end: practise the notes hesitated on
//   {type: "close_practice"}                      the practice's Close button
//
// "ready" is sent once the table is on screen and has the focus: until then no computer
// flips and no game clock runs (the focus overlay says to click the table).
//
// Pause: the page stops its timers (computer slaps, the window) and tells the kernel, which
// stops its own and the game clock. On resume the live card is shown again with its whole
// window, counted from the frame after the count (S13, S14). When the window closes early
// (every seat slapped or passed, S14) is the kernel's to say: the card's result ends it.
//
// Timing (rule S13): when a new card arrives, it is put in the page, then in the next
// requestAnimationFrame callback the time is read with performance.now(): that is the
// moment the card was shown. A key press or click reads performance.now() at once; the
// difference is the reaction time sent to the kernel. A slap is drawn at once, before the
// kernel answers. Computer slaps come with the card (their times were drawn in Python) and
// are drawn at their moment, counted from the same painted time.
//
// h(), replaceWith() and fill() are in _dom.js, guardKeys() in _focus.js, WidgetSound in
// _sound.js: the Python class puts them in front of this file. Sound: "hear the card" (a
// setting, off by default) plays the card's note from the frame it is shown in; a person's
// slap sounds right or wrong at once. Nothing sounds before the first click or key press on
// the page.

const SPACE = "Space";
const FLIP_KEYS = new Set(["Enter", "NumpadEnter"]);
const PAUSE_KEYS = new Set(["KeyP", "Escape"]);
const PASS_KEY = "KeyN";
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
    this.panel = null;        // "settings" | null: the panel over the table
    this.guideOpen = false;   // the guide card beside the table
    this.paused = false;      // the page paused the game
    this.pauseWhy = null;     // "settings" | "guide" | "focus" | "key" | "away"
    this.counting = null;     // {n, timer}: the 3-2-1 count before play goes on
    this.readySent = false;   // "ready" sent: the table was on screen with the focus
    this.overClosed = null;   // the game whose game-over panel was closed
    this.passes = new Map();  // seat -> ms: "no match" shown on the page for this card
    this.clockAt = null;      // performance.now() when time_left_s was received
    this.clockTimer = null;
    this.face = null;         // the card element on the page
    this.modal = null;        // the slot of the panel that holds the keyboard (Settings, end)
    this.signatures = {};
    this.timings = [];        // measurements, read by the browser tests and figures
    this.root = h("div", { class: "mg-snap" });
    this.root.mgSnap = this;
    this.slots = {};
    const slot = (name, cls) => (this.slots[name] = h("div", { class: cls }));
    this.sound = new WidgetSound("note_snap", (key) => this.t(key));
    this.main = h("div", { class: "mg-snap-main" },
      slot("header", "mg-snap-header"),
      slot("notice", "mg-snap-notices"),
      h("div", { class: "mg-snap-table" },
        slot("seats", "mg-snap-seats"),
        slot("centre", "mg-snap-centre"),
        slot("result", "mg-snap-results"),
        slot("pause", "mg-snap-pause-slot")),
      slot("controls", "mg-snap-controls"),
      slot("hint", "mg-snap-hints"),
      slot("history", "mg-snap-history-slot"));
    this.root.append(
      this.main,
      slot("guide", "mg-snap-guide-slot"),
      slot("overlay", "mg-snap-overlay"),
      slot("panel", "mg-snap-panels"),
    );
    this.practiceSlot = h("div", { class: "mg-snap-practice" });
    el.append(this.root, this.practiceSlot);
    // The practice drill's own view keeps its keys; its slot (heading, Close) is ours.
    this.practiceKeys = keepKeys(this.practiceSlot);
    // Takes the focus when drawn, keeps the game's keys from the notebook (_focus.js).
    this.guard = guardKeys(this.root, {
      onKey: (event) => this.keydown(event),
      label: () => this.t("snap.focus"),
      onFocus: (focused) => this.focusChanged(focused),
    });
    this.onChange = () => this.draw();
    this.traits = ["table", "strings", "form", "options", "notice", "card_svgs", "guide"];
    for (const name of this.traits) model.on(`change:${name}`, this.onChange);
    this.onPractice = () => this.showPractice();
    model.on("change:practice", this.onPractice);
    this.readyTimer = setInterval(() => this.maybeReady(), 250);
    // A click on the table brings all of it on screen (then the game can start), and
    // a person back at a table paused while away plays on.
    this.onPointer = () => {
      if (!this.onScreen()) this.root.scrollIntoView({ block: "nearest" });
      this.comeBack();
    };
    this.root.addEventListener("pointerdown", this.onPointer);
    // Tab stays inside an open panel (Settings, the end of a game): it goes round.
    this.onTab = (event) => this.keepTabInPanel(event);
    this.root.addEventListener("keydown", this.onTab, true);
    // The table scrolled (mostly) off the screen, or the page hidden: the game pauses, as P
    // does, and plays on (after the 3-2-1) when the person is back and presses a key or
    // clicks the table.
    this.onVisibility = () => { if (document.visibilityState === "hidden") this.away(); };
    document.addEventListener("visibilitychange", this.onVisibility);
    this.seen = null;
    if (typeof IntersectionObserver === "function") {
      // Away when less than half of the table (or of the window, for a table taller than
      // it) is in view: the same measure as onScreen(), so a tall table at 1024×768 that
      // fills the notebook's view never counts as away.
      this.seen = new IntersectionObserver((entries) => {
        for (const entry of entries) {
          const view = entry.rootBounds ? entry.rootBounds.height : window.innerHeight;
          const need = Math.min(entry.boundingClientRect.height, view) / 2;
          if (!entry.isIntersecting || entry.intersectionRect.height < need) this.away();
        }
      }, { threshold: [0, 0.1, 0.2, 0.3, 0.4, 0.5, 0.6, 0.7, 0.8, 0.9, 1] });
      this.seen.observe(this.main.querySelector(".mg-snap-table"));
    }
    this.draw();
    this.showPractice();
  }

  // The game starts once the table is on screen and has the focus.
  maybeReady() {
    if (this.readySent || !this.guard || !this.guard.focused || !this.onScreen()) return;
    this.readySent = true;
    clearInterval(this.readyTimer);
    this.model.send({ type: "ready" });
  }

  // At least half of the table's card area (or of the table, if smaller) is in the window.
  onScreen() {
    if (document.visibilityState === "hidden" || !this.root.isConnected) return false;
    const box = (this.root.querySelector(".mg-snap-table") || this.root).getBoundingClientRect();
    if (!box.width || !box.height) return false;
    const seen = Math.min(box.bottom, window.innerHeight) - Math.max(box.top, 0);
    const across = Math.min(box.right, window.innerWidth) - Math.max(box.left, 0);
    return across > 0 && seen >= Math.min(box.height, window.innerHeight) / 2;
  }

  // The note drill opened from the game-over panel, drawn under the table.
  async showPractice() {
    const ref = this.model.get("practice") || "";
    const shown = this.practiceSlot.dataset.ref || "";
    if (ref === shown) return;
    this.practiceSlot.dataset.ref = ref;
    if (this.practiceView) this.practiceView.remove();
    this.practiceView = null;
    this.practiceSlot.replaceChildren();
    const manager = this.model.widget_manager;
    if (!ref || !manager) return;
    const child = await manager.get_model(ref.replace(/^IPY_MODEL_/, ""));
    const view = await manager.create_view(child);
    if ((this.practiceSlot.dataset.ref || "") !== ref) { view.remove(); return; }
    this.practiceView = view;
    const notes = ((this.model.get("table") || {}).summary || {}).practice_labels || [];
    this.practiceSlot.append(
      h("div", { class: "mg-snap-practice-head" },
        h("span", { class: "mg-snap-practice-title" },
          this.t("snap.practice.title", { notes: notes.join(", ") })),
        h("button", { class: "mg-snap-close mg-snap-practice-close", type: "button",
          onclick: () => this.model.send({ type: "close_practice" }) },
        this.t("snap.button.close"))),
      view.el);
    view.trigger("displayed");
    this.showDrill(ref, 0);
  }

  // Once the drill is drawn (it has a height), bring all of it on screen and give it the
  // keyboard: it opens below the table, often under the window's edge.
  showDrill(ref, frames) {
    if ((this.practiceSlot.dataset.ref || "") !== ref || !this.practiceView) return;
    const el = this.practiceView.el;
    const drawn = el.getBoundingClientRect().height > 40 && el.querySelector("[tabindex]");
    if (!drawn && frames < 120) {
      requestAnimationFrame(() => this.showDrill(ref, frames + 1));
      return;
    }
    this.practiceSlot.scrollIntoView({ block: "nearest" });
    const target = el.querySelector("[tabindex]");
    if (target) target.focus({ preventScroll: true });
  }

  destroy() {
    this.clearTimers();
    this.stopCount();
    if (this.clockTimer !== null) clearInterval(this.clockTimer);
    this.sound.destroy();
    for (const name of this.traits) this.model.off(`change:${name}`, this.onChange);
    this.model.off("change:practice", this.onPractice);
    clearInterval(this.readyTimer);
    this.root.removeEventListener("pointerdown", this.onPointer);
    this.root.removeEventListener("keydown", this.onTab, true);
    document.removeEventListener("visibilitychange", this.onVisibility);
    if (this.seen) this.seen.disconnect();
    if (this.practiceView) this.practiceView.remove();
    this.guard.destroy();
    this.practiceKeys.destroy();
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
    if (!this.readySent) this.maybeReady();
    if (!this.readySent) return;  // the game has not started: the table is not on screen
    if (this.paused && this.pauseWhy === "away" && !this.panel) {
      this.comeBack();  // back at the table: any key plays on (after the 3-2-1)
      return;
    }
    if (PAUSE_KEYS.has(event.code)) {
      if (event.code === "Escape" && this.panel) this.closePanel();
      else if (event.code === "Escape" && this.overOpen(table)) this.closeOver(table);
      else if (this.isPaused()) this.resume();
      else this.pause("key");
      return;
    }
    if (this.isPaused()) return;  // paused: only P (or Escape) does anything
    if (event.code === PASS_KEY && table.pass_key) {
      const person = seats.find((s) => s.kind === "person");
      if (person) this.pass(person.seat, at);
      return;
    }
    if (slapper) {
      this.slap(slapper.seat, at, "key", event.timeStamp);
    } else if (isFlip) {
      this.flip(null);
    } else if (isCall) {
      this.flip(CYCLE[CALL_KEYS[event.code]]);
    }
  }

  // -- pause --------------------------------------------------------------------------
  running() {
    const table = this.model.get("table") || {};
    return table.phase === "flip" || table.phase === "slaps";
  }

  isPaused() {
    return this.paused || this.counting !== null;
  }

  focusChanged(focused) {
    if (focused) {
      this.maybeReady();
      return;
    }
    // (before the game started there is nothing to pause: it starts with the focus)
    if (this.readySent && !this.isPaused() && this.running()) this.pause("focus");
  }

  // The table left the screen (or the page was hidden) while the game ran.
  away() {
    if (this.readySent && !this.paused && this.running()) this.pause("away");
  }

  // The person is back: a key or a click on the table, with the table on screen.
  comeBack() {
    if (this.paused && this.pauseWhy === "away" && !this.panel && this.onScreen()) {
      this.resume();
    }
  }

  pause(why) {
    if (!this.running()) return;
    this.stopCount();
    this.pauseWhy = why;
    if (!this.paused) {
      this.paused = true;
      this.clearTimers();
      this.model.send({ type: "pause", paused: true });
    }
    this.draw();
  }

  resume() {
    if (!this.paused || this.counting !== null) return;
    if (this.panel === "settings") return;  // close Settings first
    const step = (n) => {
      if (n === 0) {
        this.counting = null;
        this.paused = false;
        this.pauseWhy = null;
        this.model.send({ type: "pause", paused: false });
        this.reshow(this.model.get("table") || {});
        this.draw();
        return;
      }
      this.counting = { n, timer: setTimeout(() => step(n - 1), 1000) };
      this.draw();
    };
    step(3);
  }

  stopCount() {
    if (this.counting !== null) clearTimeout(this.counting.timer);
    this.counting = null;
  }

  // After a pause, the card on the table is shown again with its whole window.
  reshow(table) {
    if (table.phase === "slaps" && table.card && table.card.number === this.card) {
      const { slaps, passes, pending } = this;
      this.card = undefined;
      this.newCard(table);
      this.slaps = slaps;
      this.passes = passes;
      this.pending = pending;
    }
  }

  closePanel() {
    const was = this.panel;
    this.panel = null;
    if (was === "settings" && this.paused && this.pauseWhy === "settings") {
      if (this.guideOpen) this.pauseWhy = "guide";
      else this.resume();
    }
    this.draw();
  }

  openSettings() {
    if (this.panel === "settings") {
      this.closePanel();
      return;
    }
    this.panel = "settings";
    this.pause("settings");
    this.draw();
  }

  toggleGuide() {
    this.guideOpen = !this.guideOpen;
    if (this.guideOpen) this.pause("guide");
    else if (this.paused && this.pauseWhy === "guide") this.resume();
    this.draw();
  }

  pass(seat, at) {
    const table = this.model.get("table") || {};
    const card = table.card;
    if (table.phase !== "slaps" || !card || card.number !== this.card) return;
    if (this.shownAt === null || this.slaps.has(seat) || this.passes.has(seat)) return;
    if (this.windowOver) return;
    const ms = at - this.shownAt;
    if (ms > card.window_ms) return;
    this.passes.set(seat, ms);
    this.model.send({ type: "pass", game: table.game, number: card.number, seat, at_ms: ms });
    this.draw();
  }

  // `at` is performance.now() read first thing in the event handler; `eventAt` is the
  // event's own timeStamp (when the browser received the input), kept for the figures.
  slap(seat, at, via, eventAt) {
    const table = this.model.get("table") || {};
    const card = table.card;
    if (table.phase !== "slaps" || !card || card.number !== this.card) return;
    if (this.shownAt === null || this.slaps.has(seat) || this.passes.has(seat)) return;
    if (this.isPaused()) return;
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
    const sounds = this.model.get("sounds") || {};
    this.sound.play(this.cardMatches(table) ? sounds.right : sounds.wrong);  // at once
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
    if (!seat || seat.kind !== "person" || this.isPaused()) return;
    const selfCall = seat.call_mode === "self";
    if (selfCall !== (call !== null)) return;  // auto: Enter; calling yourself: 1–7
    this.model.send({ type: "flip", game: table.game, seat: seat.seat, call });
  }

  // -- a new card -----------------------------------------------------------------------
  newCard(table) {
    this.clearTimers();
    this.slaps = new Map();
    this.passes = new Map();
    this.pending = new Map();
    this.windowOver = false;
    this.shownAt = null;
    const card = table.card;
    this.card = card ? card.number : null;
    if (!card || table.phase !== "slaps" || this.isPaused()) return;
    const number = card.number;
    const game = table.game;
    requestAnimationFrame(() => {
      if (this.card !== number || this.game !== game || this.isPaused()) return;
      this.shownAt = performance.now();
      if (table.hear_cards) {  // "hear the card": its note, from this very frame
        const sounds = this.model.get("sounds") || {};
        if (this.sound.play((sounds.notes || {})[card.note])) {
          const starts = this.sound.state.starts;
          this.timings.push({ kind: "sound", number, shown_at: this.shownAt,
            start: Object.assign({}, starts[starts.length - 1]) });
        }
      }
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
      for (const [seat, delay] of card.computer_passes || []) {
        this.timers.push(setTimeout(() => {
          if (this.card !== number || this.passes.has(seat)) return;
          this.passes.set(seat, delay);
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
          const first = this.panelControls(modal)[0];
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
    return h("div", { class: classes.join(" "), "data-seat": seat.seat },
      h("div", { class: "mg-snap-seat-name" }, seat.name,
        seat.kind === "computer"
          ? h("span", { class: "mg-snap-seat-level" }, ` · ${seat.level_label}`) : null),
      h("div", { class: "mg-snap-seat-cards", "data-cards": seat.cards },
        this.t("snap.seat.cards", { cards: this.cards(seat.cards) }),
        turn ? h("span", { class: "mg-snap-seat-turn" }, ` · ${this.t("snap.seat.turn")}`)
          : null),
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
    return h("div", { class: "mg-snap-winner", role: "dialog" },
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

  // The guide card beside the table: the 15 notes, four to a row, at the play card's size,
  // each named under it (HTML text, readable at any zoom).
  drawGuide() {
    const guide = this.model.get("guide") || {};
    this.slots.guide.dataset.placed = "no";
    return h("div", { class: "mg-snap-guide", role: "complementary" },
      h("div", { class: "mg-snap-guide-head" },
        h("span", { class: "mg-snap-panel-title" }, this.t("snap.guide.title")),
        h("button", { class: "mg-snap-close", type: "button",
          onclick: () => this.toggleGuide() }, this.t("snap.button.close"))),
      (guide.rows || []).map((row) => {
        const staff = h("div", { class: "mg-snap-guide-staff" });
        staff.innerHTML = row.svg;
        return h("div", { class: "mg-snap-guide-row" }, staff,
          h("div", { class: "mg-snap-guide-labels" }, row.labels.map((label) =>
            h("span", { class: "mg-snap-guide-label" }, label))));
      }));
  }

  // Put each name under its note: the notes' places are read from the drawn staff.
  placeGuideLabels() {
    if (!this.root.isConnected) return;
    let placed = true;
    for (const row of this.slots.guide.querySelectorAll(".mg-snap-guide-row")) {
      const staff = row.querySelector(".mg-snap-guide-staff");
      const heads = staff.querySelectorAll("g.note");
      const labels = row.querySelectorAll(".mg-snap-guide-label");
      const box = row.getBoundingClientRect();
      if (!box.width) placed = false;
      heads.forEach((head, i) => {
        const label = labels[i];
        if (!label) return;
        const r = head.getBoundingClientRect();
        label.style.left = `${r.left + r.width / 2 - box.left}px`;
      });
    }
    if (placed) this.slots.guide.dataset.placed = "yes";
    else requestAnimationFrame(() => this.placeGuideLabels());
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
    const edited = new Set();  // the seats whose key was chosen by hand
    // Default keys as the game gives them (sent by the kernel for each number of people).
    const defaultKeys = () => {
      const kinds = [...seatRows.querySelectorAll("select[name^=kind]")].map((s) => s.value);
      const people = kinds.filter((k) => k === "person").length;
      const defaults = (options.default_keys || {})[String(people)] || [];
      let next = 0;
      kinds.forEach((kind, i) => {
        const input = form.querySelector(`input[name=key${i}]`);
        const level = form.querySelector(`label.mg-snap-level${i}`);
        if (level) level.hidden = kind !== "computer";
        if (!input) return;
        input.closest("label").hidden = kind !== "person";
        if (kind !== "person" || edited.has(i)) return;
        const code = defaults[next++] || "";
        input.dataset.code = code;
        input.value = this.keyName(code);
      });
    };
    const drawSeats = () => {
      const rows = [];
      for (let i = 0; i < Number(count.value); i++) {
        const s = seats[i] || { kind: "computer", level: (levels[0] || {}).id, key: "" };
        const key = h("input", {
          name: `key${i}`, value: this.keyName(s.key || ""), size: 6, "data-code": s.key || "",
          onkeydown: (event) => {
            if (event.code === "Tab") return;
            event.preventDefault();
            edited.add(i);
            event.target.dataset.code = event.code;
            event.target.value = this.keyName(event.code);
          },
        });
        rows.push(h("div", { class: "mg-snap-settings-seat", "data-seat": i },
          h("span", {}, this.t("snap.settings.seat", { n: i + 1 })),
          h("select", { name: `kind${i}`, onchange: defaultKeys },
            h("option", { value: "person", selected: s.kind === "person" },
              this.t("snap.settings.person")),
            h("option", { value: "computer", selected: s.kind === "computer" },
              this.t("snap.settings.computer"))),
          h("label", { class: `mg-snap-level${i}` }, this.t("snap.settings.level"), " ",
            h("select", { name: `level${i}` }, levels.map((l) =>
              h("option", { value: l.id, selected: l.id === s.level }, l.label)))),
          h("label", {}, this.t("snap.settings.key"), " ", key)));
      }
      seatRows.replaceChildren(...rows);
      defaultKeys();
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
      h("label", {}, this.t("snap.settings.length"), " ", choice("length", settings.length,
        (options.lengths || []).map((l) => [l.id, l.label]))),
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
      h("label", {}, h("input", { type: "checkbox", name: "hear_cards",
        checked: Boolean(settings.hear_cards) }), " ", this.t("snap.settings.hear_cards")),
      h("label", {}, this.t("snap.settings.seed"), " ",
        h("input", { type: "number", name: "seed", step: 1,
          value: settings.seed === null || settings.seed === undefined ? "" : settings.seed })),
      h("div", { class: "mg-snap-settings-buttons" },
        h("button", { class: "mg-snap-start", type: "submit" }, this.t("snap.button.start")),
        h("button", { class: "mg-snap-close", type: "button",
          onclick: () => this.closePanel() }, this.t("snap.button.close"))),
    );
    form.addEventListener("submit", (event) => {
      event.preventDefault();
      const data = new FormData(form);
      const chosen = [];
      for (let i = 0; i < Number(count.value); i++) {
        const keyInput = form.querySelector(`input[name=key${i}]`);
        const kind = data.get(`kind${i}`);
        chosen.push({
          kind,
          level: data.get(`level${i}`),
          key: kind === "person" && keyInput ? keyInput.dataset.code : "",
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
          length: data.get("length"),
          hear_cards: data.get("hear_cards") === "on",
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
