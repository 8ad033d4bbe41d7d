"""Every Divine Right command as a `CommandSpec`: its typed arguments, the rulebook
section it follows, its help and example, and its shape on the command line (generated
from these: cli/generated.py). Each is decided by its rule module's handler on the core's
`Decision` (`evolving.Decision`), reading its arguments from the call, already read and
checked by the core (`warscribe.engine.commands.read`), a space or a path already hexes."""

from __future__ import annotations

from warscribe.engine.commands import (
    FLAG,
    TEXT,
    Arg,
    CommandSpec,
    Decide,
    choice,
    integer,
    table,
)

from . import diplomacy, heroes, inactive_kingdoms, random_events, reentry, special_kingdoms, turn
from .arguments import ATTACKS, HEX, HEXES, PATH, UNITS
from .combat import declare, fight, resolve, retreat
from .combat.fight import ADVANCE, LOSSES, RETREAT
from .combat.resolve import SORTIE
from .combat.retreat import PURSUE
from .data import DRData, load_custom
from .movement import fleets, move
from .placement import choice as placement
from .sections import (
    ACTIVATION_ATTEMPTS,
    ACTIVATION_OF_KINGDOMS,
    ADVANCE_AFTER_COMBAT,
    AMPHIBIOUS_ATTACKS,
    ASSASSINATION_ATTEMPTS,
    BESIEGER_DISPLACEMENT,
    BREAKOUTS,
    CAPTURE_OF_A_MONARCH,
    DEACTIVATION_ATTEMPTS,
    DIPLOMACY_CARDS,
    DUELING,
    FATE_ROLL,
    FORCED_PEACE_ATTEMPTS,
    GAME_TURN,
    INACTIVE_KINGDOMS,
    INSIDE_OUTSIDE,
    MAKING_ATTACKS,
    MOVEMENT_PHASE,
    ONGOING_SIEGES,
    RANDOM_EVENTS_PHASE,
    REENTRY,
    RESOLVING_A_SIEGE,
    RESOLVING_DIPLOMACY,
    RETREAT_BEFORE_COMBAT,
    RIVER_FLEETS,
    SHIPWRECKED_HEROES,
    TRANSPORTING_TROOPS,
)
from .siege import declare as siege_declare
from .siege import phase as siege
from .siege.phase import VETO
from .state import State


def data_of(state: State) -> DRData:
    """The data the game was created with."""
    return load_custom(state.custom_data)


def _spec(
    name: str,
    handler: Decide[State],
    rule: str,
    help_: str,
    example: tuple[str, ...],
    *args: Arg,
    rolls: bool = False,
    answers: tuple[str, ...] = (),
    flag_of: tuple[str, str] | None = None,
) -> CommandSpec[State]:
    """A spec; `group-sub` names of the groups below are `warscribe GROUP SUB`."""
    group, _, sub = name.partition("-")
    grouped = group in GROUPS and sub != ""
    return CommandSpec(
        name,
        handler,
        args,
        rule,
        help_,
        example,
        answers=answers,
        group=group if grouped else None,
        sub=sub if grouped else None,
        rolls=rolls,
        flag_of=flag_of,
    )


PLACED = tuple(
    {
        **inactive_kingdoms.PLACEMENTS,
        **heroes.PLACEMENTS,
        **fleets.PLACEMENTS,
        **special_kingdoms.PLACEMENTS,
    }
)
"""The placements left to a player, each answered by `place`."""

GROUPS = {
    "events": "Random Events Phase: roll on the table, then make the choices it asks for.\n\n"
    "\b\nExample:\n  warscribe events roll",
    "diplomacy": "Diplomacy Phase: draw a card, then one ambassador task, then forced peace."
    "\n\n\b\nExample:\n  warscribe diplomacy draw\n"
    "  warscribe diplomacy activate Neuth --card threats+1#1",
    "prisoner": "Decide a captive monarch's fate: execute him or set him free.\n\n"
    "\b\nExample:\n  warscribe prisoner free Neuth",
    "castaway": "Decide for your hero cast upon a neutral kingdom's shore: he stays (a "
    "diplomatic penalty) or is eliminated voluntarily.\n\n"
    "\b\nExample:\n  warscribe castaway stay",
    "siege": "Siege Phase: displace besiegers, point out the castles attacked; answer a "
    "question about a siege.\n\n\b\nExample:\n  warscribe siege attack Tadafat\n"
    "  warscribe siege displace Tadafat --to 9,14",
    "attack": "Combat Phase: declare every attack, then resolve them one at a time.\n\n"
    '\b\nExample:\n  warscribe attack declare "21,12>22,12"\n  warscribe attack resolve 1',
    "retreat": "Retreat before combat (the defender, asked before the combat dice).\n\n"
    "\b\nExample:\n  warscribe retreat roll 22,12 --roll 5\n  warscribe retreat to 23,12\n"
    "  warscribe retreat stand --roll 4 --roll 2",
    "advance": "Advance after combat (the attacker, asked when a space was vacated or a "
    "castle relieved).\n\n\b\nExample:\n  warscribe advance into 22,12 Muetar-A1\n"
    "  warscribe advance none",
}
"""The help of each command-line group of Divine Right's commands."""


def _kingdom(help_: str = "The kingdom.") -> Arg:
    return Arg("kingdom", TEXT, help_, required=True, positional=True, metavar="KINGDOM")


def _units(help_: str, required: bool = False, metavar: str = "UNIT...") -> Arg:
    return Arg("units", UNITS, help_, required=required, positional=True, metavar=metavar)


CARD = Arg("card", TEXT, "A diplomacy card from your hand to play (one per roll).", metavar="CARD")
STACK = _units("The units moved, by id, or the space they stand in.", True, "STACK...")
PATH_ARG = Arg(
    "path",
    PATH,
    "The spaces entered in turn: names or COL,ROW (e.g. 12,7,13,7,Pennol); `reach STACK` "
    "lists the spaces a stack can reach and a path to each.",
    required=True,
    metavar="HEX,HEX,...",
    listed_by="where can a stack go: warscribe reach STACK",
)
LEADER = Arg("leader", TEXT, "The monarch leading the stack.", metavar="MONARCH")
FLEETS = Arg("fleets", FLAG, "The fleets, not the land units.")
GROUP = Arg(
    "groups", UNITS, "humans, or a non-human kingdom (Neuth...).", metavar="G", option="group"
)


def _units_command(
    name: str, handler: Decide[State], rule: str, help_: str, example: str
) -> CommandSpec[State]:
    units = _units("The units, by id (or the space they stand in).", True)
    return _spec(name, handler, rule, help_, (example,), units, rolls=True)


def _declined(
    of: str, handler: Decide[State], rule: str, help_: str, answers: tuple[str, ...]
) -> CommandSpec[State]:
    """`OF-none`, declining what `OF` answers: typed `warscribe OF --none`."""
    return _spec(
        f"{of}-none",
        handler,
        rule,
        help_,
        (f"{of} --none",),
        rolls=True,
        answers=answers,
        flag_of=(of, "none"),
    )


COMMANDS = table(
    _spec(
        "end-phase",
        turn.end_phase,
        GAME_TURN,
        "End the current phase (refused while it waits for a decision).",
        ("end-phase",),
    ),
    _spec(
        "events-roll",
        random_events.roll,
        RANDOM_EVENTS_PHASE,
        "Roll two dice on the Random Events Table.",
        ("events roll --roll 3 --roll 4   # table dice",),
        rolls=True,
    ),
    _spec(
        "events-lose",
        random_events.lose,
        RANDOM_EVENTS_PHASE,
        "Choose the unit(s) lost to Storms, Mutiny, Epidemic or Desertion.",
        ("events lose Hothior-F1",),
        _units("The units lost."),
        Arg("unit", TEXT, "One unit lost.", metavar="UNIT"),
        answers=random_events.LOSSES,
    ),
    _spec(
        "events-replace",
        random_events.replace_unit,
        RANDOM_EVENTS_PHASE,
        "Bring an eliminated regular back at its deployment space (Replacements).",
        ("events replace Muetar-A3",),
        Arg(
            "unit",
            TEXT,
            "The regular brought back.",
            required=True,
            positional=True,
            metavar="UNIT",
        ),
        Arg("at", TEXT, "Where, when the unit has several spaces.", metavar="PLACE"),
        answers=random_events.REPLACES,
    ),
    _spec(
        "events-reinforce",
        random_events.reinforce,
        RANDOM_EVENTS_PHASE,
        "Bring a common mercenary into play (Reinforcements), or steal one when the pool "
        "has none of the type you may take.",
        ('events reinforce --kind army --at "Port Lork"',),
        Arg("kind", choice("army", "fleet"), "Type from the pool."),
        Arg(
            "unit", TEXT, "A pool counter, or another player's mercenary to steal.", metavar="UNIT"
        ),
        Arg("at", TEXT, "A friendly castle (a port for a fleet).", metavar="PLACE"),
        answers=random_events.REINFORCES,
    ),
    _spec(
        "events-decline",
        random_events.decline,
        RANDOM_EVENTS_PHASE,
        "Decline to steal a mercenary when stealing is all that is left.",
        ("events decline",),
        answers=random_events.REINFORCES,
    ),
    _spec(
        "diplomacy-draw",
        diplomacy.draw,
        DIPLOMACY_CARDS,
        "Draw one diplomacy card (even with a dead ambassador).",
        ("diplomacy draw",),
    ),
    _spec(
        "diplomacy-pass",
        diplomacy.pass_,
        RESOLVING_DIPLOMACY,
        "The ambassador does nothing this phase.",
        ("diplomacy pass",),
    ),
    _spec(
        "diplomacy-activate",
        diplomacy.activation,
        ACTIVATION_ATTEMPTS,
        "Try to win a non-allied non-player kingdom (6 or more).",
        ("diplomacy activate Neuth --card bribe+1#1",),
        _kingdom(),
        CARD,
        rolls=True,
    ),
    _spec(
        "diplomacy-deactivate",
        diplomacy.deactivation,
        DEACTIVATION_ATTEMPTS,
        "Try to make an enemy-allied kingdom leave its alliance (7 or more).",
        ("diplomacy deactivate Ghem",),
        _kingdom(),
        CARD,
        rolls=True,
    ),
    _spec(
        "diplomacy-assassinate",
        diplomacy.assassination,
        ASSASSINATION_ATTEMPTS,
        "Once per game: contested roll against an enemy-allied monarch.",
        ("diplomacy assassinate Zorn",),
        _kingdom(),
        rolls=True,
    ),
    _spec(
        "diplomacy-force-peace",
        diplomacy.forced_peace,
        FORCED_PEACE_ATTEMPTS,
        "After the ambassador's task: 5-6 forces peace on an enemy ally whose royal castle "
        "you plundered and hold, or whose monarch you hold.",
        ("diplomacy force-peace Muetar",),
        _kingdom(),
        rolls=True,
    ),
    _spec(
        "diplomacy-duel",
        diplomacy.duel,
        DUELING,
        "Once per pair of players: the lower roll's ambassador dies; a tie kills both.",
        ("diplomacy duel bob",),
        Arg(
            "player",
            TEXT,
            "The player challenged.",
            required=True,
            positional=True,
            metavar="PLAYER",
        ),
        rolls=True,
    ),
    _spec(
        "discard",
        diplomacy.discard,
        DIPLOMACY_CARDS,
        "Discard diplomacy cards (down to four at the end of the Diplomacy Phase).",
        ("discard threats+1#2 bribe+2#1",),
        Arg(
            "cards",
            UNITS,
            "The cards discarded.",
            required=True,
            positional=True,
            metavar="CARD...",
        ),
    ),
    _spec(
        "rejoin",
        reentry.rejoin,
        REENTRY,
        "Optional rule: an eliminated player re-enters as the monarch of a new kingdom.",
        ("rejoin --consent --as carol",),
        Arg("consent", FLAG, "Every other player agrees (required)."),
    ),
    _spec(
        "move",
        move.move,
        MOVEMENT_PHASE,
        "Move a stack (its units, or the space it stands in) along a path.",
        (
            "move Hothior-monarch Hothior-A1 --path 10,16,11,15 --leader Hothior-monarch",
            'move "Port Lork" --path 10,16',
        ),
        STACK,
        LEADER,
        PATH_ARG,
        rolls=True,
    ),
    _spec(
        "ferry",
        move.move,
        RIVER_FLEETS,
        "Move a stack across the navigable river over a friendly fleet (one combat unit per "
        "movement point the fleet has left; heroes free).",
        ("ferry Muetar-A1 Muetar-A2 --fleet Muetar-F1 --path 17,15,16,14",),
        STACK,
        LEADER,
        Arg(
            "fleet", TEXT, "The friendly fleet ferrying the stack.", required=True, metavar="FLEET"
        ),
        PATH_ARG,
        rolls=True,
    ),
    _spec(
        "embark",
        fleets.embark,
        TRANSPORTING_TROOPS,
        "Land units and heroes in the fleet's space go aboard it (one combat unit per "
        "fleet, any heroes).",
        ("embark Hothior-F1 Hothior-A1 Hothior-monarch",),
        Arg("fleet", TEXT, "The fleet.", required=True, positional=True, metavar="FLEET"),
        _units("The units going aboard.", True),
    ),
    _spec(
        "debark",
        fleets.debark,
        TRANSPORTING_TROOPS,
        "Units aboard the fleet land in its space (all of them unless named).",
        ("debark Hothior-F1",),
        Arg("fleet", TEXT, "The fleet.", required=True, positional=True, metavar="FLEET"),
        _units("The units landing (default: all aboard)."),
    ),
    _units_command(
        "inside",
        move.walls,
        INSIDE_OUTSIDE,
        "Units go inside the walls of their friendly castle.",
        "inside Pennol",
    ),
    _units_command(
        "outside",
        move.walls,
        INSIDE_OUTSIDE,
        "Units come out of the walls of their castle.",
        "outside Muetar-A1",
    ),
    _units_command(
        "search",
        move.search,
        FATE_ROLL,
        "Combat units spend the space's terrain cost to search it for lone enemy heroes.",
        "search Muetar-A1",
    ),
    _units_command(
        "disband",
        move.disband,
        INACTIVE_KINGDOMS,
        "Voluntarily eliminate combat units (to avoid a diplomatic penalty).",
        "disband Muetar-A4",
    ),
    _spec(
        "prisoner-execute",
        heroes.execute,
        CAPTURE_OF_A_MONARCH,
        "Execute the captive monarch (no points; a permanent diplomatic penalty with his "
        "kingdom): on capture, or in a later Diplomacy Phase of yours.",
        ("prisoner execute Neuth",),
        _kingdom("The captive monarch's kingdom."),
        rolls=True,
        answers=(heroes.CAPTIVE,),
    ),
    _spec(
        "prisoner-free",
        heroes.free,
        CAPTURE_OF_A_MONARCH,
        "Set the captive monarch free (you keep the capture's points).",
        ("prisoner free Neuth",),
        _kingdom("The captive monarch's kingdom."),
        rolls=True,
        answers=(heroes.CAPTIVE,),
    ),
    _spec(
        "castaway-stay",
        heroes.castaway_decision,
        SHIPWRECKED_HEROES,
        "The castaway stays on the neutral shore: you incur the diplomatic penalty.",
        ("castaway stay",),
        rolls=True,
        answers=(heroes.STRANDED,),
    ),
    _spec(
        "castaway-eliminate",
        heroes.castaway_decision,
        SHIPWRECKED_HEROES,
        "The castaway is eliminated voluntarily (a non-player monarch: Confusion).",
        ("castaway eliminate",),
        rolls=True,
        answers=(heroes.STRANDED,),
    ),
    _spec(
        "siege-attack",
        siege.attack,
        RESOLVING_A_SIEGE,
        "Point out every castle attacked this Siege Phase; each gets its Siege Roll (1 "
        "fails, 6 or more plunders).",
        ("siege attack Tadafat --roll 5",),
        Arg(
            "castles",
            UNITS,
            "The castles attacked.",
            required=True,
            positional=True,
            metavar="CASTLE...",
        ),
        rolls=True,
    ),
    _spec(
        "siege-displace",
        siege.displace,
        BESIEGER_DISPLACEMENT,
        "Displace besieging units (by id, or all of them by their space) to an adjacent "
        "space: before the siege attacks, or when asked (an invalid siege, units pushed "
        "aside).",
        (
            "siege displace Muetar-A5 --to 9,14",
            "siege displace Tadafat --to 11,14 --lose Muetar-A4",
        ),
        _units("The besieging units, by id, or their space.", metavar="STACK..."),
        Arg("to", HEX, "The adjacent space.", metavar="HEX"),
        Arg("lose", UNITS, "Units lost fighting out of encirclement.", metavar="UNIT"),
        rolls=True,
        answers=(siege_declare.DISPLACE, siege_declare.MAKE_WAY),
    ),
    _spec(
        "siege-keep",
        siege.keep,
        ONGOING_SIEGES,
        "Keep your siege of the kingdom's castle: its deactivation, forced peace or "
        "Confusion does not happen.",
        ("siege keep Immer --as carol",),
        _kingdom(),
        rolls=True,
        answers=(VETO,),
    ),
    _spec(
        "siege-lift",
        siege.lift,
        ONGOING_SIEGES,
        "Give up your sieges of the kingdom's castles: the besiegers are displaced.",
        ("siege lift Immer --to 15,9 --as carol",),
        _kingdom(),
        Arg("to", HEXES, "A space next to each castle.", metavar="HEX"),
        rolls=True,
        answers=(VETO,),
    ),
    _spec(
        "breakout",
        siege.breakout,
        BREAKOUTS,
        "Siege Phase: your units inside a besieged castle attack all its besiegers; win or "
        "lose, they may then leave.",
        ("breakout Tadafat --roll 5 --roll 3",),
        Arg(
            "castle", TEXT, "The besieged castle.", required=True, positional=True, metavar="CASTLE"
        ),
        rolls=True,
    ),
    _spec(
        "attack-declare",
        declare.declare_attacks,
        MAKING_ATTACKS,
        "Declare all of this phase's attacks, each ATTACKERS>SPACES: attacking units by id "
        "or by space, then the defending spaces; `fleet:` for fleets against fleets, "
        "`amphibious:` for fleets (and the units aboard) against a port.",
        (
            'attack declare "Muetar-A1,21,12>22,12" "fleet:Mivior-F1,Mivior-F2>Colist"',
            'attack declare "amphibious:Rombune-F1,Rombune-F2>Thores"',
        ),
        Arg("attacks", ATTACKS, "The attacks.", required=True, positional=True),
    ),
    _spec(
        "attack-resolve",
        resolve.resolve,
        MAKING_ATTACKS,
        "Resolve declared attack NUMBER (in any order); the defender may first retreat.",
        ("attack resolve 2",),
        Arg(
            "number",
            integer(1),
            "The attack's number.",
            required=True,
            positional=True,
            metavar="NUMBER",
        ),
        Arg("retreated", FLAG, "Attack too the units that retreated next to yours."),
        rolls=True,
    ),
    _spec(
        "retreat-stand",
        retreat.retreat_stand,
        RETREAT_BEFORE_COMBAT,
        "No (further) retreat: the attack is fought (the combat dice are rolled now).",
        ("retreat stand --roll 3 --roll 5",),
        rolls=True,
        answers=(RETREAT,),
    ),
    _spec(
        "retreat-roll",
        retreat.retreat_roll,
        RETREAT_BEFORE_COMBAT,
        "Roll to retreat the land units (or fleets) of a defending space: humans go on "
        "4-6, non-humans on 3-6; the group with the least chance is tested first.",
        ("retreat roll 22,12 --group Neuth",),
        Arg("space", TEXT, "The defending space.", positional=True, metavar="SPACE"),
        FLEETS,
        GROUP,
        rolls=True,
        answers=(RETREAT,),
    ),
    _spec(
        "retreat-to",
        retreat.retreat_to,
        RETREAT_BEFORE_COMBAT,
        "The groups the roll let go (all, or those named) retreat to one adjacent space, "
        "with the heroes named.",
        ("retreat to 23,12 --group Neuth --hero Hothior-monarch",),
        Arg("to", HEX, "The adjacent space.", required=True, positional=True, metavar="TO"),
        Arg("space", TEXT, "The defending space they leave.", metavar="SPACE"),
        FLEETS,
        GROUP,
        Arg(
            "heroes",
            UNITS,
            "A hero riding away with them (`none` for none; default: all of them when no "
            "combat unit stays).",
            metavar="HERO",
            option="hero",
        ),
        rolls=True,
        answers=(RETREAT,),
    ),
    _spec(
        "losses",
        fight.take_losses,
        MAKING_ATTACKS,
        "Choose the units you lose (a battle, a breakout, a failed siege roll).",
        ("losses Muetar-A4 Muetar-A5",),
        _units("The units lost.", True),
        rolls=True,
        answers=(LOSSES,),
    ),
    _spec(
        "advance-none",
        resolve.advance_none,
        ADVANCE_AFTER_COMBAT,
        "Do not advance.",
        ("advance none",),
        answers=(ADVANCE,),
    ),
    _spec(
        "advance-into",
        resolve.advance_into,
        ADVANCE_AFTER_COMBAT,
        "Advance attacking units (all the survivors unless named) into the space; into an "
        "enemy castle space it declares a siege.",
        ("advance into Tadafat",),
        Arg("to", HEX, "The space.", required=True, positional=True, metavar="TO"),
        _units("The units advancing (default: all the survivors)."),
        Arg("inside", FLAG, "Within the walls of your own castle."),
        rolls=True,
        answers=(ADVANCE,),
    ),
    _declined(
        "sortie",
        resolve.sortie_none,
        AMPHIBIOUS_ATTACKS,
        "The fleets stay within the walls.",
        (SORTIE,),
    ),
    _spec(
        "sortie",
        resolve.sortie,
        AMPHIBIOUS_ATTACKS,
        "Bring your fleets (all unless named) out of the castle-port to defend against an "
        "amphibious attack; they stay outside after the battle.",
        ("sortie Rombune-F5", "sortie --none"),
        _units("The fleets coming out (default: all).", metavar="FLEETS..."),
        rolls=True,
        answers=(SORTIE,),
    ),
    _declined("pursue", retreat.pursue_none, RETREAT_BEFORE_COMBAT, "Leave them be.", (PURSUE,)),
    _spec(
        "pursue",
        retreat.pursue,
        RETREAT_BEFORE_COMBAT,
        "Attack too the units that retreated before combat but are still next to your "
        "attackers (all unless named); they retreat no more. The combat dice follow.",
        ("pursue --roll 4 --roll 2", "pursue --none"),
        _units("The units attacked (default: all)."),
        rolls=True,
        answers=(PURSUE,),
    ),
    _spec(
        "place",
        placement.place,
        ACTIVATION_OF_KINGDOMS,
        "Answer a placement the rules leave to you (which Troll regenerates, where the "
        "Trollish monarch, each of Zorn's goblins, an invaded kingdom's units or a freed "
        "captive go, where enemy fleets leave a port for): the units (left out when only "
        "the space is chosen) and the space, among the options `status` shows.",
        ('place Trolls-monarch --at "The Crag"', 'place --at "Snow Pass"'),
        _units("The units placed (left out when only the space is chosen)."),
        Arg("at", TEXT, "The space chosen (name or COL,ROW).", metavar="PLACE"),
        answers=PLACED,
    ),
)
"""Divine Right's commands, by engine name."""
