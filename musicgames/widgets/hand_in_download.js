// HandInDownload: the student's progress file as a download (the static site's hand-in).
//
// Draws the line on where the answers are kept and a button. A click asks the kernel for
// the file; the kernel sends its name and bytes, which are saved as a download. Where the
// kernel says answers are kept in this browser, the page asks the browser to keep the
// site's storage for good (a worker cannot ask: the page must). When the kernel says the
// browser refused to keep the last answers, the line is drawn as a warning.

function render({ model, el }) {
  el.classList.add("mg-hand-in-download");
  const title = document.createElement("b");
  const kept = document.createElement("p");
  kept.className = "mg-hand-in-kept";
  kept.setAttribute("aria-live", "polite"); // a warning that answers are not kept is read out
  const button = document.createElement("button");
  button.className = "mg-hand-in-button jupyter-button mod-primary";
  const message = document.createElement("p");
  message.className = "mg-hand-in-message";
  el.append(title, kept, button, message);

  const draw = () => {
    title.textContent = model.get("title");
    kept.textContent = model.get("kept_line");
    kept.classList.toggle("mg-is-warning", model.get("warning"));
    button.textContent = model.get("button");
    button.disabled = model.get("disabled");
    message.textContent = model.get("message");
  };
  draw();
  model.on("change", draw);

  button.addEventListener("click", () => model.send({ type: "hand-in" }));

  const save = (content, buffers) => {
    if (!content || content.type !== "file") return;
    const blob = new Blob(buffers, { type: "application/vnd.sqlite3" });
    const link = document.createElement("a");
    link.href = URL.createObjectURL(blob);
    link.download = content.name;
    link.style.display = "none";
    document.body.append(link);
    link.click();
    link.remove();
    setTimeout(() => URL.revokeObjectURL(link.href), 60000);
  };
  model.on("msg:custom", save);

  const storage = globalThis.navigator && navigator.storage;
  if (model.get("ask_to_persist") && storage && storage.persist) {
    storage.persist().then((granted) => {
      model.set("persisted", Boolean(granted));
      model.save_changes();
    }).catch(() => {});
  }
  return () => {
    model.off("change", draw);
    model.off("msg:custom", save);
  };
}

export default { render };
