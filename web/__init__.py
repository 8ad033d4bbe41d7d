"""`warscribe serve`: the game in a browser, on a store (see docs/developing.md, "The game
in a browser"). Imported only by `serve`: no other command loads the web framework."""
