"use strict";
// The page of `warscribe serve`: every text is set as text; the board's overlay is the
// presenter's SVG. A POST carries the session's token (from the page's meta tag).
const token = document.querySelector('meta[name="warscribe-token"]').content;
const byId = (id) => document.getElementById(id);
let chosenStack = null;
let reachable = new Map();
let live = null;  // the state now, as the server last gave it
let viewing = null;  // the story's position the board shows (null: now)

function element(tag, text) {
  const made = document.createElement(tag);
  if (text !== undefined) made.textContent = text;
  return made;
}

async function call(method, url, body) {
  const options = { method, headers: {} };
  if (method === "POST") {
    options.headers["X-Warscribe-Token"] = token;
    options.headers["Content-Type"] = "application/json";
    options.body = JSON.stringify(body || {});
  }
  const answer = await fetch(url, options);
  const data = await answer.json();
  byId("error").textContent = data.error || "";
  return answer.ok ? data : null;
}

// The position now (where the turn's lines are written), drawn; the story's slider back
// at its end.
function show(state) {
  live = state;
  viewing = null;
  byId("past").hidden = true;
  delete document.body.dataset.frame;
  addressed(null);
  drawn(state);
  if (story.length) showStory(story.length - 1);
  const who = state.player ? state.player : "the referee";
  byId("where").textContent = `${state.position}: ${state.whose_turn || "nobody"} to act; you are ${who}` +
    (state.lines.length ? `; your orders lead to ${state.ahead}` : "");
  byId("lines").replaceChildren(...state.lines.map((line) => element("li", line)));
  byId("plan").textContent = state.plan.join("\n");
  byId("hint").textContent = state.player && state.reach
    ? "Click a stack to see where it can go, then a lit space to move it." : "";
  showOffers(state.offers);
  byId("signed").textContent = state.signed || "";
  showMail(state);
}

// A position's board overlay and panels (now, or a past one's).
function drawn(shown) {
  const overlay = document.getElementById("overlay");
  if (overlay && shown.overlay !== null) overlay.innerHTML = shown.overlay;
  clearReach();
  const panels = byId("panels");
  panels.replaceChildren();
  for (const panel of shown.panels) {
    panels.append(element("h2", panel.title), element("pre", panel.text));
  }
}

function showMail(state) {
  const mail = byId("mail");
  mail.replaceChildren();
  if (!state.signed) return;
  const link = element("a", "Download the mail (orders.eml)");
  link.href = "/orders.eml";
  link.id = "eml";
  const copy = button("Copy the armored text", "copy", async () => {
    if (!navigator.clipboard) {  // not a secure context (served beyond this machine)
      window.getSelection().selectAllChildren(byId("signed"));
      byId("sent").textContent = "selected: copy it, then paste it into a mail to the referee";
      return;
    }
    await navigator.clipboard.writeText(state.signed);
    byId("sent").textContent = "copied: paste it into a mail to the referee";
  });
  mail.append(link, " ", copy);
  if (state.sends) {
    mail.append(" ", button("Send it to the referee", "send", async () => {
      const sent = await call("POST", "/api/send");
      if (sent) byId("sent").textContent = sent.sent;
    }));
  }
}

function button(text, id, onClick) {
  const made = element("button", text);
  made.type = "button";
  made.id = id;
  made.addEventListener("click", onClick);
  return made;
}

function showOffers(offers) {
  const list = byId("offers");
  list.replaceChildren();
  offers.forEach((offer, index) => {
    const row = element("div");
    row.className = "offer";
    const pickers = offer.choices.map((choice) => choice.parts ? ticks(choice) : select(choice));
    const add = element("button", offer.text);
    add.type = "button";
    add.className = "offer-add";
    add.dataset.line = offer.text;
    add.addEventListener("click", async () => {
      const chosen = {};
      for (const picker of pickers) {
        const at = picker.chosen();
        if (at < 0) {
          byId("error").textContent = picker.why;
          return;
        }
        chosen[picker.key] = at;
      }
      const state = await call("POST", "/api/line", { offer: index, chosen });
      if (state) show(state);
    });
    row.append(add, ...pickers.map((picker) => picker.element));
    list.append(row);
  });
}

// A choice of one value: a list to pick from; its index in the offer's values.
function select(choice) {
  const made = element("select");
  made.name = choice.key;
  choice.values.forEach((value, at) => {
    const option = element("option", value);
    option.value = String(at);
    made.append(option);
  });
  return { key: choice.key, element: made, chosen: () => Number(made.value), why: "" };
}

// A choice of several things at once (the units lost): a box to tick for each; the
// index of the offered value with exactly the ticked ones (-1: none is offered).
function ticks(choice) {
  const names = [...new Set(choice.parts.flat())];
  const count = choice.parts[0].length;
  const made = element("span");
  made.className = "ticks";
  const boxes = names.map((name) => {
    const box = element("input");
    box.type = "checkbox";
    box.name = choice.key;
    box.value = name;
    const label = element("label");
    label.append(box, name);
    made.append(label);
    return box;
  });
  const chosen = () => {
    const ticked = boxes.filter((box) => box.checked).map((box) => box.value).sort().join(" ");
    return choice.parts.findIndex((value) => [...value].sort().join(" ") === ticked);
  };
  const why = `tick ${count} of ${names.join(", ")} (as offered: ${choice.values.join(" | ")})`;
  return { key: choice.key, element: made, chosen, why };
}

function clearReach() {
  for (const lit of document.querySelectorAll(".reachable, .chosen")) {
    lit.classList.remove("reachable", "chosen");
  }
  reachable = new Map();
}

async function choose(counter) {
  clearReach();
  const data = await call("GET", `/api/reach?stack=${encodeURIComponent(counter.dataset.units)}`);
  if (!data) return;
  chosenStack = counter.dataset.units;
  counter.classList.add("chosen");
  for (const found of data.reach) {
    const space = found.space.join(",");
    reachable.set(space, found);
    for (const hex of document.querySelectorAll(`#board .hex[data-hex="${space}"]`)) {
      hex.classList.add("reachable");
      const title = document.createElementNS("http://www.w3.org/2000/svg", "title");
      title.textContent = `${space}: cost ${found.cost}: ${found.command}`;
      hex.append(title);
    }
  }
  if (!data.reach.length) byId("error").textContent = "that stack can reach no space now";
}

byId("board").addEventListener("click", async (event) => {
  if (viewing !== null) return;  // a past position: lines are written at the position now
  const place = event.target.closest("[data-hex]");
  if (chosenStack && place && reachable.has(place.dataset.hex)) {
    const state = await call("POST", "/api/line", { stack: chosenStack, space: place.dataset.hex });
    chosenStack = null;
    if (state) show(state);
    return;
  }
  const counter = event.target.closest(".counter");
  if (counter) await choose(counter);
});

byId("undo").addEventListener("click", async () => {
  const state = await call("POST", "/api/undo");
  if (state) show(state);
});

byId("sign").addEventListener("click", async () => {
  const signed = await call("POST", "/api/sign");
  if (signed) show(await call("GET", "/api/state"));
});

// The story beside the board: a slider (and the arrow keys) steps through it position
// by position, showing the story up to the one chosen and the board and panels as they
// were at its end (`/api/frame`, each position asked once); its last position is now.
let story = [];
const frames = new Map();

function showStory(at) {
  const slider = byId("slider");
  const shown = Math.max(0, Math.min(story.length - 1, at));
  slider.value = String(shown);
  const part = story.slice(0, shown + 1);
  byId("story").textContent = part.map((step) => step.lines.join("\n")).join("\n");
  byId("story").scrollTop = byId("story").scrollHeight;
  byId("at").textContent = story.length
    ? `${story[shown].position} (${shown + 1} of ${story.length})` : "";
  return shown;
}

function step(at) {
  const shown = showStory(at);
  if (shown < story.length - 1) viewFrame(shown);
  else if (viewing !== null && live) show(live);
}

async function viewFrame(at) {
  viewing = at;
  addressed(at);
  if (!frames.has(at)) {
    const frame = await call("GET", `/api/frame?at=${at}`);
    if (!frame) return;
    frames.set(at, frame);
  }
  if (viewing !== at) return;  // stepped on while it came
  const frame = frames.get(at);
  drawn(frame);
  byId("past-at").textContent =
    `Viewing ${frame.position} as it ended (entry #${frame.seq}), not now: your lines are written at now.`;
  byId("past").hidden = false;
  document.body.dataset.frame = String(at);
}

// The address names the past position shown (`#frame=N`, N the slider's number: a link
// to it); now has no fragment.
function addressed(at) {
  const fragment = at === null ? "" : `#frame=${at}`;
  if (location.hash === fragment) return;
  history.replaceState(null, "", `${location.pathname}${location.search}${fragment}`);
}

// The position an address's fragment `#frame=N` asks (step() keeps it in the story);
// now (the story's last) if it asks none.
function asked(fragment) {
  const wanted = /^#frame=(\d+)$/.exec(fragment);
  return wanted ? Number(wanted[1]) : story.length - 1;
}

byId("slider").addEventListener("input", () => step(Number(byId("slider").value)));
byId("now").addEventListener("click", () => step(story.length - 1));
document.addEventListener("keydown", (event) => {
  if (event.target.closest("select, input, button")) return;
  const by = { ArrowLeft: -1, ArrowRight: 1 }[event.key];
  if (!by) return;
  step(Number(byId("slider").value) + by);
  event.preventDefault();
});

async function loadStory() {
  const told = await call("GET", "/api/story");
  if (!told) return;
  story = told.story;
  frames.clear();
  byId("slider").max = String(Math.max(0, story.length - 1));
  showStory(story.length - 1);
}

window.addEventListener("hashchange", () => {
  step(asked(location.hash));
  if (viewing === null) addressed(null);  // a fragment asking no past position
});

// The page opens at now, or at the past position its address asks (`#frame=N`).
async function start() {
  const fragment = location.hash;  // read before show() writes now's (none)
  const [state] = await Promise.all([call("GET", "/api/state"), loadStory()]);
  if (state) show(state);
  step(asked(fragment));
}

start();
