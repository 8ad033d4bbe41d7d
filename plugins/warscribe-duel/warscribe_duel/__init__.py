"""Duel, a toy game for warscribe: a separate distribution found by its entry point
(`duel = "warscribe_duel.rules:RULESET"` in the group `warscribe.rulesets`), with no edit to
warscribe. docs/developing.md walks through it."""
