// Listening to the note played or sung, through the microphone, in the page.
//
// This file exports nothing: a widget's Python class joins it into the view's module after
// vendor/fft.js and vendor/pitchy.js (the McLeod Pitch Method, MIT; see _assets.py), whose
// PitchDetector it uses.
//
//   const stop = await startMicrophone({
//     a4: 440,                                // A4 in hertz, 415–446 (equal temperament)
//     onNote: (midi) => ...,                  // once per note begun, when it is sure
//     onHeard: (heard) => ...,                // every frame: {midi, cents, clarity, tuning},
//                                             // or null when no clear note is heard
//     onError: ({reason, error}) => ...,      // "unsupported" | "denied" | "no_device" | "failed"
//     onEnd: (reason) => ...,                 // "hidden" (page hidden) | "ended" (device gone)
//   });
//   stop();            // the microphone is released: its tracks stopped, the audio closed
//   stop.quiet(1.2);   // no note counts for 1.2 s (while the page itself plays a sound)
//   stop.kind          // "worklet", or "analyser" where there is no AudioWorklet
//
// Call it from a click (browsers ask for the person's permission, and start audio only after
// a gesture). With onError given, a failure is reported there and the promise resolves to a
// stop() that does nothing; without it, the promise rejects.
//
// What it keeps: nothing. The sound goes from the microphone to the analysis below, frame by
// frame, in this page; no sample is stored beyond the current 40 ms window, nothing is
// recorded, and nothing is sent anywhere. The microphone is released by stop() and as soon as
// the page is hidden (another tab, a minimised window); the widget asks again when it is shown.
//
// How a note is heard: an AudioWorklet (an AnalyserNode where there is none) hands the samples
// to MicPitchTracker, which filters them (high-pass 60 Hz, low-pass 3 kHz: rumble and hiss
// out), and every 512 samples (about 11 ms) asks the McLeod Pitch Method for the pitch of the
// last 2048 and how clear it is (0–1). A frame counts when it is loud enough and clear enough,
// and not while a sound is starting inside its window (an attack's pitch is often an octave
// off). A note is named (onNote) when MIC_FRAMES frames in a row agree on it, within
// MIC_BETWEEN of a note (a pitch between two waits until it settles). It is not named again
// until it has stopped (silence, or another note named) or is played again: its level fell to
// half its peak and then rose again MIC_ATTACK_RATIO times (a new attack, not a swell). What
// is most often misheard waits longer or is not named: an octave, a twelfth or two octaves
// from the note before (an overtone, or the period two notes share while both sound), and a
// new pitch in a note's fading tail.
// Equal temperament from A4: midi = 69 + 12·log2(hz / a4), the nearest whole number; cents
// are how far from it (−50 … +50, negative = flat).

const MIC_A4_LOW = 415;
const MIC_A4_HIGH = 446;
const MIC_WINDOW_S = 0.04;        // the analysis window: 2048 samples at 44.1 or 48 kHz
const MIC_HOP = 512;              // samples between two frames
const MIC_CLARITY = 0.9;          // a frame's pitch counts when the MPM clarity reaches this
const MIC_FRAMES = 5;             // frames in a row that must agree before a note is named
const MIC_LEVEL = 0.004;          // RMS under which a frame is silence (about −48 dBFS)
const MIC_LOWEST_HZ = 60;         // the lowest and highest fundamentals heard
const MIC_HIGHEST_HZ = 2100;
const MIC_RELEASE_FRAMES = 6;     // silent frames in a row that end a note
const MIC_SPREAD = 0.4;           // semitones the agreeing frames may differ by
const MIC_BETWEEN = 0.35;         // semitones off the nearest note beyond which none is named
const MIC_OCTAVE_WAIT = 4;        // an octave from the note before: this many times the frames
const MIC_HOLD = 0.6;             // semitones the note held may wander by and stay that note
const MIC_FADING = 0.25;          // under this part of its peak, a note is fading (no new note)
const MIC_SETTLED = 0.3;          // a window's older half under this part of its newer: starting
const MIC_PEAKS = 0.9;            // the MPM's k: the first peak this high of the highest wins
const MIC_ATTACK_RATIO = 2.5;     // a rise this many times the level's dip is a new attack
const MIC_HIGH_PASS_HZ = 60;
const MIC_LOW_PASS_HZ = 3000;

// The nearest equal-tempered note to `hz` for A4 = `a4`, and how far off in cents.
function micNoteOf(hz, a4) {
  const exact = 69 + 12 * Math.log2(hz / a4);
  const midi = Math.round(exact);
  return { midi, cents: Math.round((exact - midi) * 1000) / 10 };
}

// How a note is tuned, in words a widget can look up: within 10 cents "in_tune"; within 25
// "a_little_flat" / "a_little_sharp"; beyond, "flat" / "sharp".
function micTuning(cents) {
  if (Math.abs(cents) <= 10) return "in_tune";
  if (Math.abs(cents) <= 25) return cents < 0 ? "a_little_flat" : "a_little_sharp";
  return cents < 0 ? "flat" : "sharp";
}

// A second-order filter (the Audio EQ Cookbook's low- and high-pass), one sample at a time.
class MicBiquad {
  constructor(kind, hz, sampleRate) {
    const w = 2 * Math.PI * hz / sampleRate;
    const alpha = Math.sin(w) / Math.SQRT2;  // Q = 1/√2: no bump at the corner
    const cos = Math.cos(w);
    const a0 = 1 + alpha;
    this.b0 = (kind === "low" ? 1 - cos : 1 + cos) / 2 / a0;
    this.b1 = (kind === "low" ? 1 - cos : -(1 + cos)) / a0;
    this.b2 = this.b0;
    this.a1 = -2 * cos / a0;
    this.a2 = (1 - alpha) / a0;
    this.x1 = this.x2 = this.y1 = this.y2 = 0;
  }

  step(x) {
    const y = this.b0 * x + this.b1 * this.x1 + this.b2 * this.x2
      - this.a1 * this.y1 - this.a2 * this.y2;
    this.x2 = this.x1;
    this.x1 = x;
    this.y2 = this.y1;
    this.y1 = y;
    return y;
  }
}

// The analysis: push() samples in (any number at a time, mono, -1…1); it calls onHeard for
// every frame and onNote(midi, {at, cents, clarity}) when a note is sure, `at` being the
// seconds of sound pushed so far. Options override the MIC_ constants above (for measuring).
class MicPitchTracker {
  constructor(sampleRate, options = {}) {
    const a4 = options.a4 === undefined ? 440 : Number(options.a4);
    if (!(a4 >= MIC_A4_LOW && a4 <= MIC_A4_HIGH)) {
      throw new RangeError(`A4 must be ${MIC_A4_LOW}–${MIC_A4_HIGH} Hz, not ${options.a4}`);
    }
    this.a4 = a4;
    this.rate = sampleRate;
    this.onNote = options.onNote || (() => {});
    this.onHeard = options.onHeard || (() => {});
    this.clarity = options.clarity || MIC_CLARITY;
    this.frames = options.frames || MIC_FRAMES;
    this.level = options.level || MIC_LEVEL;
    this.hop = options.hop || MIC_HOP;
    this.spread = options.spread || MIC_SPREAD;
    this.fading = options.fading || MIC_FADING;
    this.settled = options.settled === undefined ? MIC_SETTLED : options.settled;
    const size = 2 ** Math.round(Math.log2(sampleRate * (options.windowS || MIC_WINDOW_S)));
    this.window = new Float32Array(size);
    this.detector = PitchDetector.forFloat32Array(size);
    this.detector.clarityThreshold = options.peaks || MIC_PEAKS;
    this.filters = [
      new MicBiquad("high", MIC_HIGH_PASS_HZ, sampleRate),
      new MicBiquad("low", Math.min(options.lowPassHz || MIC_LOW_PASS_HZ, sampleRate * 0.45),
        sampleRate),
    ];
    this.pushed = 0;          // samples pushed in all
    this.fresh = 0;           // samples since the last frame
    this.pitches = [];        // the last frames' pitches (MIDI numbers with cents), agreeing
    this.agreeing = 0;        // how many frames in a row have agreed
    this.held = null;         // the note named last, until it ends
    this.previous = null;     // the note held before a new attack, until silence
    this.silent = 0;          // silent frames in a row
    this.peak = 0;            // the held note's highest level, and its lowest since then
    this.dip = 0;
    this.heard = false;
    this.quietUntil = 0;
  }

  // No note is named for `seconds` from now (the page is playing a sound of its own); a note
  // still sounding then is not named either, until it stops or is played again.
  quiet(seconds) {
    this.quietUntil = this.pushed / this.rate + Math.max(0, seconds);
    this.held = this.previous = null;
  }

  push(samples) {
    const window = this.window;
    const size = window.length;
    const [high, low] = this.filters;
    for (let i = 0; i < samples.length; i++) {
      // The window slides by one hop at each frame; the new samples go at its end.
      window[size - this.hop + this.fresh] = low.step(high.step(samples[i]));
      this.fresh += 1;
      this.pushed += 1;
      if (this.fresh === this.hop) {
        this.frame();
        window.copyWithin(0, this.hop);
        this.fresh = 0;
      }
    }
  }

  frame() {
    const window = this.window;
    const half = window.length >> 1;
    let early = 0;
    let late = 0;
    for (let i = 0; i < half; i++) early += window[i] * window[i];
    for (let i = half; i < window.length; i++) late += window[i] * window[i];
    const rms = Math.sqrt((early + late) / window.length);
    // A sound starting inside the window (its older half much quieter) is not yet a note:
    // its pitch is often an octave off until the window is full of it.
    const starting = early < this.settled * late;
    const at = this.pushed / this.rate;
    // A new attack on the note held (its level fell to half its peak, then rose well above
    // that dip): the same note may be named again.
    if (this.held !== null) {
      if (this.dip < this.peak / 2 && rms > MIC_ATTACK_RATIO * this.dip && rms > this.level) {
        this.previous = this.held;
        this.held = null;
      } else if (rms > this.peak) {
        this.peak = this.dip = rms;
      } else {
        this.dip = Math.min(this.dip, rms);
      }
    }
    let heard = null;
    if (rms >= this.level && !starting) {
      const [hz, clarity] = this.detector.findPitch(window, this.rate);
      if (clarity >= this.clarity && hz >= MIC_LOWEST_HZ && hz <= MIC_HIGHEST_HZ) {
        const { midi, cents } = micNoteOf(hz, this.a4);
        heard = { midi, cents, clarity, tuning: micTuning(cents), hz };
      }
    }
    this.silent = rms < this.level ? this.silent + 1 : 0;
    if (this.silent >= MIC_RELEASE_FRAMES) this.held = this.previous = null;
    if (!heard) {
      this.pitches.length = 0;
      this.agreeing = 0;
      if (this.heard) this.onHeard(null);
      this.heard = false;
      return;
    }
    this.onHeard(heard);
    this.heard = true;
    // The frames agree when each is within MIC_SPREAD semitones of the middle of the others.
    const pitch = heard.midi + heard.cents / 100;
    const run = this.pitches;
    if (run.length && Math.abs(pitch - micMedian(run)) > this.spread) {
      run.length = 0;
      this.agreeing = 0;
    }
    run.push(pitch);
    this.agreeing += 1;
    if (run.length > this.frames) run.shift();
    if (run.length < this.frames) return;
    const agreed = micMedian(run);
    const midi = Math.round(agreed);
    // Between two notes (gliding into one, or far out of tune): wait until it settles.
    if (Math.abs(agreed - midi) > MIC_BETWEEN) return;
    if (this.held !== null) {
      // Still the note held (a wide vibrato, a note sung between two)…
      if (Math.abs(agreed - this.held) <= MIC_HOLD) return;
      // …or the tail of a note fading away (a change of pitch there is not a note played)…
      if (rms < this.peak * this.fading) return;
    }
    // An overtone of the note held (or still sounding under a new attack) for a moment, an
    // octave, a twelfth or two octaves up; or far below it, the period the old and new notes
    // share while both sound: such a note needs MIC_OCTAVE_WAIT times as many frames.
    const before = this.held !== null ? this.held : this.previous;
    if (before !== null && this.agreeing < MIC_OCTAVE_WAIT * this.frames) {
      const leap = midi - before;
      if (leap === 12 || leap === 19 || leap === 24 || leap <= -12) return;
    }
    // While quiet, a note heard is held but not named (it is the page's own sound).
    this.held = midi;
    this.previous = null;
    this.peak = this.dip = rms;
    if (at >= this.quietUntil) {
      const cents = Math.round((agreed - midi) * 1000) / 10;
      this.onNote(midi, { at, cents, clarity: heard.clarity });
    }
  }
}

// The middle value of a few numbers.
function micMedian(values) {
  const sorted = Array.from(values).sort((a, b) => a - b);
  const half = sorted.length >> 1;
  return sorted.length % 2 ? sorted[half] : (sorted[half - 1] + sorted[half]) / 2;
}

// The worklet that hands the microphone's samples to the page, MIC_HOP at a time (mono).
const MIC_TAP_SOURCE = `
class MusicgamesMicTap extends AudioWorkletProcessor {
  constructor(options) {
    super();
    this.size = options.processorOptions.size;
    this.block = new Float32Array(this.size);
    this.filled = 0;
    this.open = true;
    this.port.onmessage = () => { this.open = false; };
  }
  process(inputs) {
    const channels = inputs[0];
    if (channels && channels.length) {
      const input = channels[0];
      for (let i = 0; i < input.length; i++) {
        this.block[this.filled++] = input[i];
        if (this.filled === this.size) {
          this.port.postMessage(this.block, [this.block.buffer]);
          this.block = new Float32Array(this.size);
          this.filled = 0;
        }
      }
    }
    return this.open;
  }
}
registerProcessor("musicgames-mic-tap", MusicgamesMicTap);
`;

const micTapsLoaded = new WeakMap();  // context → the worklet module's promise

// Connect `source` (an AudioNode of `context`) to a tap that calls onBlock(samples) with the
// samples in order. Returns {kind: "worklet" | "analyser", close()}.
async function micTap(context, source, onBlock) {
  if (context.audioWorklet && typeof AudioWorkletNode === "function") {
    try {
      if (!micTapsLoaded.has(context)) {
        const url = URL.createObjectURL(
          new Blob([MIC_TAP_SOURCE], { type: "application/javascript" }));
        micTapsLoaded.set(context, context.audioWorklet.addModule(url)
          .finally(() => URL.revokeObjectURL(url)));
      }
      await micTapsLoaded.get(context);
      const node = new AudioWorkletNode(context, "musicgames-mic-tap", {
        numberOfInputs: 1, numberOfOutputs: 1, outputChannelCount: [1],
        channelCount: 1, channelCountMode: "explicit", channelInterpretation: "speakers",
        processorOptions: { size: MIC_HOP },
      });
      node.port.onmessage = (event) => onBlock(event.data);
      const silent = context.createGain();  // pulled by the destination, heard by nobody
      silent.gain.value = 0;
      source.connect(node).connect(silent).connect(context.destination);
      return {
        kind: "worklet",
        close() {
          node.port.onmessage = null;
          node.port.postMessage("close");
          source.disconnect(node);
          node.disconnect();
          silent.disconnect();
        },
      };
    } catch (error) { /* no worklet here (or not allowed): the analyser below */ }
  }
  const analyser = context.createAnalyser();
  analyser.fftSize = 4096;
  analyser.channelCount = 1;
  analyser.channelCountMode = "explicit";
  source.connect(analyser);
  const samples = new Float32Array(analyser.fftSize);
  let last = context.currentTime;
  const timer = setInterval(() => {
    const now = context.currentTime;
    const fresh = Math.min(samples.length, Math.round((now - last) * context.sampleRate));
    if (fresh <= 0) return;
    last = now;
    analyser.getFloatTimeDomainData(samples);
    onBlock(samples.subarray(samples.length - fresh));
  }, 1000 * MIC_HOP / context.sampleRate);
  return {
    kind: "analyser",
    close() {
      clearInterval(timer);
      source.disconnect(analyser);
    },
  };
}

function micReason(error) {
  const name = error && error.name;
  if (name === "NotAllowedError" || name === "SecurityError") return "denied";
  if (name === "NotFoundError" || name === "OverconstrainedError") return "no_device";
  return "failed";
}

async function startMicrophone(options = {}) {
  const { a4 = 440, onNote, onHeard, onError, onEnd } = options;
  const tracker = new MicPitchTracker(48000, { a4 });  // checks a4 before asking anything
  const fail = (reason, error) => {
    if (!onError) throw Object.assign(error || new Error(reason), { reason });
    onError({ reason, error: error || null });
    const nothing = () => {};
    nothing.quiet = () => {};
    return nothing;
  };
  const media = globalThis.navigator && navigator.mediaDevices;
  const Context = globalThis.AudioContext || globalThis.webkitAudioContext;
  if (!media || !media.getUserMedia || !Context || !globalThis.isSecureContext) {
    return fail("unsupported");
  }
  let stream;
  try {
    stream = await media.getUserMedia({
      audio: { echoCancellation: false, noiseSuppression: false, autoGainControl: false },
      video: false,
    });
  } catch (error) {
    return fail(micReason(error), error);
  }
  let context = null;
  let tap = null;
  let stopped = false;
  const stop = () => {
    if (stopped) return;
    stopped = true;
    document.removeEventListener("visibilitychange", whenHidden);
    for (const track of stream.getTracks()) track.stop();
    if (tap) tap.close();
    if (context) context.close().catch(() => {});
  };
  const end = (reason) => {
    if (stopped) return;
    stop();
    if (onEnd) onEnd(reason);
  };
  function whenHidden() {
    if (document.visibilityState === "hidden") end("hidden");
  }
  let live = tracker;
  stop.quiet = (seconds) => live.quiet(seconds);
  document.addEventListener("visibilitychange", whenHidden);
  for (const track of stream.getAudioTracks()) {
    track.addEventListener("ended", () => end("ended"));
  }
  try {
    context = new Context({ latencyHint: "interactive" });
    live = new MicPitchTracker(context.sampleRate, { a4, onNote, onHeard });
    const source = context.createMediaStreamSource(stream);
    tap = await micTap(context, source, (block) => { if (!stopped) live.push(block); });
    if (context.state === "suspended") await context.resume();
  } catch (error) {
    stop();
    return fail("failed", error);
  }
  stop.kind = tap.kind;  // how the samples come: "worklet" or "analyser"
  if (stopped) return stop;  // hidden while it was starting
  whenHidden();
  return stop;
}
