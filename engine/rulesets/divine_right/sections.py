"""Every rulebook section the Divine Right rules cite, once (`Section › Subsection`, as the
rulebook titles them): errors, events and the audit name the rule they apply by these."""

from __future__ import annotations

# Game Setup and the cards
GAME_SETUP = "Game Setup"
IDENTITY_CARDS = "The Cards › Identity Cards"
PERSONALITY_CARDS = "Personality Cards"
VICTORY = "Victory"

# Kingdoms
ACTIVATION_OF_KINGDOMS = "Kingdoms › Activation of Kingdoms"
DEACTIVATION_OF_KINGDOMS = "Kingdoms › Deactivation of Kingdoms"
ONGOING_SIEGES = "Kingdoms › Deactivation of Kingdoms (ONGOING SIEGES)"
CONFUSION = "Kingdoms › Confusion"
FORCED_PEACE = "Kingdoms › Forced Peace"
INACTIVE_KINGDOMS = "Inactive Kingdoms"
INVADED_INACTIVE = "Activation of Invaded Inactive Kingdoms"
FATE_OF_PLAYER_KINGDOMS = "Kingdoms › Fate of Player Kingdoms"

# The Game Turn
GAME_TURN = "The Game Turn"

# Random Events Phase
RANDOM_EVENTS_PHASE = "Random Events Phase"
BAD_OMENS = "Random Events Phase › Bad Omens"
REPLACEMENTS = "Random Events Phase › Replacements/Reinforcements"
MERCENARY_REINFORCEMENTS = "Random Events Phase › Deployment of Common Mercenary Reinforcements"

# Diplomacy Phase
DIPLOMACY_PHASE = "Diplomacy Phase"
DIPLOMACY_CARDS = "Diplomacy Phase › Diplomacy Cards"
RESOLVING_DIPLOMACY = "Diplomacy Phase › Resolving Diplomacy"
ACTIVATION_ATTEMPTS = "Diplomacy Phase › Activation Attempts"
DEACTIVATION_ATTEMPTS = "Diplomacy Phase › Deactivation Attempts"
ASSASSINATION_ATTEMPTS = "Diplomacy Phase › Assassination Attempts"
DUELING = "Diplomacy Phase › Dueling an Enemy Ambassador"
DEATH_OF_AN_AMBASSADOR = "Diplomacy Phase › Death of an Ambassador"
BANISHING = "Diplomacy Phase › Banishing Ambassadors"
FORCED_PEACE_ATTEMPTS = "Diplomacy Phase › Forced Peace Attempts"
PREVENTING_FORCED_PEACE = "Diplomacy Phase › Preventing a Forced Peace"

# Siege Phase
SIEGE_PHASE = "Siege Phase"
DECLARING_A_SIEGE = "Siege Phase › Declaring a Siege"
INSIDE_OUTSIDE = 'Siege Phase › "Inside" and "Outside" of Castles'
EFFECTS_OF_A_SIEGE = "Siege Phase › Effects of a Siege"
RESOLVING_A_SIEGE = "Siege Phase › Resolving a Siege (Siege Attack)"
SIEGE_ROLL = "Siege Phase › Modifying the Siege Roll"
ENDING_A_SIEGE = "Siege Phase › Ending a Siege"
BREAKOUTS = "Siege Phase › Breakouts"
BESIEGER_DISPLACEMENT = "Siege Phase › Besieger Displacement"
NEUTRAL_CASTLES = "Siege Phase › Besieging Neutral Castles"

# Movement Phase
MOVEMENT_PHASE = "Movement Phase"
STACKING = "Movement Phase › Stacking"
MOVEMENT_TERRAIN = "Movement Phase › Movement and Terrain"
TERRAIN_CHART = "Movement Phase › Terrain Effects Chart"
MOVING_INTO_CASTLES = "Movement Phase › Castles"
NAVIGABLE_RIVERS = "Movement Phase › Navigable Rivers"
MOVEMENT_RESTRICTIONS = "Movement Phase › Movement Restrictions"
ENEMY_UNITS = "Movement Phase › Enemy Units and Movement"
FLEET_MOVEMENT = "Movement Phase › Fleet Movement"
RIVER_FLEETS = "Movement Phase › Fleets and Navigable Rivers"
TRANSPORTING_TROOPS = "Movement Phase › Transporting Troops"
NON_CASTLE_PORTS = "Movement Phase › Non-Castle Ports"

# Combat Phase
COMBAT_PHASE = "Combat Phase"
MAKING_ATTACKS = "Combat Phase › Making Attacks"
COMBAT_ODDS = "Combat Phase › Modifying the Combat Roll (Odds)"
COMBAT_TIES = "Combat Phase › Ties"
WHICH_UNITS = "Combat Phase › Which Units May Attack?"
MIXED_TYPE_COMBAT = "Combat Phase › Mixed-Type Combat"
COMBAT_TERRAIN = "Combat Phase › Effects of Terrain on Combat"
RETREAT_BEFORE_COMBAT = "Combat Phase › Retreat Before Combat"
ADVANCE_AFTER_COMBAT = "Combat Phase › Advance After Combat"
AMPHIBIOUS_ATTACKS = "Combat Phase › Amphibious Attacks"
RELIEVING_FORCES = "Combat Phase › Relieving Forces at Sieges"

# Heroes
HERO_MOVEMENT = "Heroes › Hero Movement Bonus and Terrain Bonus"
FATE_ROLL = "Heroes › Hero Fate Roll"
SHIPWRECKED_HEROES = "Heroes › Shipwrecked Heroes"
CAPTURE_OF_A_MONARCH = "Heroes › Capture of a Monarch"

# Special Rules for Select Kingdoms
TROLLS_RULES = "Special Rules for Select Kingdoms › The Trolls"
HOTHIOR_RULES = "Special Rules for Select Kingdoms › Hothior"
ZORN_RULES = "Special Rules for Select Kingdoms › Zorn"

# Basic Game Optional Rules
REENTRY = "Basic Game Optional Rules › Re-entry of Eliminated Players"
