// Note drill: the page side of the widget.
//
// The rules live in Python. This view draws what it is sent (traits `phase`, `question`,
// `feedback`, `summary`, `score`, `names`, `keyboard`, `options`, `strings`) and reports
// what the student does, as messages:
//   {type: "start"}                                        Start / Practise again
//   {type: "answer", number, via, value, response_ms}      via: "name" | "key" | "keyboard"
//   {type: "next", number}                                 after the feedback pause (or Enter)
//   {type: "time_up"}                                      a timed session's clock reached 0
//
// Timing: when a question arrives its staff is put in the page; in the next
// requestAnimationFrame callback performance.now() is read: that is when the note was shown.
// A click or key press reads performance.now() at once; the difference is response_ms.
// The student's choice is marked at once; right or wrong follows from the kernel.

const NAME_KEYS = {
  Digit1: 0, Digit2: 1, Digit3: 2, Digit4: 3, Digit5: 4, Digit6: 5, Digit7: 6,
  Numpad1: 0, Numpad2: 1, Numpad3: 2, Numpad4: 3, Numpad5: 4, Numpad6: 5, Numpad7: 6,
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

class DrillView {
  constructor(model, el) {
    this.model = model;
    this.el = el;
    this.number = null;     // the question on the page
    this.shownAt = null;    // performance.now() when its note was painted
    this.answered = null;   // the question the student has answered
    this.chosen = null;     // {via, value} of that answer
    this.nextTimer = null;
    this.clockTimer = null;
    this.deadline = null;   // performance.now() at which a timed session ends
    this.timeUpSent = 0;
    this.frame = null;

    this.root = h("div", {
      class: "mg-drill", tabindex: "0", "data-lm-suppress-shortcuts": "true",
    });
    this.onKey = (event) => this.keydown(event);
    this.root.addEventListener("keydown", this.onKey);
    el.append(this.root);
    this.build();
    this.listeners = [];
    for (const name of ["phase", "question", "feedback", "summary", "score", "names",
      "keyboard", "options", "strings"]) {
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
    this.header = h("div", { class: "mg-drill-header" });
    this.title = h("span", { class: "mg-drill-title" });
    this.count = h("span", { class: "mg-drill-count" });
    this.clock = h("span", { class: "mg-drill-clock" });
    this.scoreLine = h("span", { class: "mg-drill-score" });
    this.header.append(this.title, this.count, this.clock, this.scoreLine);

    this.ready = h("div", { class: "mg-drill-ready" });
    this.readyText = h("p", {});
    this.startButton = h("button", {
      class: "mg-drill-start", type: "button",
      onclick: () => this.start(),
    });
    this.ready.append(this.readyText, this.startButton);

    this.stage = h("div", { class: "mg-drill-stage" });
    this.prompt = h("div", { class: "mg-drill-prompt" });
    this.staff = h("div", { class: "mg-drill-staff" });
    this.hint = h("div", { class: "mg-drill-hint" });
    this.nameRow = h("div", { class: "mg-drill-names" });
    this.keys = h("div", { class: "mg-drill-keyboard" });
    this.keys.addEventListener("click", (event) => {
      const key = event.target.closest && event.target.closest(".mg-key");
      if (key) this.answer("keyboard", Number(key.getAttribute("data-key")), key);
    });
    this.feedbackLine = h("div", { class: "mg-drill-feedback", role: "status",
      "aria-live": "polite" });
    this.stage.append(this.prompt, this.staff, this.hint, this.nameRow, this.keys,
      this.feedbackLine);

    this.over = h("div", { class: "mg-drill-summary" });
    this.root.append(this.header, this.ready, this.stage, this.over);
  }

  update(what) {
    const phase = this.model.get("phase");
    this.title.textContent = this.t("drill.title");
    this.root.dataset.phase = phase;
    if (what === "all" || what === "names" || what === "strings" || what === "options") {
      this.drawNames();
    }
    if (what === "all" || what === "keyboard" || what === "options") this.drawKeyboard();
    this.readyText.textContent = this.t("drill.ready");
    this.startButton.textContent = this.t("drill.start");
    this.ready.hidden = phase !== "ready";
    this.stage.hidden = phase !== "asking";
    this.over.hidden = phase !== "over";
    const score = this.model.get("score") || {};
    this.scoreLine.textContent = score.asked ? this.t("drill.score", score) : "";
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

  drawNames() {
    const ways = (this.model.get("options") || {}).answer_with || ["names", "keyboard"];
    this.nameRow.replaceChildren();
    this.nameRow.hidden = !ways.includes("names");
    const names = this.model.get("names") || [];
    names.forEach((name, index) => {
      const button = h("button", {
        class: "mg-drill-name", type: "button", "data-index": index,
        onclick: (event) => this.answer("name", index, event.currentTarget),
      }, h("span", { class: "mg-drill-digit" }, String(index + 1)), " ", name);
      this.nameRow.append(button);
    });
    const hint = ways.length > 1 ? "drill.hint.both"
      : ways[0] === "names" ? "drill.hint.names" : "drill.hint.keyboard";
    this.hint.textContent = this.t(hint);
  }

  drawKeyboard() {
    const svg = this.model.get("keyboard");
    this.keys.innerHTML = svg || "";
    this.keys.hidden = !svg;
  }

  showQuestion(question) {
    this.clearNext();
    this.number = question.number;
    this.answered = null;
    this.chosen = null;
    this.shownAt = null;
    this.staff.innerHTML = question.svg || "";
    this.prompt.textContent = this.t("drill.prompt");
    this.count.textContent = question.total
      ? this.t("drill.question", { n: question.number, total: question.total })
      : this.t("drill.question.open", { n: question.number });
    this.feedbackLine.textContent = "";
    this.feedbackLine.className = "mg-drill-feedback";
    for (const node of this.root.querySelectorAll(".mg-right, .mg-wrong, .mg-pending")) {
      node.classList.remove("mg-right", "mg-wrong", "mg-pending");
    }
    this.root.classList.remove("mg-answered");
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

  answer(via, value, node) {
    const now = performance.now();
    if (this.model.get("phase") !== "asking" || this.shownAt === null) return;
    if (this.answered === this.number) return;
    if (this.deadline !== null && now >= this.deadline) return;
    this.answered = this.number;
    this.chosen = { via, value };
    this.root.classList.add("mg-answered");
    if (node) node.classList.add("mg-pending");
    this.model.send({
      type: "answer", number: this.number, via, value,
      response_ms: Math.max(0, now - this.shownAt),
    });
  }

  showFeedback() {
    const feedback = this.model.get("feedback") || {};
    if (feedback.number !== this.number || this.number === null) return;
    this.root.classList.add("mg-answered");
    for (const node of this.root.querySelectorAll(".mg-pending")) {
      node.classList.remove("mg-pending");
    }
    const name = this.nameRow.querySelector(`[data-index="${feedback.name_index}"]`);
    if (name) name.classList.add("mg-right");
    const key = this.keys.querySelector(`.mg-key[data-key="${feedback.key}"]`);
    if (key) key.classList.add("mg-right");
    if (!feedback.correct && this.chosen) {
      const selector = this.chosen.via === "keyboard"
        ? `.mg-key[data-key="${this.chosen.value}"]`
        : `.mg-drill-name[data-index="${this.chosen.value}"]`;
      const chosen = this.root.querySelector(selector);
      if (chosen) chosen.classList.add("mg-wrong");
    }
    const time = this.t("drill.time", { seconds: seconds(feedback.response_ms) });
    this.feedbackLine.className =
      `mg-drill-feedback ${feedback.correct ? "mg-right" : "mg-wrong"}`;
    this.feedbackLine.textContent =
      `${this.t(feedback.correct ? "drill.right" : "drill.wrong", feedback)} (${time})`;
    if (this.nextTimer === null) {
      const options = this.model.get("options") || {};
      const pause = feedback.correct ? options.right_pause_ms : options.wrong_pause_ms;
      const number = this.number;
      this.nextTimer = setTimeout(() => this.next(number), pause || 1000);
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
        ? this.t("drill.time.left", { s: Math.ceil(left / 1000) })
        : this.t("drill.time.up");
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
    const table = h("table", { class: "mg-drill-table" },
      h("thead", {}, h("tr", {},
        h("th", {}, this.t("drill.col.note")), h("th", {}, this.t("drill.col.asked")),
        h("th", {}, this.t("drill.col.right")), h("th", {}, this.t("drill.col.time")))),
      h("tbody", {}, (summary.rows || []).map((row) => h("tr", {
        class: row.right < row.asked ? "mg-wrong" : "",
      }, h("td", {}, row.label), h("td", {}, row.asked), h("td", {}, row.right),
      h("td", {}, `${seconds(row.median_ms)} s`)))));
    const practise = (summary.practise || []).length
      ? [h("p", {}, this.t("drill.summary.practise"), " ", summary.practise.join(", ")),
        h("div", { class: "mg-drill-practise" })]
      : [h("p", {}, this.t("drill.summary.none"))];
    this.over.replaceChildren(
      h("h3", {}, this.t("drill.summary.title")),
      h("p", { class: "mg-drill-total" },
        this.t("drill.summary.total", { right: summary.right || 0, asked, percent })),
      h("p", {}, this.t("drill.summary.median", { seconds: seconds(summary.median_ms) })),
      ...practise,
      asked ? table : "",
      h("button", { class: "mg-drill-again", type: "button", onclick: () => this.start() },
        this.t("drill.again")),
    );
    const staff = this.over.querySelector(".mg-drill-practise");
    if (staff) staff.innerHTML = summary.practise_svg || "";
  }

  keydown(event) {
    if (event.ctrlKey || event.metaKey || event.altKey) return;
    const phase = this.model.get("phase");
    if (event.code in NAME_KEYS && phase === "asking") {
      const ways = (this.model.get("options") || {}).answer_with || [];
      if (!ways.includes("names")) return;
      event.preventDefault();
      event.stopPropagation();
      const index = NAME_KEYS[event.code];
      this.answer("key", index, this.nameRow.querySelector(`[data-index="${index}"]`));
    } else if (event.code === "Enter" || event.code === "NumpadEnter") {
      event.preventDefault();
      event.stopPropagation();
      if (phase === "asking" && this.answered === this.number) this.next(this.number);
      else if (phase !== "asking") this.start();
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
  const view = new DrillView(model, el);
  return () => view.destroy();
}

export default { render };
