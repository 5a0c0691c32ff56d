// Note Snap's page: the panels beside the table, the guide card and the settings form.
//
// The first part of the view's class (see note_snap/view.js): SnapDrawing extends it, and
// SnapView extends that. The Python class puts the three files one after the other.

class SnapPanels {
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
      (options.players || []).map((n) => h("option", { value: n, selected: n === seats.length },
        String(n))));
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
