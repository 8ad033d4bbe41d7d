#!/usr/bin/env bash
# Play by email as a group plays it: a referee and three players (alice Hothior, bob Mivior,
# carol Muetar), each with a store of their own, two full game turns of Divine Right with
# battles and a siege. Each player mails one signed orders mail per player turn (the whole
# turn, phase by phase, with standing answers); the referee takes every mail of their Maildir
# at once (`warscribe referee INBOX --outbox OUTBOX`), each player saves the reply and
# imports it. At the end every copy verifies and the referee's audit passes; each game
# prints the mails each player sent per player turn (target: at most 1.3), and the
# referee's mails each player received per player turn of the game (target: at most 1.5).
#
# Then the same table with host dice (examples/pbem_host_game.py: the referee's secret dice,
# fixed from each seed; the players plan with `status`, `reach` and the dry run of `orders`
# alone), ten seeds of three game turns, which together must cost at most 1.1 orders mails
# per player turn and 1.5 referee mails per player per player turn.
#
#   examples/pbem.sh [SEED ...]     (default: ten seeds each; PBEM_VERBOSE=1 shows every command)
# The game itself is examples/pbem_game.py (the players plan their turns on their own copies).
set -euo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
seeds=("$@")
[ ${#seeds[@]} -gt 0 ] || seeds=(3 6 8 10 11 13 14 15 16 17)
verbose=()
[ -z "${PBEM_VERBOSE:-}" ] || verbose=(--verbose)
for seed in "${seeds[@]}"; do
  work="$(mktemp -d)"
  python3 "$here/pbem_game.py" --seed "$seed" --folder "$work" "${verbose[@]}"
  rm -rf "$work"
done
host_seeds=()
for seed in "$@"; do host_seeds+=(--seed "$seed"); done
python3 "$here/pbem_host_game.py" "${host_seeds[@]}" "${verbose[@]}"
