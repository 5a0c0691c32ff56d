// The "answer with" switch of the widgets that ask for a note: Click, MIDI keyboard or
// Microphone, with their options, and what each reports.
//
// This file exports nothing: a widget's Python class puts it (after _dom.js, _midi.js and,
// when it is there, _microphone.js) in front of the view's own file. The settings are the
// kernel's (trait `playing`: {input, any_octave_midi, any_octave_microphone, instrument, a4,
// and what the page needs to draw them}); a change is sent as
//   {type: "input", settings: {...the fields changed}}
// and drawn once the kernel sends them back. The page never judges a note: it reports the
// MIDI number played (60 = Do3) and where it came from ("midi" or "microphone"); the kernel
// takes a transposing instrument's note back to the written one and judges it.
//
//   const play = new PlayInput(model, t, {
//     onNote: (midi, source, at) => ...,   // a note-on, or a steady note heard
//     active: () => true,                  // whether a question waits (the microphone runs
//                                          // only then, and only while the page is shown)
//   });
//   parent.append(play.root);
//   play.refresh();                        // after `playing`, `heard` or `strings` changed
//   play.activeChanged();                  // after what active() says may have changed
//   play.midi.sounding()                   // what the MIDI keyboard sounds now
//   play.quiet(seconds);                   // the page plays a sound: the microphone must
//                                          // not take it for the student's note
//   play.destroy();
//
// The microphone (startMicrophone from _microphone.js) runs only while Microphone is chosen,
// a question waits, the browser tab is shown and the widget is on the screen; it is released
// (every track stopped) as soon as one of these ends, and when the widget is closed. What it
// hears is shown ("Heard: Sol3, a little flat") with the names the kernel sends (trait
// `heard`, the written note for the student's instrument); nothing is recorded or sent
// anywhere but the note numbers to the kernel.
//
// Browsers give MIDI and the microphone to secure pages only: https, or a page from this
// very computer (localhost, 127.0.0.1). A classroom's page reached over plain http from
// another computer is not one: there both options are greyed out and say so (state
// "insecure"), rather than that the browser lacks them or refused.

// Why MIDI or the microphone cannot be used on this page, as a state of PlayInput:
// "insecure" (not a secure page), "unsupported" (the browser has no such API), or "".
function mgPlayBlocked(supported) {
  if (globalThis.isSecureContext === false) return "insecure";
  return supported ? "" : "unsupported";
}

// How far off tune a heard note is, as _microphone.js says it, in the catalogue's words.
const MG_TUNING_WORDS = {
  in_tune: "play.tune.in", a_little_flat: "play.tune.flat.little",
  a_little_sharp: "play.tune.sharp.little", flat: "play.tune.flat", sharp: "play.tune.sharp",
};

class PlayInput {
  constructor(model, t, { onNote, active }) {
    this.model = model;
    this.t = t;
    this.onNote = onNote;
    this.active = active || (() => true);
    this.midiState = "off";        // off | waiting | on | refused | unsupported | insecure
    this.micState = "off";         // off | starting | on | refused | unsupported | insecure
    this.micStop = null;
    this.micWanted = false;
    this.micRun = 0;
    this.heardText = "";
    this.onScreen = true;
    this.midi = new MidiKeyboard({
      onNote: (note, at) => {
        if (this.settings().input === "midi") this.onNote(note, "midi", at);
      },
      onChange: () => this.drawStatus(),
    });
    this.build();
    this.visibility = () => this.activeChanged();
    document.addEventListener("visibilitychange", this.visibility);
    if (typeof IntersectionObserver === "function") {
      this.observer = new IntersectionObserver((entries) => {
        for (const entry of entries) this.onScreen = entry.isIntersecting;
        this.activeChanged();
      });
      this.observer.observe(this.root);
    }
  }

  settings() {
    return this.model.get("playing") || {};
  }

  build() {
    this.buttons = {};
    const row = h("div", { class: "mg-play-inputs", role: "radiogroup" });
    for (const input of ["click", "midi", "microphone"]) {
      const button = h("button", { type: "button", class: "mg-play-input", "data-input": input,
        role: "radio", onclick: () => this.pick(input) });
      this.buttons[input] = button;
      row.append(button);
    }
    this.label = h("span", { class: "mg-play-label" });
    this.device = h("select", { class: "mg-play-device",
      onchange: () => this.midi.choose(this.device.value) });
    this.deviceLabel = h("label", { class: "mg-play-device-label" }, h("span", {}), this.device);
    this.octave = h("input", { type: "checkbox", class: "mg-play-octave",
      onchange: () => this.choose({ [`any_octave_${this.settings().input}`]: this.octave.checked }) });
    this.octaveLabel = h("label", { class: "mg-play-octave-label" }, this.octave, h("span", {}));
    this.instrument = h("select", { class: "mg-play-instrument",
      onchange: () => this.choose({ instrument: this.instrument.value }) });
    this.instrumentLabel = h("label", {}, h("span", {}), this.instrument);
    this.a4 = h("input", { type: "number", class: "mg-play-a4", step: "1",
      onchange: () => {
        const value = Number(this.a4.value);
        if (Number.isFinite(value)) this.choose({ a4: value });
      } });
    this.a4Label = h("label", {}, h("span", {}), " ", this.a4);
    this.micOptions = h("span", { class: "mg-play-mic-options" }, this.instrumentLabel,
      this.a4Label);
    this.status = h("div", { class: "mg-play-status", role: "status", "aria-live": "polite" });
    this.root = h("div", { class: "mg-play" },
      h("div", { class: "mg-play-row" }, this.label, row, this.deviceLabel, this.octaveLabel,
        this.micOptions),
      this.status);
  }

  // The student chose a way to answer; choosing again one the browser refused asks again.
  pick(input) {
    if (this.settings().input === input) {
      if (this.micState === "refused") this.micState = "off";
      if (this.midiState === "refused") this.midiState = "off";
      this.micWanted = false;
      this.refresh();
      return;
    }
    this.choose({ input });
  }

  choose(changes) {
    this.model.send({ type: "input", settings: changes });
  }

  // Draw the settings the kernel sent, and start or stop MIDI and the microphone to match.
  refresh() {
    const settings = this.settings();
    const input = settings.input || "click";
    this.label.textContent = this.t("play.label");
    for (const [name, button] of Object.entries(this.buttons)) {
      button.textContent = this.t(`play.input.${name}`);
      button.setAttribute("aria-checked", String(name === input));
      button.classList.toggle("mg-chosen", name === input);
    }
    const noMidi = this.midiBlocked();
    this.buttons.midi.disabled = Boolean(noMidi);
    this.buttons.midi.title = noMidi ? this.t(`play.midi.${noMidi}`) : "";
    const noMic = this.micBlocked();
    this.buttons.microphone.disabled = Boolean(noMic);
    this.buttons.microphone.title = noMic ? this.t(`play.mic.${noMic}`) : "";
    this.octaveLabel.hidden = input === "click";
    this.octave.checked = Boolean(settings[`any_octave_${input}`]);
    this.octaveLabel.lastChild.textContent = this.t("play.any_octave");
    this.micOptions.hidden = input !== "microphone";
    this.instrumentLabel.firstChild.textContent = this.t("play.instrument");
    const instruments = settings.instruments || [];
    if (this.instrument.options.length !== instruments.length || this.strings !== this.model.get("strings")) {
      this.strings = this.model.get("strings");
      this.instrument.replaceChildren(...instruments.map((name) =>
        h("option", { value: name }, this.t(`play.instrument.${name}`))));
    }
    this.instrument.value = settings.instrument || "C";
    const [low, high] = settings.a4_range || [415, 446];
    this.a4.min = String(low);
    this.a4.max = String(high);
    this.a4.value = String(settings.a4 || 440);
    this.a4Label.firstChild.textContent = this.t("play.a4");
    this.deviceLabel.firstChild.textContent = this.t("play.device");
    this.root.dataset.input = input;
    if (input === "midi") this.startMidi();
    else this.stopMidi();
    this.activeChanged();
  }

  // -- MIDI ---------------------------------------------------------------------------------
  // Why MIDI cannot be used here ("insecure", "unsupported"), or "".
  midiBlocked() {
    return mgPlayBlocked(MidiKeyboard.supported());
  }

  startMidi() {
    const blocked = this.midiBlocked();
    if (blocked) {
      this.midiState = blocked;
    } else if (this.midiState === "off" || this.midiState === "refused") {
      this.midiState = "waiting";
      this.midi.start().then(() => {
        if (this.midiState === "waiting") this.midiState = "on";
        this.drawStatus();
      }, () => {
        this.midiState = "refused";
        this.drawStatus();
      });
    }
    this.drawStatus();
  }

  stopMidi() {
    if (this.midiState !== "off") this.midi.stop();
    this.midiState = "off";
  }

  // -- the microphone -------------------------------------------------------------------------
  micSupported() {
    return typeof startMicrophone === "function" && typeof navigator !== "undefined"
      && Boolean(navigator.mediaDevices && navigator.mediaDevices.getUserMedia);
  }

  // Why the microphone cannot be used here ("insecure", "unsupported"), or "".
  micBlocked() {
    return mgPlayBlocked(this.micSupported());
  }

  // Start or release the microphone as the settings, the question, the tab and the screen say.
  activeChanged() {
    const settings = this.settings();
    const blocked = this.micBlocked();
    const wanted = settings.input === "microphone" && !blocked && this.active()
      && document.visibilityState !== "hidden" && this.onScreen && this.root.isConnected;
    if (settings.input === "microphone" && blocked) this.micState = blocked;
    if (wanted === this.micWanted && !(wanted && this.micState === "refused")) {
      this.drawStatus();
      return;
    }
    this.micWanted = wanted;
    if (wanted && this.micState !== "refused") this.startMic(settings);
    else if (!wanted) this.stopMic();
    this.drawStatus();
  }

  startMic(settings) {
    const run = ++this.micRun;
    this.micState = "starting";
    this.heardText = "";
    let started;
    try {
      started = Promise.resolve(startMicrophone({
        a4: settings.a4 || 440,
        onNote: (midi) => {
          if (run === this.micRun && this.micWanted) {
            this.onNote(midi, "microphone", performance.now());
          }
        },
        onHeard: (heard) => {
          if (run === this.micRun) this.showHeard(heard);
        },
        onError: () => {
          if (run !== this.micRun) return;
          this.micState = "refused";
          this.drawStatus();
        },
        onEnd: () => {  // the page was hidden, or the microphone unplugged: asked again
          if (run !== this.micRun) return;   // when the page is shown or chosen again
          this.micStop = null;
          this.micWanted = false;
          this.micState = "off";
          this.drawStatus();
        },
      }));
    } catch (error) {
      started = Promise.reject(error);
    }
    started.then((stop) => {
      if (run !== this.micRun) {
        if (typeof stop === "function") stop();  // released before it was granted
        return;
      }
      this.micStop = typeof stop === "function" ? stop : null;
      this.micState = "on";
      this.drawStatus();
    }, () => {
      if (run !== this.micRun) return;
      this.micState = "refused";
      this.micWanted = false;
      this.drawStatus();
    });
  }

  // The page itself plays a sound for `seconds`: the microphone must not take it for the
  // student's note.
  quiet(seconds) {
    if (this.micStop && typeof this.micStop.quiet === "function") this.micStop.quiet(seconds);
  }

  stopMic() {
    this.micRun += 1;
    if (this.micStop) this.micStop();
    this.micStop = null;
    if (!["unsupported", "insecure", "refused"].includes(this.micState)) this.micState = "off";
    this.heardText = "";
  }

  // What the microphone hears: {midi, cents, clarity, tuning} (tuning in words of
  // _microphone.js: "in_tune", "a_little_flat", "flat" …), or null for no clear note.
  showHeard(heard) {
    const names = this.model.get("heard") || [];
    const tuning = heard && MG_TUNING_WORDS[heard.tuning];
    this.heardText = heard && names[heard.midi] && tuning
      ? this.t("play.heard", { name: names[heard.midi], tuning: this.t(tuning) }) : "";
    this.drawStatus();
  }

  // -- what the line under the switch says ------------------------------------------------------
  drawStatus() {
    const input = this.settings().input || "click";
    let words = [];
    if (input === "midi") {
      const devices = this.midi.devices;
      this.device.replaceChildren(...devices.map((device) =>
        h("option", { value: device.name }, device.name)));
      this.device.value = this.midi.chosen;
      this.deviceLabel.hidden = devices.length < 2;
      words = [this.midiState === "unsupported" || this.midiState === "insecure"
        ? this.t(`play.midi.${this.midiState}`)
        : this.midiState === "refused" ? this.t("play.midi.refused")
          : this.midiState === "waiting" ? this.t("play.midi.waiting")
            : devices.length ? this.t("play.midi.listening", { name: this.midi.chosen })
              : this.t("play.midi.none")];
    } else {
      this.deviceLabel.hidden = true;
    }
    if (input === "microphone") {
      words = [this.micState === "unsupported" || this.micState === "insecure"
        ? this.t(`play.mic.${this.micState}`)
        : this.micState === "refused" ? this.t("play.mic.refused")
          : this.micState === "on" || this.micState === "starting"
            ? (this.heardText || this.t("play.mic.listening"))
            : this.t("play.mic.paused"),
      this.t("play.mic.private")];
    }
    this.root.dataset.midi = this.midiState;
    this.root.dataset.microphone = this.micState;
    this.root.dataset.asking = String(Boolean(this.active()));  // a played note counts now
    replaceWith(this.status, words.map((line) => h("span", {}, line)));
    this.status.hidden = !words.length;
  }

  destroy() {
    this.stopMic();
    this.stopMidi();
    document.removeEventListener("visibilitychange", this.visibility);
    if (this.observer) this.observer.disconnect();
  }
}
