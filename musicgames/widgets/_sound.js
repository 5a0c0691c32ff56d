// Sound for the widgets' pages: a short piano-like tone made with the Web Audio API.
//
// This file exports nothing: a widget's Python class puts its text in front of the view's own
// file (see _assets.py), after _dom.js, whose h() it uses. Nothing is fetched: the tone is
// made here, from a few sine partials under an envelope.
//
// What to play comes from Python (musicgames.sound): {hz: [f1, f2, ...], broken: false},
// the frequencies computed by music21 (equal temperament, A4 = 440 Hz; Do3 = C4 = 261.63 Hz),
// together (a block chord) or one after another (broken).
//
// In a view:
//   this.sound = new WidgetSound("note_drill", (key) => this.t(key));
//   header.append(this.sound.control);    // mute button, volume slider, first-click note
//   panel.append(this.sound.note);        // optional: the first-click note elsewhere (it is
//                                         // in .control unless moved)
//   this.sound.play({hz: [261.63], broken: false});
//   this.sound.refresh();                 // after the strings changed (language)
//   this.sound.destroy();
//
// Rules kept here for every widget:
// - Nothing sounds before the person's first click or key press on the page (browsers'
//   autoplay rules): the one AudioContext of the page is made then. Until then play() does
//   nothing and each sound control says once, in a small note, that sound starts after the
//   first click; the note goes away for good at that click.
// - Mute and volume are one control per widget, remembered for the browser tab's session
//   (sessionStorage, per kind of widget: a new drill starts as the last one was left).
// - globalThis.musicgamesSound is the page's shared sound state. For tests and measurements
//   it keeps `starts`: one record per sound started, {name, hz, broken, at, perf, latency},
//   where `at` is the AudioContext.currentTime at which it starts, `perf` the
//   performance.now() when it was asked for (so the onset can be compared with a frame's
//   time) and `latency` the context's base + output latency in seconds; and `render(sound,
//   seconds, sampleRate)`, which renders a sound with an OfflineAudioContext exactly as the
//   widgets play it and resolves to the samples (an Array of numbers).

// The partials of the tone: [harmonic, amplitude, decay time relative to the fundamental's].
// Higher partials die away sooner, so the tone starts bright and mellows, as a piano's does.
const MG_PARTIALS = [
  [1, 1.0, 1.0], [2, 0.42, 0.62], [3, 0.24, 0.42], [4, 0.11, 0.3], [5, 0.06, 0.24],
  [6, 0.03, 0.2],
];
const MG_ATTACK_S = 0.006;    // from silence to the peak: a struck string, without a click
const MG_RELEASE_S = 0.15;    // from the key's release to silence (time constant × 3)
const MG_TONE_LEVEL = 0.2;    // one tone at full volume (a chord shares more)
const MG_BROKEN_GAP_S = 0.33; // between the tones of a broken chord
const MG_STORE = "musicgames.sound.";
const MG_STARTS_KEPT = 500;

// One tone of `hz` hertz from `when` (seconds, the context's clock), held `length` seconds
// and then released, at peak `level`, into `destination`. Works in any BaseAudioContext.
// Returns when the tone is silent.
function pianoVoice(context, destination, hz, when, length, level) {
  const nyquist = context.sampleRate / 2;
  // Lower strings ring longer.
  const decay = Math.min(1.4, Math.max(0.3, 0.9 * Math.sqrt(261.63 / hz)));
  const end = when + length;
  const silent = end + MG_RELEASE_S * 2;
  const voice = context.createGain();
  voice.gain.setValueAtTime(0, when);
  voice.gain.linearRampToValueAtTime(level, when + MG_ATTACK_S);
  voice.gain.setTargetAtTime(0, end, MG_RELEASE_S / 3);
  voice.connect(destination);
  for (const [harmonic, amplitude, relative] of MG_PARTIALS) {
    if (hz * harmonic >= nyquist * 0.9) break;
    const partial = context.createOscillator();
    partial.frequency.setValueAtTime(hz * harmonic, when);
    const gain = context.createGain();
    gain.gain.setValueAtTime(amplitude, when);
    gain.gain.setTargetAtTime(amplitude * 0.05, when + MG_ATTACK_S, decay * relative);
    partial.connect(gain).connect(voice);
    partial.start(when);
    partial.stop(silent);
  }
  return silent;
}

// A sound from Python ({hz, broken}) from `when` into `destination`; returns the start time
// of each tone, in order. Optional fields: `level` (0–1, default 1: a soft chord is 0.4),
// `length` (seconds each tone is held before its release; default 1, broken 0.8).
function mgSchedule(context, destination, sound, when, level) {
  const hz = (sound && sound.hz) || [];
  const broken = Boolean(sound && sound.broken);
  const soft = sound && typeof sound.level === "number"
    ? Math.min(1, Math.max(0, sound.level)) : 1;
  const shared = soft * (broken ? 1 : 1 / Math.sqrt(Math.max(1, hz.length)));
  const length = sound && sound.length > 0 ? sound.length : broken ? 0.8 : 1.0;
  return hz.map((f, i) => {
    const at = when + (broken ? i * MG_BROKEN_GAP_S : 0);
    pianoVoice(context, destination, f, at, length, level * shared);
    return at;
  });
}

// Render `sound` offline as the widgets play it (at full volume): the samples of channel 0.
async function mgRenderOffline(sound, seconds, sampleRate) {
  const rate = sampleRate || 22050;
  const context = new OfflineAudioContext(1, Math.round((seconds || 1) * rate), rate);
  mgSchedule(context, context.destination, sound, 0, MG_TONE_LEVEL);
  const buffer = await context.startRendering();
  return Array.from(buffer.getChannelData(0));
}

function mgSoundState() {
  if (!globalThis.musicgamesSound) {
    const state = {
      context: null, bus: null, analyser: null, unlocked: false, notesGone: false, failed: false,
      starts: [], views: new Set(),
      render: mgRenderOffline,
    };
    const unlock = (event) => mgUnlock(state, event.type === "keydown");
    // Browsers count some of these as the person's activation and not others (a touch
    // counts when it ends): the context is made at the first, and resumed at any later one.
    for (const type of ["pointerdown", "keydown", "pointerup", "touchend", "click"]) {
      document.addEventListener(type, unlock, { capture: true, passive: true });
    }
    globalThis.musicgamesSound = state;
  }
  return globalThis.musicgamesSound;
}

// The person clicked or pressed a key: sound may start now (and a suspended context resume).
function mgUnlock(state, byKey) {
  if (!state.context && !state.failed) {
    const Context = globalThis.AudioContext || globalThis.webkitAudioContext;
    try {
      state.context = new Context({ latencyHint: "interactive" });
      state.bus = state.context.createGain();
      state.bus.connect(state.context.destination);
      state.analyser = state.context.createAnalyser();  // for a level meter, and the tests
      state.analyser.fftSize = 2048;
      state.bus.connect(state.analyser);
    } catch (error) {
      state.failed = true;
      state.context = null;
    }
  }
  if (state.context && state.context.state === "suspended") {
    state.context.resume().catch(() => {});
  }
  if (!state.unlocked) {
    state.unlocked = true;
    // The first-click notes go away once this click is over: taking them out at the press
    // would move what lies below them, and the click would miss the button it was meant for.
    if (byKey) mgNotesGone(state);
    else mgAfterClick(() => mgNotesGone(state));
  }
}

function mgNotesGone(state) {
  state.notesGone = true;
  for (const view of state.views) view.refresh();
}

// Call `done` once the click now under way has been handled (or soon, if none comes).
function mgAfterClick(done) {
  let over = false;
  const finish = () => {
    if (over) return;
    over = true;
    document.removeEventListener("click", finish);
    document.removeEventListener("pointercancel", finish);
    setTimeout(done, 0);
  };
  document.addEventListener("click", finish);  // bubbling: after the target's own handlers
  document.addEventListener("pointercancel", finish);
  setTimeout(finish, 1500);
}

function mgLoadSetting(name) {
  try {
    const saved = JSON.parse(sessionStorage.getItem(MG_STORE + name) || "null");
    if (saved && typeof saved.volume === "number") {
      return { volume: Math.min(1, Math.max(0, saved.volume)), muted: Boolean(saved.muted) };
    }
  } catch (error) { /* no storage here: the defaults */ }
  return { volume: 0.8, muted: false };
}

function mgSaveSetting(name, setting) {
  try {
    sessionStorage.setItem(MG_STORE + name, JSON.stringify(setting));
  } catch (error) { /* no storage here: remembered while the page lives */ }
}

class WidgetSound {
  constructor(name, t) {
    this.name = name;
    this.t = t;
    this.state = mgSoundState();
    const saved = mgLoadSetting(name);
    this.volume = saved.volume;
    this.muted = saved.muted;
    this.output = null;
    this.muteButton = h("button", {
      class: "mg-sound-mute", type: "button", onclick: () => this.setMuted(!this.muted),
    });
    this.slider = h("input", {
      class: "mg-sound-volume", type: "range", min: "0", max: "100", step: "5",
      value: String(Math.round(this.volume * 100)),
      oninput: (event) => this.setVolume(Number(event.target.value) / 100),
    });
    this.note = h("span", { class: "mg-sound-note", role: "note" });
    this.control = h("span", { class: "mg-sound" }, this.muteButton, this.slider, this.note);
    // The control's keys are its own: they must not answer a question.
    this.control.addEventListener("keydown", (event) => event.stopPropagation());
    this.state.views.add(this);
    this.refresh();
  }

  get audible() {
    return !this.muted && this.volume > 0;
  }

  refresh() {
    this.muteButton.textContent = this.t(this.muted ? "sound.unmute" : "sound.mute");
    this.muteButton.setAttribute("aria-pressed", this.muted ? "true" : "false");
    this.control.classList.toggle("mg-muted", this.muted);
    this.slider.setAttribute("aria-label", this.t("sound.volume"));
    this.slider.title = this.t("sound.volume");
    this.slider.disabled = this.muted;
    if (this.state.failed) this.note.textContent = this.t("sound.unavailable");
    else if (!this.state.notesGone) this.note.textContent = this.t("sound.first_click");
    else this.note.textContent = "";
    this.note.hidden = !this.note.textContent;
  }

  setMuted(muted) {
    this.muted = Boolean(muted);
    this.changed();
  }

  setVolume(volume) {
    this.volume = Math.min(1, Math.max(0, volume));
    this.changed();
  }

  changed() {
    mgSaveSetting(this.name, { volume: this.volume, muted: this.muted });
    if (this.output) {
      const now = this.state.context.currentTime;
      this.output.gain.cancelScheduledValues(now);
      this.output.gain.setTargetAtTime(this.audible ? this.volume : 0, now, 0.01);
    }
    this.refresh();
  }

  // Play a sound from Python ({hz, broken}) now. Returns true when it started; false when
  // muted, before the first click, or where the page cannot play sound.
  play(sound) {
    const state = this.state;
    if (!sound || !(sound.hz || []).length || !this.audible) return false;
    if (!state.unlocked || !state.context) return false;
    const context = state.context;
    if (context.state === "suspended") context.resume().catch(() => {});
    if (!this.output) {
      this.output = context.createGain();
      this.output.gain.value = this.volume;
      this.output.connect(state.bus);
    }
    const perf = performance.now();
    const at = context.currentTime;
    mgSchedule(context, this.output, sound, at, MG_TONE_LEVEL);
    state.starts.push({ name: this.name, hz: sound.hz.slice(), broken: Boolean(sound.broken),
      at, perf, latency: (context.baseLatency || 0) + (context.outputLatency || 0) });
    if (state.starts.length > MG_STARTS_KEPT) state.starts.splice(0, state.starts.length - MG_STARTS_KEPT);
    return true;
  }

  destroy() {
    this.state.views.delete(this);
    if (this.output) this.output.disconnect();
    this.output = null;
  }
}
