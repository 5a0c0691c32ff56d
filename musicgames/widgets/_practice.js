// The page side shared by the note drill and the chord quiz: a session of questions.
//
// This file exports nothing: the widget's Python class puts it (after _dom.js, _focus.js and
// _sound.js) in front of the view's own file, whose view extends PracticeView. The header
// carries the widget's sound control (this.sound, a WidgetSound named after the view's prefix).
//
// A PracticeView draws a header (title, question count, clock, score), a Start panel, the
// stage where each question is asked and answered, and the summary. It reports:
//   {type: "start"}                                  Start / Practise again / Enter
//   {type: "answer", number, ...answer, response_ms}  what `answer` holds is the view's own
//   {type: "next", number}                           after the feedback pause (or Enter)
//   {type: "time_up"}                                a timed session's clock reached 0
//
// Timing: when a question arrives it is put in the page; in the next requestAnimationFrame
// callback performance.now() is read: the question was shown then. The moment of the
// answer, read at once, minus that is response_ms.
//
// The view that extends it gives, in the constructor's options: `prefix` (its CSS class, as
// "mg-drill"), `traits` (the traits it draws), `pause` (ms before the next question when the
// kernel names none) and `words` (the catalogue keys of the shared texts, written out in the
// view's own file). It fills in: buildStage(), refresh(what), poseQuestion(question),
// keyClicked(key, node), markFeedback(feedback), keyPressed(event, phase),
// summaryColumns(), summaryCells(row), summaryPractise(summary), and played(midi, source,
// at): a note played on a MIDI keyboard or heard by the microphone (this.play, a PlayInput
// of _play_input.js, drawn under the header), at performance.now() `at`.
// Elements built here carry two classes: the shared "mg-practice-x" (styled in
// _practice.css) and the view's own, as "mg-drill-x".

class PracticeView {
  constructor(model, el, { prefix, traits, pause, words }) {
    this.model = model;
    this.el = el;
    this.prefix = prefix;
    this.pause = pause;
    this.words = words;
    this.number = null;     // the question on the page
    this.shownAt = null;    // performance.now() when it was painted
    this.answered = null;   // the question the student has answered
    this.nextTimer = null;
    this.clockTimer = null;
    this.deadline = null;   // performance.now() at which a timed session ends
    this.timeUpSent = 0;
    this.frame = null;

    this.root = h("div", { class: `mg-practice ${prefix}` });
    el.append(this.root);
    this.build();
    // Takes the focus when drawn; keeps its keys from the notebook (_focus.js).
    this.guard = guardKeys(this.root, {
      onKey: (event) => this.keydown(event),
      label: () => this.t(this.words.focus),
    });
    this.listeners = [];
    for (const name of [...traits, "notice", "playing", "heard"]) {
      const listener = () => this.update(name);
      model.on(`change:${name}`, listener);
      this.listeners.push([name, listener]);
    }
    this.update("all");
  }

  // The classes of a part of the view: the shared one and the view's own.
  cls(part) {
    return `mg-practice-${part} ${this.prefix}-${part}`;
  }

  t(key, values) {
    const strings = this.model.get("strings") || {};
    return fill(strings[key] || key, values || {});
  }

  // Seconds with one decimal, written as the language writes decimals ("0.7" or "0,7").
  secondsText(ms) {
    return ms === null || ms === undefined ? "–"
      : numberText(this.model.get("strings"), ms / 1000, 1);
  }

  build() {
    this.title = h("span", { class: this.cls("title") });
    this.count = h("span", { class: this.cls("count") });
    this.clock = h("span", { class: this.cls("clock") });
    this.scoreLine = h("span", { class: this.cls("score") });
    this.sound = new WidgetSound(this.prefix, (key) => this.t(key));
    const header = h("div", { class: this.cls("header") },
      this.title, this.count, this.clock, this.scoreLine, this.sound.control);

    this.readyText = h("p", {});
    this.startButton = h("button", { class: this.cls("start"), type: "button",
      onclick: () => this.start() });
    // The first-click note of the sound control goes under Start, below the focus bar.
    this.ready = h("div", { class: this.cls("ready") }, this.readyText, this.startButton,
      h("p", { class: this.cls("sound-note") }, this.sound.note));

    this.prompt = h("div", { class: this.cls("prompt") });
    this.staff = h("div", { class: this.cls("staff") });
    this.hint = h("div", { class: this.cls("hint") });
    this.keys = h("div", { class: this.cls("keyboard") });
    this.keys.addEventListener("click", (event) => {
      const key = event.target.closest && event.target.closest(".mg-key");
      if (key) this.keyClicked(Number(key.getAttribute("data-key")), key);
    });
    this.feedbackLine = h("div", { class: this.cls("feedback"), role: "status",
      "aria-live": "polite" });
    this.stage = h("div", { class: this.cls("stage") }, this.buildStage());
    this.over = h("div", { class: this.cls("summary") });
    this.noticeLine = h("div", { class: this.cls("notice"), role: "status" });
    // Click / MIDI keyboard / Microphone (_play_input.js): a played note goes to played().
    this.play = new PlayInput(this.model, (key, values) => this.t(key, values), {
      onNote: (midi, source, at) => this.played(midi, source, at),
      active: () => this.model.get("phase") === "asking",
    });
    // What the widget plays itself (a note after each answer) is not the student's note.
    const playSound = this.sound.play.bind(this.sound);
    this.sound.play = (sound) => {
      const tones = ((sound && sound.hz) || []).length;
      this.play.quiet(sound && sound.broken ? 1.2 + 0.33 * tones : 1.4);
      return playSound(sound);
    };
    this.root.append(header, this.play.root, this.noticeLine, this.ready, this.stage, this.over);
  }

  update(what) {
    const phase = this.model.get("phase");
    this.root.dataset.phase = phase;
    this.title.textContent = this.t(this.words.title);
    const notice = this.model.get("notice") || "";
    this.noticeLine.textContent = notice;
    this.noticeLine.hidden = !notice;
    if (what === "all" || what === "strings") this.sound.refresh();
    if (what === "all" || what === "strings" || what === "playing" || what === "heard") {
      this.play.refresh();
    } else if (what === "phase") {
      this.play.activeChanged();
    }
    this.refresh(what);
    this.readyText.textContent = this.t(this.words.ready);
    this.startButton.textContent = this.t(this.words.start);
    this.ready.hidden = phase !== "ready";
    this.stage.hidden = phase !== "asking";
    this.over.hidden = phase !== "over";
    const score = this.model.get("score") || {};
    this.scoreLine.textContent = score.asked ? this.t(this.words.score, score) : "";
    if (phase === "asking") {
      const question = this.model.get("question") || {};
      if (question.number !== this.number) this.showQuestion(question);
      this.showFeedback();
    } else {
      this.stopClock();
      this.clearNext();
      this.count.textContent = "";
    }
    if (phase === "over" && (what === "all" || what === "summary" || what === "phase")) {
      this.drawSummary();
    }
  }

  showQuestion(question) {
    this.clearNext();
    this.number = question.number;
    this.answered = null;
    this.shownAt = null;
    this.root.classList.remove("mg-answered");
    this.count.textContent = question.total
      ? this.t(this.words.question, { n: question.number, total: question.total })
      : this.t(this.words.questionOpen, { n: question.number });
    this.feedbackLine.textContent = "";
    this.feedbackLine.className = this.cls("feedback");
    this.poseQuestion(question);
    if (question.remaining_s !== null && question.remaining_s !== undefined) {
      this.startClock(performance.now() + question.remaining_s * 1000);
    } else {
      this.stopClock();
    }
    const number = question.number;
    if (this.frame !== null) cancelAnimationFrame(this.frame);
    this.frame = requestAnimationFrame(() => {
      this.frame = null;
      if (this.number === number) this.shownAt = performance.now();
    });
  }

  canAnswer(now) {
    if (this.model.get("phase") !== "asking" || this.shownAt === null) return false;
    if (this.answered === this.number) return false;
    return !(this.deadline !== null && now >= this.deadline);
  }

  send(answer, now) {
    this.answered = this.number;
    this.root.classList.add("mg-answered");
    this.model.send({
      type: "answer", number: this.number, ...answer,
      response_ms: Math.max(0, now - this.shownAt),
    });
  }

  showFeedback() {
    const feedback = this.model.get("feedback") || {};
    if (feedback.number !== this.number || this.number === null) return;
    this.root.classList.add("mg-answered");
    this.markFeedback(feedback);
    const time = this.t(this.words.time, { seconds: this.secondsText(feedback.response_ms) });
    this.feedbackLine.className =
      `${this.cls("feedback")} ${feedback.correct ? "mg-right" : "mg-wrong"}`;
    this.feedbackLine.textContent =
      `${this.t(feedback.correct ? this.words.right : this.words.wrong, feedback)} (${time})`;
    // Why, in the lessons' words ("La3 sits in the 2nd space."), on a line of its own.
    if (feedback.explain) {
      this.feedbackLine.append(h("span", { class: this.cls("why") }, feedback.explain));
    }
    if (this.nextTimer === null) {
      const options = this.model.get("options") || {};
      const pause = feedback.correct ? options.right_pause_ms : options.wrong_pause_ms;
      const number = this.number;
      this.nextTimer = setTimeout(() => this.next(number), pause || this.pause);
    }
  }

  next(number) {
    this.clearNext();
    if (this.model.get("phase") !== "asking" || number !== this.number) return;
    const feedback = this.model.get("feedback") || {};
    if (feedback.number !== number) return;
    this.model.send({ type: "next", number });
  }

  clearNext() {
    if (this.nextTimer !== null) clearTimeout(this.nextTimer);
    this.nextTimer = null;
  }

  // Count down to `deadline` (a performance.now() time); at 0 say so, and tell the kernel.
  startClock(deadline) {
    this.stopClock();  // the clock of the question before, and its deadline
    this.deadline = deadline;
    const tick = () => {
      const left = this.deadline - performance.now();
      this.clock.textContent = left > 0
        ? this.t(this.words.timeLeft, { s: Math.ceil(left / 1000) })
        : this.t(this.words.timeUp);
      if (left <= 0 && performance.now() - this.timeUpSent > 1000) {
        this.timeUpSent = performance.now();
        this.model.send({ type: "time_up" });
      }
    };
    tick();
    this.clockTimer = setInterval(tick, 250);
  }

  stopClock() {
    if (this.clockTimer !== null) clearInterval(this.clockTimer);
    this.clockTimer = null;
    this.deadline = null;
    this.clock.textContent = "";
  }

  start() {
    this.number = null;
    this.root.focus({ preventScroll: true });
    this.model.send({ type: "start" });
  }

  drawSummary() {
    const summary = this.model.get("summary") || {};
    const asked = summary.asked || 0;
    const percent = asked ? Math.round((100 * summary.right) / asked) : 0;
    const table = h("table", { class: this.cls("table") },
      h("thead", {}, h("tr", {}, this.summaryColumns().map((key) => h("th", {}, this.t(key))))),
      h("tbody", {}, (summary.rows || []).map((row) => h("tr", {
        class: row.right < row.asked ? "mg-wrong" : "",
      }, this.summaryCells(row).map((cell) => h("td", {}, cell))))));
    this.over.replaceChildren(
      h("h3", {}, this.t(this.words.summaryTitle)),
      h("p", { class: this.cls("total") },
        this.t(this.words.summaryTotal, { right: summary.right || 0, asked, percent })),
      h("p", {}, this.t(this.words.summaryMedian, { seconds: this.secondsText(summary.median_ms) })),
      ...this.summaryPractise(summary),
      summary.next_review ? h("p", { class: this.cls("next-review") }, summary.next_review) : "",
      asked ? table : "",
      h("button", { class: this.cls("again"), type: "button", onclick: () => this.start() },
        this.t(this.words.again)),
    );
  }

  keydown(event) {
    if (event.ctrlKey || event.metaKey || event.altKey) return;
    const phase = this.model.get("phase");
    if (this.keyPressed(event, phase)) return;
    if (event.code === "Enter" || event.code === "NumpadEnter") {
      event.preventDefault();
      event.stopPropagation();
      if (phase === "asking" && this.answered === this.number) this.next(this.number);
      else if (phase !== "asking") this.start();
    }
  }

  // A note played (MIDI keyboard) or heard (microphone): the view's own business.
  played() {}

  destroy() {
    this.clearNext();
    this.stopClock();
    if (this.frame !== null) cancelAnimationFrame(this.frame);
    this.guard.destroy();
    this.sound.destroy();
    this.play.destroy();
    for (const [name, listener] of this.listeners) this.model.off(`change:${name}`, listener);
  }
}
