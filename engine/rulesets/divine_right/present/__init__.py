"""How Divine Right presents itself (`warscribe.engine.presenter`): `presenter.PRESENTER`,
named by the rule set and imported on first use, with its board (`board.py`: SVG in
`svg.py`, terminal text in `terminal.py`), its queries' text (`text.py`) and its story's
words (`story.py`)."""
