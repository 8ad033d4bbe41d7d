"use strict";
// The page of `warscribe serve`: every text is set as text; the board's overlay is the
// presenter's SVG. A POST carries the session's token (from the page's meta tag).
const token = document.querySelector('meta[name="warscribe-token"]').content;
const byId = (id) => document.getElementById(id);
let chosenStack = null;
let reachable = new Map();

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

function show(state) {
  const overlay = document.getElementById("overlay");
  if (overlay && state.overlay !== null) overlay.innerHTML = state.overlay;
  clearReach();
  const who = state.player ? state.player : "the referee";
  byId("where").textContent = `${state.position}: ${state.whose_turn || "nobody"} to act; you are ${who}` +
    (state.lines.length ? `; your orders lead to ${state.ahead}` : "");
  const panels = byId("panels");
  panels.replaceChildren();
  for (const panel of state.panels) {
    panels.append(element("h2", panel.title), element("pre", panel.text));
  }
  byId("lines").replaceChildren(...state.lines.map((line) => element("li", line)));
  byId("plan").textContent = state.plan.join("\n");
  byId("hint").textContent = state.player && state.reach
    ? "Click a stack to see where it can go, then a lit space to move it." : "";
  showOffers(state.offers);
  byId("signed").textContent = state.signed || "";
  const mail = byId("mail");
  mail.replaceChildren();
  if (state.signed) {
    const link = element("a", "Download the mail (orders.eml)");
    link.href = "/orders.eml";
    link.id = "eml";
    mail.append(link);
  }
  byId("story").textContent = state.story.join("\n");
  byId("story").scrollTop = byId("story").scrollHeight;
}

function showOffers(offers) {
  const list = byId("offers");
  list.replaceChildren();
  offers.forEach((offer, index) => {
    const row = element("div");
    row.className = "offer";
    const selects = {};
    for (const choice of offer.choices) {
      const select = element("select");
      select.name = choice.key;
      choice.values.forEach((value, at) => {
        const option = element("option", value);
        option.value = String(at);
        select.append(option);
      });
      selects[choice.key] = select;
    }
    const button = element("button", offer.text);
    button.type = "button";
    button.className = "offer-add";
    button.dataset.line = offer.text;
    button.addEventListener("click", async () => {
      const chosen = {};
      for (const [key, select] of Object.entries(selects)) chosen[key] = Number(select.value);
      const state = await call("POST", "/api/line", { offer: index, chosen });
      if (state) show(state);
    });
    row.append(button, ...Object.values(selects));
    list.append(row);
  });
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

call("GET", "/api/state").then((state) => { if (state) show(state); });
