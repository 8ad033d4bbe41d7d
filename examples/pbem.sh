#!/usr/bin/env bash
# Play by email, end to end: a referee and two players, each with a store of their own, in
# a temporary folder. The players sign their orders; the referee checks and records them
# (the record rolls the dice) and mails each player the copy of the log they may see.
# Every file that travels is armored text, and here each one is "mailed": quoted-printable,
# quoted with "> " and given CRLF line ends, as a mail client might, before it is read.
set -euo pipefail
work="$(mktemp -d)"
cd "$work"
ws() { local store="$1"; shift; warscribe --store "$store.db" "$@"; }
field() { python3 -c "import json,sys; print(json.load(sys.stdin)$1)"; }
mail() {  # mail FILE: what a mail client does to a pasted block of text
  python3 - "$1" <<'PY'
import quopri, sys
path = sys.argv[1]
text = quopri.encodestring(open(path, "rb").read()).decode()
quoted = "\r\n".join("> " + line + "  " for line in text.splitlines())
open(path, "w").write("Here it is:\r\n\r\n" + quoted + "\r\n-- \r\nsent by mail\r\n")
PY
}
sync() {  # the referee mails each player their copy; they import it
  for p in alice bob; do
    ws referee export --for "$p" --armor --force -o "to-$p.txt" 2>/dev/null
    mail "to-$p.txt"
    ws "$p" import "to-$p.txt" >/dev/null
  done
}
send() {  # send PLAYER COMMAND...: signed orders, mailed, checked and recorded
  local p="$1"; shift
  ws "$p" orders --as "$p" --key "$p.key" --force -o orders.txt "$@" 2>/dev/null
  mail orders.txt
  ws referee import-orders orders.txt
  sync
}
answer() {  # orders answering the question asked (pending.json) with its first options
  python3 - <<'PY'
import json
p = json.load(open("pending.json"))
opts, n, kind = p["options"], p["count"], p["kind"]
what, _, place = opts[0].partition(" at ")
if kind in ("storm", "mutiny", "epidemic", "desertion"):
    print("events-lose units=" + ",".join(opts[:n]))
elif opts[0].startswith("steal"):
    print("events-decline")
elif kind not in ("replacement", "reinforcement", "replacement-or-reinforcement"):
    print(f"place 'at={place}'")  # a placement the rules leave to the player
elif what in ("army", "fleet"):
    print(f"events-reinforce kind={what} 'at={place}'")
else:
    print(f"events-replace unit={what}")
PY
}
answer_all() {  # whoever the table asks answers with the first options, until nobody is asked
  while ws referee status --json > status.json && \
        [ "$(field "['pending'] is not None" < status.json)" = True ]; do
    python3 -c "import json; json.dump(json.load(open('status.json'))['pending'], open('pending.json','w'))"
    send "$(field "['pending']['player']" < status.json)" "$(answer)"
  done
}
random_events() {  # random_events PLAYER: roll, answer what the table asks, end the phase
  answer_all
  send "$1" events-roll
  answer_all
  send "$1" end-phase
}
quiet_turn() {  # the rest of a player turn: draw, hold the card, end each phase
  send "$1" diplomacy-draw diplomacy-pass end-phase end-phase end-phase end-phase
}
whose() { ws referee status --json | field "['whose_turn']"; }

echo "== each player makes a key pair and mails the public half to the referee"
warscribe keys new alice
warscribe keys new bob

echo; echo "== the referee creates the game with the players' public keys"
ws referee new divine-right --player alice --player bob --key alice=alice.pub --key bob=bob.pub \
  --name by-mail | head -3
sync

echo; echo "== turn 1: each player draws a diplomacy card and holds it"
for _ in 1 2; do
  p="$(whose)"; echo "-- $p's player turn"
  random_events "$p"; quiet_turn "$p"
done
holder="$(ws referee log --json | python3 -c "
import json,sys
print(next(e['fields']['player'] for e in json.load(sys.stdin) if e['event']=='DiplomacyCardDrawn'))")"
other=$([ "$holder" = alice ] && echo bob || echo alice)
echo; echo "== $holder's hand, from $holder's own copy; and from $other's copy"
ws "$holder" hand --as "$holder"
ws "$other" hand --as "$holder"

echo; echo "== turn 2: $holder plays the card held since turn 1"
while [ "$(whose)" != "$holder" ]; do p="$(whose)"; random_events "$p"; quiet_turn "$p"; done
random_events "$holder"
send "$holder" diplomacy-draw
card="$(ws "$holder" hand --as "$holder" --json | field "['cards'][0]")"
target="$(ws referee kingdoms --json | python3 -c "
import json,sys
print(next(k['kingdom'] for k in json.load(sys.stdin) if k['status']=='inactive'))")"
send "$holder" "diplomacy-activate kingdom=$target card=$card"

echo; echo "== in $other's copy the card is published, and checked against its commitment"
ws "$other" log | grep -E "DiplomacyAttempted|Disclosed" | tail -3
ws "$other" verify

echo; echo "== orders mailed twice are refused, and nothing is recorded"
ws referee import-orders orders.txt || true

echo; echo "== the referee audits turn 2: every command re-decided from the record"
ws referee audit --turn 2

echo; echo "== the game over, the referee reveals the dice secret: every roll, hidden ones too,"
echo "   is re-derived in $other's copy"
ws referee reveal
sync
ws "$other" verify

echo; echo "== a what-if line from the start of turn 2, the original untouched"
ws referee fork --at 2.1.random-events --name what-if
ws referee games
ws referee --game by-mail note --at 1.1.diplomacy "a good first draw" --as "$holder" | tail -1
echo; echo "stores and mails are in $work"
