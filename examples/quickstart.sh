#!/usr/bin/env bash
# A first run: record a Divine Right set-up in a fresh SQLite store, roll, export the log,
# import it into a second store as another player would, verify it, and summarise.
set -euo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
work="$(mktemp -d)"
ws() { warscribe --store "$work/$1" "${@:2}"; }

echo "== the referee creates a three-player game (seeded dice, so this run is reproducible)"
ws referee.db new divine-right --player alice --player bob=Muetar --player carol --dice seeded:2026 --name demo
echo
echo "== whose turn is it?"
ws referee.db status
echo
echo "== a recorded roll (outside the rules, e.g. for a house rule)"
ws referee.db roll 2d6 --purpose "weather (house rule)"
echo
echo "== the log so far"
ws referee.db log
echo
echo "== the referee mails the log (armored text) and bob imports it into his own store"
ws referee.db export --armor > "$work/demo.txt"
ws bob.db import "$work/demo.txt"
ws bob.db verify
echo
echo "== the kingdoms as turn 1 began, from bob's copy (any position works: --at TURN.PLAYER.PHASE)"
ws bob.db kingdoms --at 1.1.random-events
echo
echo "== the example log shipped with warscribe replays and verifies too"
ws example.db import "$here/demo-setup.wlog"
ws example.db verify
echo
echo "stores and files are in $work"
