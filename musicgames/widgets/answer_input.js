// The "answer with" switch on its own (a lesson's exercise that asks for a note): the page
// side of answer_input.py. It draws the PlayInput of _play_input.js (put in front of this
// file) and reports each note played while the kernel says a question waits (trait
// `listening`):
//   {type: "played", midi, source}       source: "midi" | "microphone"
//   {type: "input", settings: {...}}     the switch changed (sent by PlayInput)
// and shows the kernel's `notice` under it (the choice could not be kept, and why).

function render({ model, el }) {
  const play = new PlayInput(model, (key, values) =>
    fill((model.get("strings") || {})[key] || key, values || {}), {
    onNote: (midi, source) => {
      if (model.get("listening")) model.send({ type: "played", midi, source });
    },
    active: () => Boolean(model.get("listening")),
  });
  // the choice could not be kept in the student's file: said under the switch
  const notice = h("div", { class: "mg-answer-input-notice", role: "status" });
  el.append(play.root, notice);
  const noticed = () => {
    notice.textContent = model.get("notice") || "";
    notice.hidden = !notice.textContent;
  };
  noticed();
  model.on("change:notice", noticed);
  const refresh = () => play.refresh();
  const listening = () => play.activeChanged();
  for (const name of ["playing", "heard", "strings"]) model.on(`change:${name}`, refresh);
  model.on("change:listening", listening);
  play.refresh();
  return () => {
    for (const name of ["playing", "heard", "strings"]) model.off(`change:${name}`, refresh);
    model.off("change:listening", listening);
    model.off("change:notice", noticed);
    play.destroy();
  };
}

export default { render };
