// The referee's part of the page (web/referee.py): the mailbox, who must act, what will be
// mailed, and a mail handed to the record. It runs once the page's script has run (its
// `token`, `byId`, `element`, `call` and `show`); every text is set as text.
document.addEventListener("DOMContentLoaded", () => {
  function listed(id, items, line) {
    const rows = items.map((item) => {
      const row = element("li", line(item));
      if (item.ok === false) row.className = "refused";
      return row;
    });
    if (!rows.length) {
      rows.push(element("li", "none"));
      rows[0].className = "none";
    }
    byId(id).replaceChildren(...rows);
  }

  function reply(item) {
    const told = item.mails.length ? `; tells of ${item.mails.join(", ")}` : "";
    const when = item.when ? `${item.when}: ` : "";
    return `${when}to ${item.to}: entries ${item.entries}${told}`;
  }

  function mailbox(data) {
    byId("mail-now").textContent = data.now;
    listed("mail-journal", data.mails, (m) =>
      `${m.when}: ${m.name} from ${m.from}: ${m.result}` + (m.untold ? " (a reply is owed)" : ""));
    listed("mail-owed", data.owed, reply);
    listed("mail-decided", data.decided, reply);
    listed("mail-posted", data.posted, reply);
  }

  async function hand(body, name, type) {
    const options = { method: "POST", headers: { "X-Warscribe-Token": token, "Content-Type": type }, body };
    const answer = await fetch(`/api/mail?name=${encodeURIComponent(name)}`, options);
    const data = await answer.json();
    byId("error").textContent = data.error || "";
    if (!answer.ok) return;
    byId("mail-text").value = "";
    byId("mail-file").value = "";
    listed("mail-taken", data.mails, (m) => m.text);
    mailbox(data.mailbox);
    const state = await call("GET", "/api/state");
    if (state) show(state);
    await loadStory();  // the story (and its positions) as the record now stands
  }

  byId("mail-paste").addEventListener("click", async () => {
    const text = byId("mail-text").value;
    if (!text.trim()) { byId("error").textContent = "paste the mail first"; return; }
    await hand(text, "", "text/plain; charset=utf-8");
  });

  byId("mail-upload").addEventListener("click", async () => {
    const file = byId("mail-file").files[0];
    if (!file) { byId("error").textContent = "choose the mail file first"; return; }
    await hand(await file.arrayBuffer(), file.name, "message/rfc822");
  });

  call("GET", "/api/mailbox").then((data) => { if (data) mailbox(data); });
});
