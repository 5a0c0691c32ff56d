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
//
// The view's class comes in three files, one job each, put one after the other: SnapPanels
// (form.js: the guide card and the settings form), SnapDrawing (drawing.js: the table it is
// sent) and SnapView here (life cycle, keys, pause, messages, a new card).

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

class SnapView extends SnapDrawing {
  constructor(model, el) {
    super();
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

  // "1 card" or "3 cards", in the form the language's plural rules choose.
  cards(n) {
    return this.t(pluralKey(this.model.get("strings"), "snap.cards.count", n), { n });
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
}

function render({ model, el }) {
  const view = new SnapView(model, el);
  return () => view.destroy();
}

export default { render };
