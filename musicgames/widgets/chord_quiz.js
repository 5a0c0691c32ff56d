// Chord tones quiz: the page side of the widget.
//
// The rules live in Python. This view draws what it is sent (traits `phase`, `question`,
// `feedback`, `summary`, `score`, `options`, `strings`) and reports what the student does:
//   {type: "start"}
//   {type: "answer", number, keys: [k1, k2, k3], response_ms}   a "find" question
//   {type: "answer", number, choice, response_ms}               a "name" question
//   {type: "next", number}                                      after the feedback pause
//   {type: "time_up"}
//
// Timing: when a question arrives it is put in the page; in the next requestAnimationFrame
// performance.now() is read: the question was shown then. The answer's moment (the third key,
// or the chosen name) minus that is response_ms. Chosen keys are marked at once.

const CHOICE_KEYS = {
  Digit1: 0, Digit2: 1, Digit3: 2, Digit4: 3, Digit5: 4, Digit6: 5,
  Numpad1: 0, Numpad2: 1, Numpad3: 2, Numpad4: 3, Numpad5: 4, Numpad6: 5,
};

function h(tag, attrs, ...children) {
  const node = document.createElement(tag);
  for (const [name, value] of Object.entries(attrs || {})) {
    if (value === null || value === undefined || value === false) continue;
    if (name === "class") node.className = value;
    else if (name.startsWith("on")) node.addEventListener(name.slice(2), value);
    else node.setAttribute(name, value === true ? "" : String(value));
  }
  for (const child of children.flat()) {
    if (child === null || child === undefined || child === false) continue;
    node.append(child instanceof Node ? child : document.createTextNode(String(child)));
  }
  return node;
}

function fill(template, values) {
  return String(template).replace(/\{(\w+)\}/g, (whole, key) =>
    key in values ? String(values[key]) : whole);
}

function seconds(ms) {
  return ms === null || ms === undefined ? "–" : (ms / 1000).toFixed(1);
}

class QuizView {
  constructor(model, el) {
    this.model = model;
    this.number = null;
    this.shownAt = null;
    this.answered = null;
    this.selected = [];      // keys chosen so far in a "find" question
    this.nextTimer = null;
    this.clockTimer = null;
    this.deadline = null;
    this.timeUpSent = 0;
    this.frame = null;
    this.root = h("div", {
      class: "mg-quiz", tabindex: "0", "data-lm-suppress-shortcuts": "true",
    });
    this.onKey = (event) => this.keydown(event);
    this.root.addEventListener("keydown", this.onKey);
    el.append(this.root);
    this.build();
    this.listeners = [];
    for (const name of ["phase", "question", "feedback", "summary", "score", "options",
      "strings"]) {
      const listener = () => this.update(name);
      model.on(`change:${name}`, listener);
      this.listeners.push([name, listener]);
    }
    this.update("all");
  }

  t(key, values) {
    const strings = this.model.get("strings") || {};
    return fill(strings[key] || key, values || {});
  }

  build() {
    this.title = h("span", { class: "mg-quiz-title" });
    this.count = h("span", { class: "mg-quiz-count" });
    this.clock = h("span", { class: "mg-quiz-clock" });
    this.scoreLine = h("span", { class: "mg-quiz-score" });
    const header = h("div", { class: "mg-quiz-header" },
      this.title, this.count, this.clock, this.scoreLine);

    this.readyText = h("p", {});
    this.startButton = h("button", { class: "mg-quiz-start", type: "button",
      onclick: () => this.start() });
    this.ready = h("div", { class: "mg-quiz-ready" }, this.readyText, this.startButton);

    this.prompt = h("div", { class: "mg-quiz-prompt" });
    this.staff = h("div", { class: "mg-quiz-staff" });
    this.hint = h("div", { class: "mg-quiz-hint" });
    this.choiceRow = h("div", { class: "mg-quiz-choices" });
    this.keys = h("div", { class: "mg-quiz-keyboard" });
    this.keys.addEventListener("click", (event) => {
      const key = event.target.closest && event.target.closest(".mg-key");
      if (key) this.toggleKey(Number(key.getAttribute("data-key")), key);
    });
    this.clearButton = h("button", { class: "mg-quiz-clear", type: "button",
      onclick: () => this.clearKeys() });
    this.legend = h("div", { class: "mg-quiz-legend" });
    this.feedbackLine = h("div", { class: "mg-quiz-feedback", role: "status",
      "aria-live": "polite" });
    this.stage = h("div", { class: "mg-quiz-stage" }, this.prompt, this.staff, this.hint,
      this.choiceRow, this.keys, this.clearButton, this.legend, this.feedbackLine);
    this.over = h("div", { class: "mg-quiz-summary" });
    this.root.append(header, this.ready, this.stage, this.over);
  }

  update(what) {
    const phase = this.model.get("phase");
    this.root.dataset.phase = phase;
    this.title.textContent = this.t("quiz.title");
    this.readyText.textContent = this.t("quiz.ready");
    this.startButton.textContent = this.t("quiz.start");
    this.clearButton.textContent = this.t("quiz.find.clear");
    this.ready.hidden = phase !== "ready";
    this.stage.hidden = phase !== "asking";
    this.over.hidden = phase !== "over";
    const score = this.model.get("score") || {};
    this.scoreLine.textContent = score.asked ? this.t("quiz.score", score) : "";
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
    this.selected = [];
    this.shownAt = null;
    this.root.classList.remove("mg-answered");
    this.root.dataset.kind = question.kind;
    this.prompt.textContent = question.prompt || "";
    this.count.textContent = question.total
      ? this.t("quiz.question", { n: question.number, total: question.total })
      : this.t("quiz.question.open", { n: question.number });
    this.feedbackLine.textContent = "";
    this.feedbackLine.className = "mg-quiz-feedback";
    this.legend.textContent = "";
    const find = question.kind === "find";
    this.staff.innerHTML = find ? "" : (question.svg || "");
    this.staff.hidden = find;
    this.keys.innerHTML = find ? (question.keyboard || "") : "";
    this.keys.hidden = !find;
    this.clearButton.hidden = !find;
    this.hint.textContent = this.t(find ? "quiz.find.hint" : "quiz.name.hint");
    this.choiceRow.replaceChildren();
    this.choiceRow.hidden = find;
    (question.choices || []).forEach((label, index) => {
      this.choiceRow.append(h("button", {
        class: "mg-quiz-choice", type: "button", "data-index": index,
        onclick: (event) => this.choose(index, event.currentTarget),
      }, h("span", { class: "mg-quiz-digit" }, String(index + 1)), " ", label));
    });
    if (question.remaining_s !== null && question.remaining_s !== undefined) {
      this.deadline = performance.now() + question.remaining_s * 1000;
      this.startClock();
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

  toggleKey(key, node) {
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

  clearKeys() {
    if (this.answered === this.number) return;
    this.selected = [];
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
    const time = this.t("quiz.time", { seconds: seconds(feedback.response_ms) });
    this.feedbackLine.className = `mg-quiz-feedback ${feedback.correct ? "mg-right" : "mg-wrong"}`;
    this.feedbackLine.textContent =
      `${this.t(feedback.correct ? "quiz.right" : "quiz.wrong", feedback)} (${time})`;
    if (this.nextTimer === null) {
      const options = this.model.get("options") || {};
      const pause = feedback.correct ? options.right_pause_ms : options.wrong_pause_ms;
      const number = this.number;
      this.nextTimer = setTimeout(() => this.next(number), pause || 1500);
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

  startClock() {
    this.stopClock();
    const tick = () => {
      const left = this.deadline - performance.now();
      this.clock.textContent = left > 0
        ? this.t("quiz.time.left", { s: Math.ceil(left / 1000) })
        : this.t("quiz.time.up");
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
    const table = h("table", { class: "mg-quiz-table" },
      h("thead", {}, h("tr", {},
        h("th", {}, this.t("quiz.col.chord")), h("th", {}, this.t("quiz.col.tones")),
        h("th", {}, this.t("quiz.col.asked")), h("th", {}, this.t("quiz.col.right")),
        h("th", {}, this.t("quiz.col.time")))),
      h("tbody", {}, (summary.rows || []).map((row) => h("tr", {
        class: row.right < row.asked ? "mg-wrong" : "",
      }, h("td", {}, row.label), h("td", {}, row.tones), h("td", {}, row.asked),
      h("td", {}, row.right), h("td", {}, `${seconds(row.median_ms)} s`)))));
    const practise = (summary.practise || []).length
      ? h("p", {}, this.t("quiz.summary.practise"), " ", summary.practise.join(", "))
      : h("p", {}, this.t("quiz.summary.none"));
    this.over.replaceChildren(
      h("h3", {}, this.t("quiz.summary.title")),
      h("p", { class: "mg-quiz-total" },
        this.t("quiz.summary.total", { right: summary.right || 0, asked, percent })),
      h("p", {}, this.t("quiz.summary.median", { seconds: seconds(summary.median_ms) })),
      practise,
      asked ? table : "",
      h("button", { class: "mg-quiz-again", type: "button", onclick: () => this.start() },
        this.t("quiz.again")),
    );
  }

  keydown(event) {
    if (event.ctrlKey || event.metaKey || event.altKey) return;
    const phase = this.model.get("phase");
    const question = this.model.get("question") || {};
    if (event.code in CHOICE_KEYS && phase === "asking" && question.kind === "name") {
      event.preventDefault();
      event.stopPropagation();
      const index = CHOICE_KEYS[event.code];
      if (index < (question.choices || []).length) {
        this.choose(index, this.choiceRow.querySelector(`[data-index="${index}"]`));
      }
    } else if (event.code === "Enter" || event.code === "NumpadEnter") {
      event.preventDefault();
      event.stopPropagation();
      if (phase === "asking" && this.answered === this.number) this.next(this.number);
      else if (phase !== "asking") this.start();
    } else if (event.code === "Escape" && phase === "asking") {
      event.stopPropagation();
      this.clearKeys();
    }
  }

  destroy() {
    this.clearNext();
    this.stopClock();
    if (this.frame !== null) cancelAnimationFrame(this.frame);
    this.root.removeEventListener("keydown", this.onKey);
    for (const [name, listener] of this.listeners) this.model.off(`change:${name}`, listener);
  }
}

function render({ model, el }) {
  const view = new QuizView(model, el);
  return () => view.destroy();
}

export default { render };
