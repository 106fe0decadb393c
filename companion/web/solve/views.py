"""The "What can I play?" page."""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence

from flask import Blueprint, render_template, request

from companion.core.presets import get_preset, with_tournament_rule
from companion.core.solver import Solution, arrange, best_play
from companion.core.tiles import ImpossibleTilesError, Tile, parse_rack, parse_table
from companion.web.solve.forms import SolveForm
from companion.web.tool_text import impossible_tiles_html

bp = Blueprint("solve", __name__)


def marked_sets(solution: Solution,
                old_tiles: Sequence[Tile]) -> list[list[tuple[Tile, bool]]]:
    """The new table's tiles, each marked True when it came from the rack."""
    on_table = Counter(old_tiles)
    seen: Counter[Tile] = Counter()
    marked = []
    for meld in solution.table:
        row = []
        for tile in meld:
            seen[tile] += 1
            row.append((tile, seen[tile] > on_table[tile]))
        marked.append(row)
    return marked


@bp.route("/solve", methods=["GET", "POST"])
def what_can_i_play() -> tuple[str, int]:
    """The answer is rendered in place (no redirect): it is an answer, nothing is stored."""
    submitted = request.method == "POST" or bool({"table", "rack"} & request.args.keys())
    if request.method == "POST":
        form = SolveForm()
        valid = form.validate()
    else:  # /solve?table=...&rack=... answers at once; nothing is written
        form = SolveForm(formdata=request.args or None)
        # a first visit is not checked: an empty form is not yet a mistake
        checked = [field.validate(form) for field in form
                   if submitted and field.name != "csrf_token"]
        valid = all(checked)  # every field checked first, so that every error shows
    solution, sets = None, None
    if submitted and valid:
        preset = with_tournament_rule(get_preset(form.preset.data),
                                      bool(form.tournament_joker_rule.data))
        table = parse_table(form.table.data or "")
        rack = parse_rack(form.rack.data or "")
        old_tiles = [tile for meld in table for tile in meld]
        try:
            if rack:
                solution = best_play(table, rack, preset=preset, opened=form.opened.data,
                                     goal=form.goal.data, any_table=bool(form.any_table.data))
            else:
                solution = arrange(old_tiles, preset=preset)
                old_tiles = list(old_tiles)
        except ImpossibleTilesError as error:
            (form.rack if rack else form.table).errors = [impossible_tiles_html(error)]
        if solution is not None:
            sets = marked_sets(solution, old_tiles)
    status = 422 if submitted and solution is None else 200
    return render_template("solve/solve.html", form=form, solution=solution, sets=sets,
                           bonus_jokers=form.preset.data == "twist"), status
