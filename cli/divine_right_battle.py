"""Divine Right sieges and battles on the command line: the Siege Phase (`siege`,
`breakout`), the Combat Phase (`attack`), and the decisions they ask of a player
(`retreat`, `pursue`, `sortie`, `losses`, `advance`, `siege displace|keep|lift`).

A decision asked of a player other than the one whose turn it is (the defender's retreat,
his losses) goes to him by default; `--as PLAYER` names him explicitly.
"""

from __future__ import annotations

from typing import Any

import click

from .context import Context, pass_ctx
from .divine_right import as_option, record, roll_option

# -- Siege Phase -------------------------------------------------------------------------------


@click.group()
def siege() -> None:
    """Siege Phase: displace besiegers, point out the castles attacked; answer a question
    about a siege.

    \b
    Example:
      warscribe siege attack Tadafat
      warscribe siege displace Tadafat --to 9,14
    """


@siege.command("attack")
@click.argument("castles", nargs=-1, required=True)
@as_option
@roll_option
@pass_ctx
def siege_attack(
    ctx: Context, castles: tuple[str, ...], actor: str | None, entered: tuple[int, ...]
) -> None:
    """Point out every castle attacked this Siege Phase; each gets its Siege Roll (1 fails,
    6 or more plunders).

    \b
    Example:
      warscribe siege attack Tadafat --roll 5
    """
    record(ctx, "siege-attack", {"castles": castles}, actor, entered)


@siege.command("displace")
@click.argument("stack", nargs=-1)
@click.option("--to", "to", default=None, metavar="HEX", help="The adjacent space.")
@click.option(
    "--lose", multiple=True, metavar="UNIT", help="Units lost fighting out of encirclement."
)
@as_option
@roll_option
@pass_ctx
def siege_displace(
    ctx: Context,
    stack: tuple[str, ...],
    to: str | None,
    lose: tuple[str, ...],
    actor: str | None,
    entered: tuple[int, ...],
) -> None:
    """Displace besieging units (by id, or all of them by their space) to an adjacent
    space: before the siege attacks, or when asked (an invalid siege, units pushed aside).

    \b
    Example:
      warscribe siege displace Muetar-A5 --to 9,14
      warscribe siege displace Tadafat --to 11,14 --lose Muetar-A4
    """
    args: dict[str, Any] = {
        "units": ",".join(stack) or None,
        "to": to,
        "lose": ",".join(lose) or None,
    }
    record(ctx, "siege-displace", args, actor, entered)


@siege.command("keep")
@click.argument("kingdom")
@as_option
@roll_option
@pass_ctx
def siege_keep(ctx: Context, kingdom: str, actor: str | None, entered: tuple[int, ...]) -> None:
    """Keep your siege of the kingdom's castle: its deactivation, forced peace or
    Confusion does not happen.

    \b
    Example:
      warscribe siege keep Immer --as carol
    """
    record(ctx, "siege-keep", {"kingdom": kingdom}, actor, entered)


@siege.command("lift")
@click.argument("kingdom")
@click.option("--to", "to", multiple=True, metavar="HEX", help="A space next to each castle.")
@as_option
@roll_option
@pass_ctx
def siege_lift(
    ctx: Context, kingdom: str, to: tuple[str, ...], actor: str | None, entered: tuple[int, ...]
) -> None:
    """Give up your sieges of the kingdom's castles: the besiegers are displaced.

    \b
    Example:
      warscribe siege lift Immer --to 15,9 --as carol
    """
    record(ctx, "siege-lift", {"kingdom": kingdom, "to": ";".join(to) or None}, actor, entered)


@click.command()
@click.argument("castle")
@as_option
@roll_option
@pass_ctx
def breakout(ctx: Context, castle: str, actor: str | None, entered: tuple[int, ...]) -> None:
    """Siege Phase: your units inside a besieged castle attack all its besiegers; win or
    lose, they may then leave.

    \b
    Example:
      warscribe breakout Tadafat --roll 5 --roll 3
    """
    record(ctx, "breakout", {"castle": castle}, actor, entered)


# -- Combat Phase ------------------------------------------------------------------------------


@click.group()
def attack() -> None:
    """Combat Phase: declare every attack, then resolve them one at a time.

    \b
    Example:
      warscribe attack declare "21,12>22,12"
      warscribe attack resolve 1
    """


@attack.command("declare")
@click.argument("attacks", nargs=-1, required=True)
@as_option
@pass_ctx
def attack_declare(ctx: Context, attacks: tuple[str, ...], actor: str | None) -> None:
    """Declare all of this phase's attacks, each ATTACKERS>SPACES: attacking units by id
    or by space, then the defending spaces; `fleet:` for fleets against fleets,
    `amphibious:` for fleets (and the units aboard) against a port.

    \b
    Example:
      warscribe attack declare "Muetar-A1,21,12>22,12" "fleet:Mivior-F1,Mivior-F2>Colist"
      warscribe attack declare "amphibious:Rombune-F1,Rombune-F2>Thores"
    """
    record(ctx, "attack-declare", {"attacks": attacks}, actor, ())


@attack.command("resolve")
@click.argument("number", type=int)
@click.option(
    "--retreated", is_flag=True, help="Attack too the units that retreated next to yours."
)
@as_option
@roll_option
@pass_ctx
def attack_resolve(
    ctx: Context, number: int, retreated: bool, actor: str | None, entered: tuple[int, ...]
) -> None:
    """Resolve declared attack NUMBER (in any order); the defender may first retreat.

    \b
    Example:
      warscribe attack resolve 2
    """
    args: dict[str, Any] = {"number": number, "retreated": True if retreated else None}
    record(ctx, "attack-resolve", args, actor, entered)


@click.group()
def retreat() -> None:
    """Retreat before combat (the defender, asked before the combat dice).

    \b
    Example:
      warscribe retreat roll 22,12 --roll 5
      warscribe retreat to 23,12
      warscribe retreat stand --roll 4 --roll 2
    """


group_option = click.option(
    "--group", "groups", multiple=True, help="humans, or a non-human kingdom (Neuth...)."
)
fleets_option = click.option("--fleets", is_flag=True, help="The fleets, not the land units.")


@retreat.command("roll")
@click.argument("space", required=False)
@fleets_option
@group_option
@as_option
@roll_option
@pass_ctx
def retreat_roll(
    ctx: Context,
    space: str | None,
    fleets: bool,
    groups: tuple[str, ...],
    actor: str | None,
    entered: tuple[int, ...],
) -> None:
    """Roll to retreat the land units (or fleets) of a defending space: humans go on 4-6,
    non-humans on 3-6; the group with the least chance is tested first.

    \b
    Example:
      warscribe retreat roll 22,12 --group Neuth
    """
    args = {"space": space, "fleets": True if fleets else None, "groups": ",".join(groups) or None}
    record(ctx, "retreat-roll", args, actor, entered)


@retreat.command("to")
@click.argument("to")
@click.option("--space", default=None, help="The defending space they leave.")
@fleets_option
@group_option
@click.option(
    "--hero",
    "heroes",
    multiple=True,
    metavar="HERO",
    help="A hero riding away with them (`none` for none; default: all of them when no "
    "combat unit stays).",
)
@as_option
@roll_option
@pass_ctx
def retreat_to(
    ctx: Context,
    to: str,
    space: str | None,
    fleets: bool,
    groups: tuple[str, ...],
    heroes: tuple[str, ...],
    actor: str | None,
    entered: tuple[int, ...],
) -> None:
    """The groups the roll let go (all, or those named) retreat to one adjacent space,
    with the heroes named.

    \b
    Example:
      warscribe retreat to 23,12 --group Neuth --hero Hothior-monarch
    """
    args = {
        "to": to,
        "space": space,
        "fleets": True if fleets else None,
        "groups": ",".join(groups) or None,
        "heroes": ",".join(heroes) or None,
    }
    record(ctx, "retreat-to", args, actor, entered)


@retreat.command("stand")
@as_option
@roll_option
@pass_ctx
def retreat_stand(ctx: Context, actor: str | None, entered: tuple[int, ...]) -> None:
    """No (further) retreat: the attack is fought (the combat dice are rolled now).

    \b
    Example:
      warscribe retreat stand --roll 3 --roll 5
    """
    record(ctx, "retreat-stand", {}, actor, entered)


def _answer(
    ctx: Context,
    name: str,
    units: tuple[str, ...],
    none: bool,
    actor: str | None,
    entered: tuple[int, ...],
) -> None:
    if none and units:
        raise click.UsageError("name units or give --none, not both")
    args: dict[str, Any] = {} if none else {"units": ",".join(units) or None}
    record(ctx, f"{name}-none" if none else name, args, actor, entered)


@click.command()
@click.argument("units", nargs=-1)
@click.option("--none", "none", is_flag=True, help="Leave them be.")
@as_option
@roll_option
@pass_ctx
def pursue(
    ctx: Context, units: tuple[str, ...], none: bool, actor: str | None, entered: tuple[int, ...]
) -> None:
    """Attack too the units that retreated before combat but are still next to your
    attackers (all unless named); they retreat no more. The combat dice follow.

    \b
    Example:
      warscribe pursue --roll 4 --roll 2
      warscribe pursue --none
    """
    _answer(ctx, "pursue", units, none, actor, entered)


@click.command()
@click.argument("fleets", nargs=-1)
@click.option("--none", "none", is_flag=True, help="The fleets stay within the walls.")
@as_option
@roll_option
@pass_ctx
def sortie(
    ctx: Context, fleets: tuple[str, ...], none: bool, actor: str | None, entered: tuple[int, ...]
) -> None:
    """Bring your fleets (all unless named) out of the castle-port to defend against an
    amphibious attack; they stay outside after the battle.

    \b
    Example:
      warscribe sortie Rombune-F5
      warscribe sortie --none
    """
    _answer(ctx, "sortie", fleets, none, actor, entered)


@click.command()
@click.argument("units", nargs=-1, required=True)
@as_option
@roll_option
@pass_ctx
def losses(
    ctx: Context, units: tuple[str, ...], actor: str | None, entered: tuple[int, ...]
) -> None:
    """Choose the units you lose (a battle, a breakout, a failed siege roll).

    \b
    Example:
      warscribe losses Muetar-A4 Muetar-A5
    """
    record(ctx, "losses", {"units": ",".join(units)}, actor, entered)


@click.group()
def advance() -> None:
    """Advance after combat (the attacker, asked when a space was vacated or a castle
    relieved).

    \b
    Example:
      warscribe advance into 22,12 Muetar-A1
      warscribe advance none
    """


@advance.command("into")
@click.argument("to")
@click.argument("units", nargs=-1)
@click.option("--inside", is_flag=True, help="Within the walls of your own castle.")
@as_option
@roll_option
@pass_ctx
def advance_into(
    ctx: Context,
    to: str,
    units: tuple[str, ...],
    inside: bool,
    actor: str | None,
    entered: tuple[int, ...],
) -> None:
    """Advance attacking units (all the survivors unless named) into the space; into an
    enemy castle space it declares a siege.

    \b
    Example:
      warscribe advance into Tadafat
    """
    args = {"to": to, "units": ",".join(units) or None, "inside": True if inside else None}
    record(ctx, "advance-into", args, actor, entered)


@advance.command("none")
@as_option
@pass_ctx
def advance_none(ctx: Context, actor: str | None) -> None:
    """Do not advance.

    \b
    Example:
      warscribe advance none
    """
    record(ctx, "advance-none", {}, actor, ())


def sieges_text(rows: list[dict[str, Any]]) -> str:
    if not rows:
        return "no castle is under siege"
    lines = []
    for s in rows:
        state = "valid" if s["valid"] else "INVALID"
        end = ", displaced at the end of the turn" if s["displaced_at_end_of_turn"] else ""
        lines.append(
            f"{s['castle']:<16} besieged by {s['besieger']}: {s['besieging']} against defence "
            f"{s['defence']} + {s['inside']} inside ({state}{end}), since turn {s['since_turn']}"
        )
    return "\n".join(lines)


COMMANDS = (siege, breakout, attack, retreat, pursue, sortie, losses, advance)
