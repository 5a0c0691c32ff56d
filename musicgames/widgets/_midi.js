// A MIDI keyboard for the widgets' pages, through the Web MIDI API.
//
// This file exports nothing: a widget's Python class puts its text in front of the view's own
// file (see _assets.py), as it does _sound.js. It reads the raw bytes of each MIDI message,
// the way reading trainers do:
//   0x9n note velocity    note-on (channel n); velocity 0 is a note-off
//   0x8n note velocity    note-off
//   0xBn 64 value         the sustain pedal: down when value >= 64, up below
// Every channel counts. Nothing is answered while the browser tab is hidden
// (document.visibilityState), so a keyboard played in another tab answers nothing here.
//
//   const midi = new MidiKeyboard({
//     onNote: (note, at) => ...,     // a note-on: MIDI number (60 = Do3 = C4), performance.now()
//     onChange: () => ...,           // devices came or went, or the chosen one changed
//   });
//   MidiKeyboard.supported()         // false: the browser has no Web MIDI
//   await midi.start();              // asks the browser for MIDI access (it may ask the person)
//   midi.devices                     // [{id, name}] of the keyboards plugged in now
//   midi.chosen                      // the name of the one listened to ("" for none)
//   midi.choose(name);               // listen to that one; remembered by name in the browser
//   midi.sounding()                  // the notes held or kept by the pedal: [midi, ...]
//   midi.stop();
//
// The chosen keyboard is remembered by its name (localStorage), not by its id, which a
// browser may change between visits; when it is not plugged in, the first keyboard is
// listened to. Keyboards plugged in or out while the page is open are seen at once
// (MIDIAccess's statechange event): the list is redrawn, and the chosen one is taken up
// again when it comes back.

const MG_MIDI_STORE = "musicgames.midi.device";

class MidiKeyboard {
  static supported() {
    return typeof navigator !== "undefined" && typeof navigator.requestMIDIAccess === "function";
  }

  constructor({ onNote, onChange }) {
    this.onNote = onNote || (() => {});
    this.onChange = onChange || (() => {});
    this.access = null;
    this.devices = [];
    this.chosen = "";
    this.input = null;
    this.held = new Set();       // keys down now
    this.kept = new Set();       // keys let go while the pedal is down: still sounding
    this.pedal = false;
    this.stopped = false;
    this.listener = (event) => this.message(event);
    this.changed = () => this.refresh();
  }

  async start() {
    this.stopped = false;
    if (!MidiKeyboard.supported()) throw new Error("no Web MIDI");
    const access = await navigator.requestMIDIAccess({ sysex: false });
    if (this.stopped) return;
    this.access = access;
    // Listeners, not on… properties: every widget of the page hears the same keyboards.
    access.addEventListener("statechange", this.changed);
    this.refresh();
  }

  remembered() {
    try {
      return localStorage.getItem(MG_MIDI_STORE) || "";
    } catch (error) {
      return "";  // storage refused (private window): nothing remembered
    }
  }

  // The keyboards plugged in now, and the one listened to.
  refresh() {
    if (!this.access) return;
    const inputs = [];
    this.access.inputs.forEach((input) => {
      if (input.state !== "disconnected") inputs.push(input);
    });
    this.devices = inputs.map((input) => ({ id: input.id, name: input.name || input.id }));
    const wanted = this.remembered();
    const pick = inputs.find((input) => (input.name || input.id) === wanted) || inputs[0] || null;
    this.listen(pick);
    this.onChange();
  }

  listen(input) {
    if (this.input === input) return;
    if (this.input) this.input.removeEventListener("midimessage", this.listener);
    this.input = input;
    this.chosen = input ? (input.name || input.id) : "";
    this.held.clear();
    this.kept.clear();
    this.pedal = false;
    if (input) {
      input.addEventListener("midimessage", this.listener);
      if (typeof input.open === "function") input.open().catch(() => {});
    }
  }

  choose(name) {
    try {
      localStorage.setItem(MG_MIDI_STORE, name);
    } catch (error) {
      // storage refused: chosen for this page only
    }
    this.refresh();
  }

  sounding() {
    return [...new Set([...this.held, ...this.kept])];
  }

  message(event) {
    const data = event.data;
    if (!data || data.length < 2) return;
    const status = data[0] & 0xf0;
    const key = data[1];
    const value = data.length > 2 ? data[2] : 0;
    if (status === 0xb0 && key === 64) {
      this.pedal = value >= 64;
      if (!this.pedal) this.kept.clear();
      return;
    }
    if (status === 0x80 || (status === 0x90 && value === 0)) {
      this.held.delete(key);
      if (this.pedal) this.kept.add(key);
      return;
    }
    if (status !== 0x90) return;
    // A key struck while the page is hidden is neither answered nor remembered as held.
    if (typeof document !== "undefined" && document.visibilityState === "hidden") return;
    this.held.add(key);
    this.kept.delete(key);
    this.onNote(key, performance.now());
  }

  stop() {
    this.stopped = true;
    this.listen(null);
    if (this.access) this.access.removeEventListener("statechange", this.changed);
    this.access = null;
    this.devices = [];
  }
}

// Notes struck close together, caught as one chord: a chord counts once its notes hold
// `size` different pitch classes (any octave, any voicing, doubled tones allowed), all
// struck within `windowMs` of each other and all still sounding (held, or kept by the
// pedal) when the last comes. What the notes make is the kernel's to judge.
class ChordCatcher {
  constructor({ size, windowMs, onChord }) {
    this.size = size;
    this.windowMs = windowMs;
    this.onChord = onChord;
    this.struck = [];            // [{note, at}] newest last
  }

  // A note-on at `at` (performance.now()); `sounding` is what sounds now (MidiKeyboard's).
  note(note, at, sounding) {
    const still = new Set(sounding);
    this.struck = this.struck.filter((s) => at - s.at <= this.windowMs && still.has(s.note)
      && s.note !== note);
    this.struck.push({ note, at });
    const classes = new Map();
    for (const s of this.struck) if (!classes.has(s.note % 12)) classes.set(s.note % 12, s.note);
    if (classes.size >= this.size) {
      const notes = [...classes.values()].slice(0, this.size);
      this.struck = [];
      this.onChord(notes, at);
    }
  }

  clear() {
    this.struck = [];
  }
}
