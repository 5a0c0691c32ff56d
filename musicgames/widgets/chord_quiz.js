// Chord tones quiz: the page side of the widget.
//
// The rules live in Python. This view draws what it is sent (traits `phase`, `question`,
// `feedback`, `summary`, `score`, `options`, `strings`) and reports what the student does:
//   {type: "start"}
//   {type: "answer", number, keys: [k1, k2, k3], response_ms}   a "find" question
//   {type: "answer", number, via: "played", midis: [m1, m2, m3], source, response_ms}
//                          a "find" question answered on a MIDI keyboard or by the microphone
//   {type: "answer", number, choice, response_ms}               a "name" or "ear" question
//   {type: "next", number}                                      after the feedback pause
//   {type: "time_up"}
//
// Sound (WidgetSound, _sound.js): every question can be heard with two buttons, the chord
// together (question.sound.block) or broken (question.sound.broken); an "ear" question (major
// or minor, by ear only) plays the chord as it appears and shows nothing else; after each
// answer the chord is played (feedback.sound), and the keys of the answer's keyboard play
// when clicked. Keys H and B: hear the chord again, together or broken.
//
// Timing: when a question arrives it is put in the page; in the next requestAnimationFrame
// performance.now() is read: the question was shown then. The answer's moment (the third key,
// or the chosen name) minus that is response_ms. Chosen keys are marked at once.
//
// What the quiz shares with the note drill (PracticeView: header, clock, timing, feedback
// pause, summary) is in _practice.js, h() and fill() are in _dom.js, guardKeys() in
// _focus.js: the Python class puts them in front of this file.

const CHOICE_KEYS = {
  Digit1: 0, Digit2: 1, Digit3: 2, Digit4: 3, Digit5: 4, Digit6: 5,
  Numpad1: 0, Numpad2: 1, Numpad3: 2, Numpad4: 3, Numpad5: 4, Numpad6: 5,
};

class QuizView extends PracticeView {
  constructor(model, el) {
    super(model, el, {
      prefix: "mg-quiz",
      traits: ["phase", "question", "feedback", "summary", "score", "options", "strings"],
      pause: 1500,
      words: {
        title: "quiz.title", ready: "quiz.ready", start: "quiz.start",
        score: "quiz.score", question: "quiz.question", questionOpen: "quiz.question.open",
        right: "quiz.right", wrong: "quiz.wrong", time: "quiz.time",
        timeLeft: "quiz.time.left", timeUp: "quiz.time.up",
        summaryTitle: "quiz.summary.title", summaryTotal: "quiz.summary.total",
        summaryMedian: "quiz.summary.median", again: "quiz.again",
        focus: "quiz.focus",
      },
    });
  }

  buildStage() {
    this.choiceRow = h("div", { class: "mg-quiz-choices" });
    this.clearButton = h("button", { class: "mg-quiz-clear", type: "button",
      onclick: () => this.clearKeys() });
    this.legend = h("div", { class: "mg-quiz-legend" });
    this.blockButton = h("button", { class: "mg-sound-play mg-quiz-hear-block", type: "button",
      onclick: () => this.hear("block") });
    this.brokenButton = h("button", { class: "mg-sound-play mg-quiz-hear-broken",
      type: "button", onclick: () => this.hear("broken") });
    const hearRow = h("div", { class: "mg-quiz-hear" }, this.blockButton, this.brokenButton);
    return [this.prompt, hearRow, this.staff, this.hint, this.choiceRow, this.keys,
      this.clearButton, this.legend, this.feedbackLine];
  }

  refresh() {
    this.clearButton.textContent = this.t("quiz.find.clear");
    this.blockButton.textContent = this.t("sound.play.block");
    this.brokenButton.textContent = this.t("sound.play.broken");
    this.blockButton.title = fill(this.t("sound.play.key"), { key: "H" });
    this.brokenButton.title = fill(this.t("sound.play.key"), { key: "B" });
    if (this.model.get("phase") === "asking") this.drawHint(this.model.get("question") || {});
  }

  drawHint(question) {
    const find = question.kind === "find";
    const input = (this.model.get("playing") || {}).input || "click";
    this.hint.textContent = this.t(find && input !== "click" ? `play.hint.chord.${input}`
      : find ? "quiz.find.hint" : question.kind === "ear" ? "quiz.ear.hint" : "quiz.name.hint");
  }

  poseQuestion(question) {
    this.selected = [];      // keys chosen so far in a "find" question
    this.heardTones = [];    // notes heard by the microphone so far (one per pitch class)
    if (this.catcher) this.catcher.clear();
    this.sounded = null;     // the question whose answer's chord was played
    this.root.dataset.kind = question.kind;
    this.prompt.textContent = question.prompt || "";
    this.legend.textContent = "";
    const find = question.kind === "find";
    const ear = question.kind === "ear";
    this.staff.innerHTML = find || ear ? "" : (question.svg || "");
    this.staff.hidden = find || ear;
    this.keys.innerHTML = find ? (question.keyboard || "") : "";
    this.keys.hidden = !find;
    this.clearButton.hidden = !find;
    this.drawHint(question);
    if (ear) this.sound.play((question.sound || {}).block);
    this.choiceRow.replaceChildren();
    this.choiceRow.hidden = find;
    (question.choices || []).forEach((label, index) => {
      this.choiceRow.append(h("button", {
        class: "mg-quiz-choice", type: "button", "data-index": index,
        onclick: (event) => this.choose(index, event.currentTarget),
      }, h("span", { class: this.cls("digit") }, String(index + 1)), " ", label));
    });
  }

  hear(how) {
    const question = this.model.get("question") || {};
    this.sound.play((question.sound || {})[how]);
    this.root.focus({ preventScroll: true });
  }

  keyClicked(key, node) {
    if (this.answered === this.number && this.model.get("phase") === "asking") {
      const hz = Number(node.getAttribute("data-hz"));  // answered: the keyboard is a piano
      if (hz > 0) this.sound.play({ hz: [hz], broken: false });
      return;
    }
    const now = performance.now();
    if (!this.canAnswer(now)) return;
    const at = this.selected.indexOf(key);
    if (at >= 0) {
      this.selected.splice(at, 1);
      node.classList.remove("mg-selected");
      return;
    }
    this.selected.push(key);
    node.classList.add("mg-selected");
    if (this.selected.length === 3) this.send({ keys: this.selected.slice() }, now);
  }

  // A note played on a MIDI keyboard, or heard by the microphone. A MIDI chord counts when
  // its three tones are struck together (ChordCatcher, _midi.js: within the kernel's
  // window, all still sounding); the microphone hears one note at a time, so its three
  // tones are taken one after another, as clicks are. Each tone shows on the keyboard.
  played(midi, source, at) {
    const question = this.model.get("question") || {};
    if (question.kind !== "find" || !this.canAnswer(at)) return;
    if (source === "midi") {
      if (!this.catcher) {
        const options = this.model.get("playing") || {};
        this.catcher = new ChordCatcher({ size: 3, windowMs: options.chord_window_ms || 300,
          onChord: (notes, when) => this.sendPlayed(notes, "midi", when) });
      }
      this.catcher.note(midi, at, this.play.midi.sounding());
      if (this.answered !== this.number) this.markPlayed(this.catcher.struck.map((s) => s.note));
      return;
    }
    if (this.heardTones.some((note) => note % 12 === midi % 12)) return;
    this.heardTones.push(midi);
    this.markPlayed(this.heardTones);
    if (this.heardTones.length === 3) this.sendPlayed(this.heardTones.slice(), source, at);
  }

  // Mark the played notes' keys (each its own, or its name's in the keyboard's first octave).
  markPlayed(notes) {
    for (const node of this.keys.querySelectorAll(".mg-selected")) {
      node.classList.remove("mg-selected");
    }
    for (const midi of notes) {
      const key = midi - 60 >= 0 && midi - 60 < 24 ? midi - 60 : midi % 12;
      const node = this.keys.querySelector(`.mg-key[data-key="${key}"]`);
      if (node) node.classList.add("mg-selected");
    }
  }

  sendPlayed(notes, source, at) {
    if (!this.canAnswer(at)) return;
    this.send({ via: "played", midis: notes, source }, at);
  }

  clearKeys() {
    if (this.answered === this.number) return;
    this.selected = [];
    this.heardTones = [];
    if (this.catcher) this.catcher.clear();
    for (const node of this.keys.querySelectorAll(".mg-selected")) {
      node.classList.remove("mg-selected");
    }
  }

  choose(index, node) {
    const now = performance.now();
    if (!this.canAnswer(now)) return;
    if (node) node.classList.add("mg-pending");
    this.send({ choice: index }, now);
  }

  markFeedback(feedback) {
    if (this.sounded !== feedback.number) {
      this.sounded = feedback.number;
      this.sound.play(feedback.sound);
    }
    if (feedback.kind === "find") {
      if (!this.keys.querySelector(".mg-feedback-keys")) {
        this.keys.innerHTML = `<div class="mg-feedback-keys">${feedback.keyboard || ""}</div>`;
        for (const key of feedback.keys || []) {
          const node = this.keys.querySelector(`.mg-key[data-key="${key}"]`);
          if (node) node.classList.add("mg-chosen");
        }
        for (const key of feedback.wrong_keys || []) {
          const node = this.keys.querySelector(`.mg-key[data-key="${key}"]`);
          if (node) node.classList.add("mg-wrong");
        }
      }
      this.legend.textContent = this.t("quiz.legend");
      this.clearButton.hidden = true;
    } else {
      for (const node of this.choiceRow.querySelectorAll(".mg-pending")) {
        node.classList.remove("mg-pending");
      }
      const right = this.choiceRow.querySelector(`[data-index="${feedback.right_choice}"]`);
      if (right) right.classList.add("mg-right");
      if (!feedback.correct) {
        const chosen = this.choiceRow.querySelector(`[data-index="${feedback.choice}"]`);
        if (chosen) chosen.classList.add("mg-wrong");
      }
    }
  }

  summaryColumns() {
    return ["quiz.col.chord", "quiz.col.tones", "quiz.col.asked", "quiz.col.right",
      "quiz.col.time"];
  }

  summaryCells(row) {
    return [row.label, row.tones, row.asked, row.right, `${this.secondsText(row.median_ms)} s`];
  }

  summaryPractise(summary) {
    return [(summary.practise || []).length
      ? h("p", {}, this.t("quiz.summary.practise"), " ", summary.practise.join(", "))
      : h("p", {}, this.t("quiz.summary.none"))];
  }

  keyPressed(event, phase) {
    if ((event.code === "KeyH" || event.code === "KeyB") && phase === "asking") {
      event.preventDefault();
      event.stopPropagation();
      this.hear(event.code === "KeyH" ? "block" : "broken");
      return true;
    }
    const question = this.model.get("question") || {};
    const choosing = question.kind === "name" || question.kind === "ear";
    if (event.code in CHOICE_KEYS && phase === "asking" && choosing) {
      event.preventDefault();
      event.stopPropagation();
      const index = CHOICE_KEYS[event.code];
      if (index < (question.choices || []).length) {
        this.choose(index, this.choiceRow.querySelector(`[data-index="${index}"]`));
      }
      return true;
    }
    if (event.code === "Escape" && phase === "asking") {
      event.stopPropagation();
      this.clearKeys();
      return true;
    }
    return false;
  }
}

function render({ model, el }) {
  const view = new QuizView(model, el);
  return () => view.destroy();
}

export default { render };
