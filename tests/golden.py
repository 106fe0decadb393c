"""The golden score table of RULES.md (seeds 000 and 003): four players, one round of four games.

Every way into the score keeper (core, pages, API, PostgreSQL) is tested against these numbers.
"""

PLAYERS = ("A", "B", "C", "D")
GOLDEN = [{"A": 24, "B": -5, "C": -16, "D": -3}, {"A": -6, "B": -11, "C": 22, "D": -5},
          {"A": -32, "B": -13, "C": -2, "D": 47}, {"A": -10, "B": -25, "C": 41, "D": -6}]
GOLDEN_ROWS = [tuple(game[name] for name in PLAYERS) for game in GOLDEN]
"""The same games as rows of the score sheet, players in seating order."""
GOLDEN_AS_PLAYED = [
    {"ending": "out", "winner": "A", "racks": {"B": 5, "C": 16, "D": "K1 R2"}},
    {"ending": "paper", "scores": GOLDEN[1]},
    {"ending": "out", "winner": "D", "racks": {"A": "J K2", "B": "B13", "C": 2, "D": ""}},
    {"ending": "out", "winner": "C", "racks": {"A": 10, "B": "O12 O13", "C": 0, "D": 6}},
]
"""The golden games as the API records them, one game of each kind of rack (tiles, totals)."""
GOLDEN_STANDINGS = [
    {"name": "C", "games_won": 2, "score": 45, "place": 1},
    {"name": "D", "games_won": 1, "score": 33, "place": 2},
    {"name": "A", "games_won": 1, "score": -24, "place": 3},
    {"name": "B", "games_won": 0, "score": -54, "place": 4}]
