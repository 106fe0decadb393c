"""The score keeper's words in the page's language: endings, refusals, history lines, CSV.

The core and the service refuse input with an English message (the JSON API and the CLI send
it as it is) and the same refusal as data: a ``code`` and its ``params``. The pages say it
through the catalogues from the code; an English page keeps the message word for word, and a
refusal without a code (or a code this module does not know) falls back to it. Names, tiles
(K R B O J) and numbers stay as they are in every language.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence

from flask_babel import gettext, ngettext
from flask_babel import lazy_gettext as _l

from companion.core.racks import Rack
from companion.core.scoring import Ending, GameResult
from companion.core.standings import signed
from companion.core.tiles import format_tiles
from companion.web.languages import DEFAULT_LANGUAGE, current_language


def ending_words() -> dict[Ending, str]:
    """As the sheet says it after the winner: "Ann won (went out)"."""
    return {Ending.WENT_OUT: gettext("went out"),
            Ending.POOL_EXHAUSTED: gettext("the pool ran out"),
            Ending.PAPER: gettext("copied from paper")}


def ending_titles() -> dict[Ending, str]:
    """As the game form's tabs offer it."""
    return {Ending.WENT_OUT: gettext("Someone went out"),
            Ending.POOL_EXHAUSTED: gettext("The pool ran out"),
            Ending.PAPER: gettext("Copy from paper")}


def names_in_words(names: Sequence[str]) -> str:
    if len(names) == 1:
        return names[0]
    return gettext("%(names)s and %(last)s", names=", ".join(names[:-1]), last=names[-1])


def rack_in_words(rack: Rack | None) -> str:
    if rack is None:
        return gettext("not given")
    if rack.tiles is not None:
        return format_tiles(rack.tiles) or gettext("nothing")
    if rack.jokers:
        return ngettext("%(points)s points and %(num)s joker", "%(points)s points and %(num)s jokers",
                        rack.jokers, points=rack.points)
    return gettext("%(points)s points", points=rack.points)


def _tie(p: Mapping[str, object]) -> str:
    tied = names_in_words(p["tied"])  # type: ignore[arg-type]
    if p.get("least") is None:
        text = gettext("%(names)s tie for the fewest tiles; the rules do not say who wins, so "
                       "the table names the winner.", names=tied)
    else:
        text = gettext("%(names)s tie for the lowest rack (%(least)s); the rules do not say who "
                       "wins, so the table names the winner.", names=tied, least=p["least"])
    tiles: Mapping[str, int | None] = p.get("tiles") or {}  # type: ignore[assignment]
    if p.get("fewest_tiles") and all(count is not None for count in tiles.values()):
        counts = ", ".join(f"{name} {count}" for name, count in tiles.items())
        text += " " + gettext("Fewest tiles would pick %(name)s (tiles: %(counts)s).",
                              name=p["fewest_tiles"], counts=counts)
    return text


def _cannot_win(p: Mapping[str, object]) -> str:
    names = names_in_words(p["candidates"])  # type: ignore[arg-type]
    if p.get("least") is None:
        return gettext("%(name)s cannot win: %(names)s hold the fewest tiles",
                       name=p["name"], names=names)
    return gettext("%(name)s cannot win: %(names)s hold the lowest rack (%(least)s)",
                   name=p["name"], names=names, least=p["least"])


def _plus_scores(p: Mapping[str, object], code: str) -> str:
    if code == "no_plus_score":
        text = gettext("nobody has a plus score: the winner scores the sum of the others' minus")
    else:
        text = gettext("%(names)s all have plus scores: only the game's winner scores plus",
                       names=names_in_words(p["winners"]))  # type: ignore[arg-type]
    if p.get("difference"):
        text += "; " + gettext("and the scores add up to %(total)s, not 0",
                               total=signed(p["difference"]))  # type: ignore[arg-type]
    return text


def _unbalanced(p: Mapping[str, object]) -> str:
    numbers = {key: signed(p[key]) for key in ("difference", "others", "expected", "given")}  # type: ignore[arg-type]
    return gettext("the scores do not balance: off by %(difference)s. The others score "
                   "%(others)s in all, so %(winner)s, the winner, should score %(expected)s, "
                   "not %(given)s", winner=p["winner"], **numbers)


def _rack_missing(p: Mapping[str, object]) -> str:
    if p.get("everyone"):
        return gettext("%(name)s's rack is missing: when the pool runs out, give every "
                       "player's rack", name=p["name"])
    return gettext("%(name)s's rack is missing: give every other player's rack", name=p["name"])


# Each code's sentence; ``p`` is the refusal's params.
SENTENCES: dict[str, Callable[[Mapping[str, object]], str]] = {
    "negative_total": lambda p: gettext("%(name)s's rack total cannot be negative (%(points)s)",
                                        name=p["name"], points=p["points"]),
    "negative_jokers": lambda p: gettext("%(name)s's number of jokers cannot be negative",
                                         name=p["name"]),
    "total_over_box": lambda p: gettext("%(name)s's rack total %(points)s is more than all the "
                                        "tiles in the box add up to (%(limit)s)", **p),
    "impossible_tiles": lambda p: gettext(
        "%(tile)s appears %(count)s times, but the box holds only %(allowed)s (held by "
        "%(names)s)", tile=p["tile"], count=p["count"], allowed=p["allowed"],
        names=names_in_words(p["holders"])),  # type: ignore[arg-type]
    "too_many_jokers": lambda p: gettext("the racks hold %(jokers)s jokers, but this game has "
                                         "only %(box)s", **p),
    "racks_over_box": lambda p: gettext("the racks add up to %(total)s points, more than all "
                                        "the tiles in the box (%(most)s)", **p),
    "not_a_player": lambda p: gettext("“%(name)s” is not a player in this session (players: "
                                      "%(players)s)", name=p["name"],
                                      players=", ".join(p["players"])),  # type: ignore[arg-type]
    "rack_twice": lambda p: gettext("%(name)s's rack is given twice", name=p["name"]),
    "rack_missing": _rack_missing,
    "rack_empty": lambda p: gettext("%(name)s's rack is empty, but only the player who went "
                                    "out holds nothing", name=p["name"]),
    "winner_rack_not_empty": lambda p: gettext(
        "%(name)s went out, so %(name)s's rack must be empty, not %(rack)s", name=p["name"],
        rack=rack_in_words(p["rack"])),  # type: ignore[arg-type]
    "fewest_needs_tiles": lambda p: gettext("the fewest-tiles rule needs every rack as tiles, "
                                            "or the winner named"),
    "cannot_win": _cannot_win,
    "tie": _tie,
    "score_twice": lambda p: gettext("%(name)s's score is given twice", name=p["name"]),
    "score_missing": lambda p: gettext("%(name)s's score is missing: give every player's score",
                                       name=p["name"]),
    "no_plus_score": lambda p: _plus_scores(p, "no_plus_score"),
    "several_plus": lambda p: _plus_scores(p, "several_plus"),
    "not_the_winner": lambda p: gettext("%(name)s is named the winner, but %(winner)s has the "
                                        "plus score", **p),
    "unbalanced": _unbalanced,
    "name_too_long": lambda p: gettext("player %(position)s: a name has at most %(most)s "
                                       "characters", **p),
    "name_control": lambda p: gettext("player %(position)s: the name holds a control character",
                                      **p),
    "name_twice": lambda p: gettext("player %(position)s: %(name)s is already playing: names "
                                    "must differ", **p),
    "player_count": lambda p: gettext("a session has %(least)s to %(most)s players, not "
                                      "%(count)s", **p),
    "rounds_range": lambda p: gettext("the number of rounds must be 1 to %(most)s, not "
                                      "%(rounds)s", **p),
    "no_winner": lambda p: gettext("say who went out (the winner)"),
    "zero_needs_winner": lambda p: gettext("every score is 0: say who won the game (the winner "
                                           "of a game tied on equal racks scores +0)"),
    "score_over_box": lambda p: gettext("%(name)s's score %(points)s is more than one game can "
                                        "produce under these rules: every tile in the box is "
                                        "worth %(most)s", name=p["name"],
                                        points=signed(p["points"]), most=p["most"]),  # type: ignore[arg-type]
    # The session's state (companion.web.scores.service.SessionStateError).
    "taken": lambda p: gettext("game %(number)s was recorded from another phone at the same "
                               "moment: reload the sheet and check it", **p),
    "complete": lambda p: gettext("the session is complete: all %(planned)s games are recorded",
                                  **p),
    "already_recorded": lambda p: (
        gettext("game %(expected)s was already recorded from another phone (%(winner)s won): "
                "the next game is %(number)s; check the sheet before recording it", **p)
        if p.get("winner") else
        gettext("game %(expected)s was already recorded from another phone: the next game is "
                "%(number)s; check the sheet before recording it", expected=p["expected"],
                number=p["number"])),
    "not_yet": lambda p: gettext("game %(expected)s cannot be recorded yet: the next game is "
                                 "%(number)s (a game was undone from another phone); reload "
                                 "the sheet", **p),
    "round_taken": lambda p: gettext("round %(expected)s cannot be added: the session has "
                                     "%(rounds)s rounds now (one was added from another phone, "
                                     "or by a second tap); check the sheet", **p),
    "undo_not_last": lambda p: gettext("only the last game (game %(highest)s) can be undone; "
                                       "edit game %(number)s instead", **p),
    "nothing_to_redo": lambda p: gettext("there is nothing to redo: a redo is offered only "
                                         "right after an undo, until the next change"),
    "redo_refused": lambda p: gettext("game %(number)s cannot be put back: what the history "
                                      "keeps of it is not a game these rules can score", **p),
    "since_undone": lambda p: gettext("this form recorded game %(number)s, but that game was "
                                      "undone since: nothing is stored for it now", **p),
    "finished_early": lambda p: gettext("the session was finished early: tap “Continue the "
                                        "session” on the sheet to record more games"),
    "already_finished": lambda p: gettext("the session is already finished"),
    "nothing_to_finish": lambda p: gettext("no game is recorded yet: there is nothing to "
                                           "finish (delete the session instead)"),
    "not_finished_early": lambda p: gettext("the session was not finished early: there is "
                                            "nothing to continue"),
    "redo_blocked": lambda p: gettext("game %(number)s cannot be put back: the next game is "
                                      "%(next)s", **p),
}


def refusal(error: Exception) -> str:
    """The refusal said in the page's language (the English message on an English page), as
    a sentence: its first letter upper-case, unless it begins with a name as typed. The API
    keeps the core's own words."""
    said = _refusal_words(error)
    name = str(getattr(error, "params", {}).get("name") or getattr(error, "player", "") or "")
    if name and said.startswith(name):
        return said
    return said[:1].upper() + said[1:]


def _refusal_words(error: Exception) -> str:
    code = getattr(error, "code", None)
    if current_language() == DEFAULT_LANGUAGE or code not in SENTENCES:
        return str(error)
    try:
        return SENTENCES[code](getattr(error, "params", {}))
    except (KeyError, TypeError, ValueError):
        return str(error)


def recorded_line(game: Mapping[str, object]) -> str:
    """A stored game as the 409 page names it: "game 3: Ann won (Ann +12, Bob −12)."."""
    scores = ", ".join(f"{name} {signed(points)}"
                       for name, points in game["scores"].items())  # type: ignore[attr-defined]
    return gettext("game %(number)s: %(winner)s won (%(scores)s).", number=game["number"],
                   winner=game["winner"], scores=scores)


def describe_change(number: int, action: str, before: GameResult | None,
                    after: GameResult | None) -> str:
    """One line of the session's history, as ``service.describe_change`` says it in English."""
    words = ending_words()

    def line(result: GameResult) -> str:
        scores = ", ".join(f"{n} {signed(s)}" for n, s in zip(result.players, result.scores,
                                                               strict=True))
        return gettext("%(winner)s won (%(ending)s): %(scores)s", winner=result.winner,
                       ending=words[result.ending], scores=scores)

    if before is None and after is not None:
        if action == "redone":
            return gettext("Game %(number)s put back (redo): %(line)s", number=number,
                           line=line(after))
        return gettext("Game %(number)s recorded: %(line)s", number=number, line=line(after))
    if after is None and before is not None:
        return gettext("Game %(number)s undone (was: %(line)s)", number=number, line=line(before))
    assert before is not None and after is not None
    changed = [f"{name} {signed(old)} → {signed(new)}" for name, old, new
               in zip(after.players, before.scores, after.scores, strict=True) if old != new]
    if before.winner != after.winner:
        changed.insert(0, gettext("winner %(before)s → %(after)s", before=before.winner,
                                  after=after.winner))
    if before.ending != after.ending:
        changed.insert(0, f"{words[before.ending]} → {words[after.ending]}")
    for name, old_rack, new_rack in zip(after.players, before.racks, after.racks, strict=True):
        if old_rack != new_rack:
            changed.append(gettext("%(name)s's rack %(before)s → %(after)s", name=name,
                                   before=rack_in_words(old_rack),
                                   after=rack_in_words(new_rack)))
    return gettext("Game %(number)s edited: %(changes)s", number=number,
                   changes="; ".join(changed) or gettext("nothing changed"))


# The score sheet's CSV: the header row and the labels of its summary rows.
CSV_WORDS = {
    "round": _l("round"), "game": _l("game"),
    "ending": _l("ending"), "winner": _l("winner"),
    "balanced": _l("balanced"), "round total": _l("round total"),
    "total": _l("total"), "games won": _l("games won"),
    "place": _l("place"), "True": _l("yes"), "False": _l("no"),
}


def csv_word(english: str) -> str:
    """A CSV header or label in the page's language; English keeps today's words (and the
    ``True``/``False`` a spreadsheet reads), so a script reading the English CSV still works."""
    if current_language() == DEFAULT_LANGUAGE or english not in CSV_WORDS:
        return english
    return str(CSV_WORDS[english])
