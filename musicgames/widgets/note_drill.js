// Note drill: the page side of the widget.
//
// The rules live in Python. This view draws what it is sent (traits `phase`, `question`,
// `feedback`, `summary`, `score`, `names`, `keyboard`, `options`, `strings`) and reports
// what the student does, as messages:
//   {type: "start"}                                        Start / Practise again
//   {type: "answer", number, via, value, response_ms}      via: "name" | "key" | "keyboard"
//   {type: "answer", number, via: "played", midi, source, response_ms}
//                                   a note played on a MIDI keyboard or heard by the microphone
//   {type: "next", number}                                 after the feedback pause (or Enter)
//   {type: "time_up"}                                      a timed session's clock reached 0
//
// Timing: when a question arrives its staff is put in the page; in the next
// requestAnimationFrame callback performance.now() is read: that is when the note was shown.
// A click or key press reads performance.now() at once; the difference is response_ms.
// The student's choice is marked at once; right or wrong follows from the kernel.
//
// Sound (WidgetSound, _sound.js): the note is played after each answer (feedback.sound),
// and on demand with the "Hear it" button (question.sound). With options.ask === "ear"
// ("name what you hear") the staff stays empty and the note is played when the question
// appears. Once a question is answered, clicking a key of the keyboard plays it. Key H: hear
// the note again.
//
// What the drill shares with the chord quiz (PracticeView: header, clock, timing, feedback
// pause, summary) is in _practice.js, h() and fill() are in _dom.js, guardKeys() in
// _focus.js: the Python class puts them in front of this file.

const NAME_KEYS = {
  Digit1: 0, Digit2: 1, Digit3: 2, Digit4: 3, Digit5: 4, Digit6: 5, Digit7: 6,
  Numpad1: 0, Numpad2: 1, Numpad3: 2, Numpad4: 3, Numpad5: 4, Numpad6: 5, Numpad7: 6,
};

class DrillView extends PracticeView {
  constructor(model, el) {
    super(model, el, {
      prefix: "mg-drill",
      traits: ["phase", "question", "feedback", "summary", "score", "names", "keyboard",
        "options", "strings"],
      pause: 1000,
      words: {
        title: "drill.title", ready: "drill.ready", start: "drill.start",
        score: "drill.score", question: "drill.question", questionOpen: "drill.question.open",
        right: "drill.right", wrong: "drill.wrong", time: "drill.time",
        timeLeft: "drill.time.left", timeUp: "drill.time.up",
        summaryTitle: "drill.summary.title", summaryTotal: "drill.summary.total",
        summaryMedian: "drill.summary.median", again: "drill.again",
        focus: "drill.focus",
      },
    });
  }

  buildStage() {
    this.nameRow = h("div", { class: "mg-drill-names" });
    this.hearButton = h("button", { class: "mg-sound-play mg-drill-hear", type: "button",
      onclick: () => this.hear() });
    return [this.prompt, this.hearButton, this.staff, this.hint, this.nameRow, this.keys,
      this.feedbackLine];
  }

  refresh(what) {
    this.hearButton.textContent = this.t("sound.play");
    this.hearButton.title = fill(this.t("sound.play.key"), { key: "H" });
    if (what === "all" || what === "names" || what === "strings" || what === "options"
      || what === "playing") {
      this.drawNames();
    }
    if (what === "all" || what === "keyboard" || what === "options") this.drawKeyboard();
  }

  drawNames() {
    const ways = (this.model.get("options") || {}).answer_with || ["names", "keyboard"];
    this.nameRow.replaceChildren();
    this.nameRow.hidden = !ways.includes("names");
    const names = this.model.get("names") || [];
    names.forEach((name, index) => {
      const button = h("button", {
        class: "mg-drill-name", type: "button", "data-index": index,
        onclick: (event) => this.answer("name", index, event.currentTarget),
      }, h("span", { class: this.cls("digit") }, String(index + 1)), " ", name);
      this.nameRow.append(button);
    });
    const input = (this.model.get("playing") || {}).input || "click";
    const hint = input !== "click" ? "play.hint.note" : ways.length > 1 ? "drill.hint.both"
      : ways[0] === "names" ? "drill.hint.names" : "drill.hint.keyboard";
    this.hint.textContent = this.t(hint);
  }

  drawKeyboard() {
    const svg = this.model.get("keyboard");
    this.keys.innerHTML = svg || "";
    this.keys.hidden = !svg;
  }

  poseQuestion(question) {
    this.chosen = null;     // {via, value} of the student's answer
    this.sounded = null;    // the question whose answer's note was played
    const byEar = (this.model.get("options") || {}).ask === "ear";
    this.root.dataset.ask = byEar ? "ear" : "staff";
    this.staff.innerHTML = question.svg || "";
    this.prompt.textContent = this.t(byEar ? "drill.ear.prompt" : "drill.prompt");
    if (byEar) this.sound.play(question.sound);
    for (const node of this.root.querySelectorAll(".mg-right, .mg-wrong, .mg-pending, .mg-played")) {
      node.classList.remove("mg-right", "mg-wrong", "mg-pending", "mg-played");
    }
  }

  keyClicked(key, node) {
    if (this.answered === this.number && this.model.get("phase") === "asking") {
      const hz = Number(node.getAttribute("data-hz"));  // answered: the keyboard is a piano
      if (hz > 0) this.sound.play({ hz: [hz], broken: false });
      return;
    }
    this.answer("keyboard", key, node);
  }

  hear() {
    const feedback = this.model.get("feedback") || {};
    const question = this.model.get("question") || {};
    this.sound.play(feedback.number === this.number ? feedback.sound : question.sound);
    this.root.focus({ preventScroll: true });
  }

  answer(via, value, node) {
    const now = performance.now();
    if (!this.canAnswer(now)) return;
    this.chosen = { via, value };
    if (node) node.classList.add("mg-pending");
    this.send({ via, value }, now);
  }

  // A note played on a MIDI keyboard or heard: the kernel judges it as a click on that key.
  played(midi, source, at) {
    if (!this.canAnswer(at)) return;
    this.chosen = { via: "played", value: midi };
    this.send({ via: "played", midi, source }, at);
  }

  markFeedback(feedback) {
    if (this.sounded !== feedback.number) {
      this.sounded = feedback.number;
      this.sound.play(feedback.sound);
      if (feedback.svg) this.staff.innerHTML = feedback.svg;
    }
    for (const node of this.root.querySelectorAll(".mg-pending")) {
      node.classList.remove("mg-pending");
    }
    const name = this.nameRow.querySelector(`[data-index="${feedback.name_index}"]`);
    if (name) name.classList.add("mg-right");
    const key = this.keys.querySelector(`.mg-key[data-key="${feedback.key}"]`);
    if (key) key.classList.add("mg-right");
    // What was played shows on the keyboard (when the keyboard has that key).
    const played = Boolean(this.chosen) && this.chosen.via === "played";
    const onKeyboard = feedback.given_key !== null && feedback.given_key !== undefined;
    const playedKey = played && onKeyboard
      ? this.keys.querySelector(`.mg-key[data-key="${feedback.given_key}"]`) : null;
    if (playedKey) playedKey.classList.add("mg-played");
    if (!feedback.correct && this.chosen) {
      const selector = this.chosen.via === "keyboard"
        ? `.mg-key[data-key="${this.chosen.value}"]`
        : this.chosen.via === "played" ? null
          : `.mg-drill-name[data-index="${this.chosen.value}"]`;
      const chosen = selector ? this.root.querySelector(selector) : playedKey;
      if (chosen) chosen.classList.add("mg-wrong");
    }
  }

  summaryColumns() {
    return ["drill.col.note", "drill.col.asked", "drill.col.right", "drill.col.time"];
  }

  summaryCells(row) {
    return [row.label, row.asked, row.right, `${this.secondsText(row.median_ms)} s`];
  }

  summaryPractise(summary) {
    return (summary.practise || []).length
      ? [h("p", {}, this.t("drill.summary.practise"), " ", summary.practise.join(", ")),
        h("div", { class: "mg-drill-practise" })]
      : [h("p", {}, this.t("drill.summary.none"))];
  }

  drawSummary() {
    super.drawSummary();
    const staff = this.over.querySelector(".mg-drill-practise");
    if (staff) staff.innerHTML = (this.model.get("summary") || {}).practise_svg || "";
  }

  keyPressed(event, phase) {
    if (event.code === "KeyH" && phase === "asking") {
      event.preventDefault();
      event.stopPropagation();
      this.hear();
      return true;
    }
    if (!(event.code in NAME_KEYS) || phase !== "asking") return false;
    const ways = (this.model.get("options") || {}).answer_with || [];
    if (!ways.includes("names")) return true;
    event.preventDefault();
    event.stopPropagation();
    const index = NAME_KEYS[event.code];
    this.answer("key", index, this.nameRow.querySelector(`[data-index="${index}"]`));
    return true;
  }
}

function render({ model, el }) {
  const view = new DrillView(model, el);
  return () => view.destroy();
}

export default { render };
