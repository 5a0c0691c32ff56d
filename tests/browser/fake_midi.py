"""A stand-in for the browser's Web MIDI, for the tests that answer on a MIDI keyboard (in
JupyterLab, the classroom's apps and the static site): an init script put in the page before
it loads."""

from __future__ import annotations

from typing import Any

# The stand-in Web MIDI: window.mgMidi.plug(id, name), .unplug(id), .send(id, [bytes]) (a
# "midimessage" event of real bytes to every listener of that keyboard), .listened() (the ids
# of the keyboards something listens to), a MIDIAccess of its own for each request, told of
# each plug ("statechange"); and window.mgHidden (true: the page says it is hidden, as a tab
# in the background does).
FAKE_MIDI = """
(() => {
  // An event target as MIDIAccess and MIDIInput are: listeners added and removed by type.
  const target = (thing) => {
    const listeners = new Map();
    thing.addEventListener = (type, listener) => {
      if (!listeners.has(type)) listeners.set(type, new Set());
      listeners.get(type).add(listener);
    };
    thing.removeEventListener = (type, listener) => {
      if (listeners.has(type)) listeners.get(type).delete(listener);
    };
    thing.listened = (type) => (listeners.get(type) || new Set()).size > 0;
    thing.dispatch = (type, event) => {
      for (const listener of [...(listeners.get(type) || [])]) listener(event);
    };
    return thing;
  };
  const inputs = new Map();
  const accesses = [];
  const changed = (port) => {
    for (const access of accesses) access.dispatch("statechange", { port });
  };
  window.mgMidi = {
    requests: 0,
    plug(id, name) {
      const port = target({ id, name, type: "input", state: "connected", connection: "closed",
        open() { this.connection = "open"; return Promise.resolve(this); } });
      inputs.set(id, port);
      changed(port);
    },
    unplug(id) {
      const port = inputs.get(id);
      if (!port) return;
      port.state = "disconnected";
      inputs.delete(id);
      changed(port);
    },
    // the ids of the keyboards something in the page listens to (the chosen one)
    listened() {
      return [...inputs.values()].filter((port) => port.listened("midimessage"))
        .map((port) => port.id);
    },
    send(id, bytes) {
      const port = inputs.get(id);
      if (port) {
        port.dispatch("midimessage", { data: new Uint8Array(bytes),
          timeStamp: performance.now() });
      }
    },
  };
  window.mgMidi.plug("a", "Keys A");
  window.mgMidi.plug("b", "Keys B");
  navigator.requestMIDIAccess = () => {
    window.mgMidi.requests += 1;
    const access = target({ inputs, outputs: new Map(), sysexEnabled: false });
    accesses.push(access);
    return Promise.resolve(access);
  };
  window.mgHidden = false;
  Object.defineProperty(Document.prototype, "visibilityState", {
    configurable: true, get: () => (window.mgHidden ? "hidden" : "visible"),
  });
})();
"""


def send_midi(page: Any, device: str, *messages: list[int]) -> None:
    """MIDI messages from the stand-in keyboard ``device``, one after another in one go, as
    a player's hands send them: a chord's notes come well within the chord window however
    busy the computer is (a round trip to the page for each could take longer)."""
    page.evaluate(
        "([id, messages]) => { for (const bytes of messages) window.mgMidi.send(id, bytes); }",
        [device, list(messages)],
    )


def listened_keyboard(page: Any) -> str:
    """The id of the stand-in keyboard the page listens to now: the one a student chose
    (remembered by name), else the first. A test that plays on "the keyboard" sends there,
    whichever an earlier test chose."""
    ids = page.evaluate("window.mgMidi.listened()")
    assert len(ids) == 1, f"the page listens to the keyboards {ids}, not to one"
    return str(ids[0])
