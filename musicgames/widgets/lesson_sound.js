// A lesson's sound: plays what the lesson asks for (a note after an answer, a chord to hear).
//
// The lesson's Python side sets the trait `sound` ({hz: [...], broken}) and counts up `count`
// each time something is to be played; this view plays it through the shared WidgetSound
// (_sound.js, put in front of this file), unless `enabled` is off (the lesson's Sound
// setting). It draws nothing: the lesson's settings panel holds the on/off switch. Nothing
// sounds before the person's first click on the page, as everywhere.

function render({ model, el }) {
  const sound = new WidgetSound("lesson", (key) => (model.get("strings") || {})[key] || key);
  el.classList.add("mg-lesson-sound");
  const play = () => {
    if (model.get("enabled")) sound.play(model.get("sound"));
  };
  model.on("change:count", play);
  return () => {
    model.off("change:count", play);
    sound.destroy();
  };
}

export default { render };
