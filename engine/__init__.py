"""warscribe's pure game logic: rule sets, state, commands, events, dice and the chain.

Nothing here does I/O: the store persists what the engine decides, the CLI prints it.
"""
