"""The ``companion`` command: a thin shell over the core (and the photo reader).

Exit codes: 0 all legal, 1 something illegal, 2 bad input (message on stderr).
Each feature adds its subcommand here; heavy imports (cv2) stay inside the command.
"""

from __future__ import annotations

import json
import math
import sys
from collections.abc import Callable, Sequence
from typing import TYPE_CHECKING, Any, NoReturn

import click

from companion import __version__
from companion.core.english import plural
from companion.core.presets import PRESETS, Preset, UnknownPresetError, get_preset
from companion.core.tiles import ImpossibleTilesError, NotationError, Tile

if TYPE_CHECKING:
    from flask import Flask

    from companion.vision.reading import ReadTile

EXIT_LEGAL, EXIT_ILLEGAL, EXIT_BAD_INPUT = 0, 1, 2
PRESET_OPTION = click.option(
    "--preset", default="pressman", show_default=True,
    type=click.Choice(list(PRESETS), case_sensitive=False), help="Rules to apply.")


class Seconds(click.FloatRange):
    """A number of seconds within bounds. ``nan`` is refused too: it compares false with both
    bounds, so ``FloatRange`` lets it through, and a deadline of ``nan`` is never reached."""

    name = "seconds"

    def convert(self, value: Any, param: click.Parameter | None,
                ctx: click.Context | None) -> Any:
        seconds = super().convert(value, param, ctx)
        if math.isnan(seconds):
            self.fail(f"{value!r} is not a number of seconds", param, ctx)
        return seconds


class BadInput(click.ClickException):
    """Bad input: the message on stderr and exit code 2, never a traceback."""

    exit_code = EXIT_BAD_INPUT


def read_argument(text: str) -> str:
    """``-`` means standard input."""
    return sys.stdin.read() if text == "-" else text


def say_unsure(tiles: Sequence[tuple[str, ReadTile]]) -> None:
    """The unsure tiles, each named by its place: how sure the reader was of each, and the
    tiles a rule holds unsure under one line for each rule's reason (``ReadTile.doubt``). A
    photo read unsurely as a whole is said once."""
    from companion.vision.reading import PHOTO_READ_POORLY, WHOLE_PHOTO_DOUBTS

    if any(read.doubt == PHOTO_READ_POORLY for _, read in tiles):
        click.echo("Most tiles were read unsurely (a shaken phone?): check every tile against "
                   "the photo, or take it again.")
    by_reason: dict[str, list[str]] = {}
    for place, read in tiles:
        if not read.low_confidence:
            continue
        if read.doubt and read.doubt not in WHOLE_PHOTO_DOUBTS:
            by_reason.setdefault(read.unsure_words(), []).append(f"{place} read as {read.tile}")
        else:
            click.echo(f"Unsure: {place} read as {read.tile} ({read.unsure_words()}).")
    for reason, places in by_reason.items():
        click.echo(f"Unsure, {reason}: {'; '.join(places)}.")


def emit_json(data: Any) -> None:
    click.echo(json.dumps(data, ensure_ascii=False, indent=2))


def report_verdict(verdict: Any, *, as_json: bool, laid: Sequence[Sequence[Tile]],
                   preset: Preset, hint: Any = False) -> NoReturn:
    """Print a core verdict (JSON or its plain-text report) and exit 0 legal, 1 not.

    When a set of ``laid`` is illegal, the solver's answer follows: could these tiles be laid
    legally, and how (JSON ``arrangement``, null when every set is legal). ``hint``, when
    given, is that answer already worked out (a turn's: ``turn_hint``)."""
    from companion.core.solver import arrangement_hint, describe_arrangement

    if hint is False:
        hint = arrangement_hint(laid, preset=preset)
    if as_json:
        emit_json(verdict.to_json() | {"arrangement": hint.to_json() if hint else None})
    else:
        click.echo(verdict.describe())
        if hint:
            click.echo(describe_arrangement(hint))
    sys.exit(EXIT_LEGAL if verdict.legal else EXIT_ILLEGAL)


def read_photo_file(image: str, annotate_to: str | None, read: Callable[[bytes], Any],
                    draw: Callable[[bytes, Any], bytes]) -> Any:
    """Read IMAGE ('-' is stdin) with the photo reader, and write the annotated picture when
    asked: every failure is bad input (exit 2) with the file named, never a traceback."""
    from pathlib import Path

    from companion.vision import PhotoError

    try:
        data = sys.stdin.buffer.read() if image == "-" else Path(image).read_bytes()
    except OSError as error:
        raise BadInput(f"cannot read the image {image}: {error.strerror or error}") from error
    try:
        reading = read(data)
    except PhotoError as error:
        raise BadInput(f"{image}: {error}") from error
    if annotate_to:
        try:
            Path(annotate_to).write_bytes(draw(data, reading))
        except OSError as error:
            raise BadInput(f"cannot write the picture to {annotate_to}: "
                           f"{error.strerror or error}") from error
    return reading


@click.group(context_settings={"help_option_names": ["-h", "--help"]})
@click.version_option(version=__version__, prog_name="companion")
def main() -> None:
    """Companion: score keeper and table referee for Rummikub with real tiles."""


@main.command()
@PRESET_OPTION
@click.option("--json", "as_json", is_flag=True, help="Print the verdict as JSON.")
@click.argument("table")
def check(preset: str, as_json: bool, table: str) -> None:
    """Check the sets on the table: TABLE like "R5 R6 R7 | K9 B9 O9" ('-' reads stdin)."""
    from companion.core.melds import check_table
    from companion.core.tiles import parse_table

    try:
        sets = parse_table(read_argument(table))
        if not sets:
            raise BadInput("the table is empty: give at least one set, e.g. \"R5 R6 R7\"")
        verdict = check_table(sets, preset=get_preset(preset))
    except (NotationError, ImpossibleTilesError, UnknownPresetError) as error:
        raise BadInput(str(error)) from error
    report_verdict(verdict, as_json=as_json, laid=sets, preset=get_preset(preset))


@main.command()
@click.option("--before", "before_text", default="", metavar="TABLE",
              help='The table before the turn, e.g. "R5 R6 R7 | K9 B9 O9"; empty by default.')
@click.option("--after", "after_text", required=True, metavar="TABLE",
              help="The table after the turn.")
@click.option("--rack", "rack_text", default=None, metavar="TILES",
              help="The player's rack before the turn (optional): catches tiles it did not hold.")
@click.option("--opened", is_flag=True,
              help="The player had already made the initial meld.")
@PRESET_OPTION
@click.option("--over-time", is_flag=True,
              help="The player ran over the turn time (a draw, or a failed move).")
@click.option("--tournament-rule", is_flag=True,
              help="Sabra tournament rule: a joker taken from a group of three needs both "
                   "missing tiles.")
@click.option("--json", "as_json", is_flag=True, help="Print the verdict as JSON.")
def turn(before_text: str, after_text: str, rack_text: str | None, opened: bool, preset: str,
         over_time: bool, tournament_rule: bool, as_json: bool) -> None:
    """Referee one turn: exit 0 legal, 1 not, 2 bad input. One of the fields may be '-' (stdin)."""
    from companion.core.presets import with_tournament_rule
    from companion.core.referee import TurnInputError, referee_typed_turn
    from companion.core.solver import turn_hint
    from companion.core.tiles import parse_rack, parse_table

    fields = {"--before": before_text, "--after": after_text, "--rack": rack_text}
    from_stdin = [name for name, text in fields.items() if text == "-"]
    if len(from_stdin) > 1:
        raise BadInput(f"only one of {', '.join(from_stdin)} can read standard input ('-')")
    try:
        before, after = read_argument(before_text), read_argument(after_text)
        rack = None if rack_text is None else read_argument(rack_text)
        verdict = referee_typed_turn(
            before, after, opened=opened,
            preset=with_tournament_rule(get_preset(preset), tournament_rule),
            rack_text=rack, over_time=over_time)
    except (TurnInputError, UnknownPresetError) as error:
        raise BadInput(str(error)) from error
    # the hint is held to the same referee: only an arrangement this turn could have made
    hint = turn_hint(parse_table(before), [meld.tiles for meld in verdict.set_verdicts],
                     opened=opened, preset=verdict.preset,
                     rack=parse_rack(rack) if rack and rack.strip() else None)
    report_verdict(verdict, as_json=as_json,
                   laid=[meld.tiles for meld in verdict.set_verdicts], preset=verdict.preset,
                   hint=hint)


@main.command("read-photo")
@PRESET_OPTION
@click.option("--json", "as_json", is_flag=True, help="Print the reading as JSON.")
@click.option("--annotate", "annotate_to", metavar="OUT.png",
              help="Also write the photo with each set outlined and each tile labelled.")
@click.argument("image")
def read_photo(preset: str, as_json: bool, annotate_to: str | None, image: str) -> None:
    """Read the sets on the table from a photo: IMAGE is a JPEG, PNG, WebP, HEIC or AVIF
    ('-' reads stdin).

    Exit 0 when the table read is legal, 1 when it is not (or cannot be: a tile read three
    times), 2 when the photo cannot be read.
    """

    from companion.vision import annotate
    from companion.vision import read_photo as read_table_photo

    reading = read_photo_file(image, annotate_to, lambda data: read_table_photo(
        data, preset=get_preset(preset)), annotate)
    from companion.core.solver import arrangement_hint, describe_arrangement

    hint = (arrangement_hint(reading.table, preset=get_preset(preset))
            if reading.verdict is not None else None)
    if as_json:
        emit_json(reading.to_json() | {"arrangement": hint.to_json() if hint else None})
    else:
        click.echo(f"Read {len(reading.tiles)} tiles in {len(reading.sets)} sets "
                   f"from {image} ({reading.width}×{reading.height} pixels).")
        if reading.verdict is not None:
            click.echo(reading.verdict.describe())
            if hint:
                click.echo(describe_arrangement(hint))
        else:
            for number, meld in enumerate(reading.table, start=1):
                click.echo(f"Set {number}: {' '.join(str(tile) for tile in meld)}")
            click.echo(f"Table: NOT LEGAL: {reading.error}.")
        say_unsure([(f"set {set_number}, tile {tile_number}", reading.tiles[index])
                    for set_number, indexes in enumerate(reading.sets, start=1)
                    for tile_number, index in enumerate(indexes, start=1)])
    legal = reading.verdict is not None and reading.verdict.legal
    sys.exit(EXIT_LEGAL if legal else EXIT_ILLEGAL)


@main.command()
@click.option("--host", default="127.0.0.1", show_default=True,
              help="Address to listen on (0.0.0.0 for every network).")
@click.option("--port", default=5000, show_default=True, envvar="PORT",
              type=click.IntRange(1, 65535), help="Port to listen on (also $PORT).")
@click.option("--threads", default=16, show_default=True, type=click.IntRange(1, 512),
              help="Threads per worker process for the pages and the API (live streams and "
                   "requests still being sent hold none).")
@click.option("--workers", default=1, show_default=True, type=click.IntRange(1, 64),
              help="Worker processes (more than one needs $SECRET_KEY).")
def serve(host: str, port: int, threads: int, workers: int) -> None:
    """Migrate the database, then serve the app with Hypercorn (docs/hosting.md).

    The database is $DATABASE_URL (PostgreSQL), else the SQLite file in the instance folder.
    """
    from companion.web.server import CannotServe
    from companion.web.server import serve as run_server

    try:
        run_server(host=host, port=port, threads=threads, workers=workers)
    except CannotServe as error:
        raise BadInput(str(error)) from error


@main.command("read-rack")
@PRESET_OPTION
@click.option("--json", "as_json", is_flag=True, help="Print the reading as JSON.")
@click.option("--annotate", "annotate_to", metavar="OUT.png",
              help="Also write the photo with the rack's tiles labelled, the others greyed.")
@click.argument("image")
def read_rack(preset: str, as_json: bool, annotate_to: str | None, image: str) -> None:
    """Read the tiles on a rack and the rack's value: IMAGE is a JPEG, PNG, WebP, HEIC or AVIF
    ('-' reads stdin).

    Exit 0 when the rack was read, 2 when the photo cannot be read or shows no rack.
    """

    from companion.vision import annotate_rack
    from companion.vision import read_rack as read_rack_photo

    reading = read_photo_file(image, annotate_to, lambda data: read_rack_photo(
        data, preset=get_preset(preset)), annotate_rack)
    if as_json:
        emit_json(reading.to_json())
        return
    read, off, rows = len(reading.tiles), len(reading.ignored), reading.rows
    click.echo(f"Read {read} {plural('tile', read)} on the rack ({rows} {plural('row', rows)}) "
               f"from {image}; {off} {plural('tile', off)} off the rack left out.")
    click.echo(f"Rack: {' '.join(str(tile) for tile in reading.rack)}")
    jokers = f" ({reading.jokers} {plural('joker', reading.jokers)} at " \
             f"{reading.preset.joker_penalty})" if reading.jokers else ""
    click.echo(f"Value: {reading.value}{jokers}")
    if not reading.seen_whole:
        click.echo("Not sure the whole rack was read: check every tile against the photo, or "
                   "retake it from the front with the whole rack upright in the frame.")
    say_unsure([(f"tile {number}", read) for number, read in enumerate(reading.tiles, start=1)])


@main.command()
@click.option("--table", "table_text", default="", metavar="TABLE",
              help='The sets on the table, e.g. "R5 R6 R7 | K9 B9 O9" (\'-\' reads stdin).')
@click.option("--rack", "rack_text", default=None, metavar="TILES",
              help="Your rack. Without it: can the table's tiles be laid at all, and how?")
@click.option("--opened", is_flag=True, help="You have made the initial meld.")
@PRESET_OPTION
@click.option("--goal", default="tiles", show_default=True,
              type=click.Choice(["tiles", "value"], case_sensitive=False),
              help="Lay the most tiles, or the most value (a joker counts 30).")
@click.option("--time-limit", default=2.0, show_default=True, type=Seconds(0.01, 600),
              help="Seconds before the search answers with the best found so far.")
@click.option("--tournament-rule", is_flag=True,
              help="Sabra tournament rule: a joker taken from a group of three needs both "
                   "missing tiles.")
@click.option("--any-table", is_flag=True,
              help="Any legal table after the turn counts, even one the referee refuses "
                   "(a freed joker left in an old set); by default only plays `companion "
                   "turn` allows.")
@click.option("--json", "as_json", is_flag=True, help="Print the answer as JSON.")
def solve(table_text: str, rack_text: str | None, opened: bool, preset: str, goal: str,
          time_limit: float, tournament_rule: bool, any_table: bool, as_json: bool) -> None:
    """What can be laid: exit 0 possible, 1 not, 2 bad input.

    By default the play offered is one `companion turn` judges legal under the same rules."""
    from companion.core.presets import with_tournament_rule
    from companion.core.solver import arrange, best_play
    from companion.core.tiles import parse_rack, parse_table

    if table_text == "-" and rack_text == "-":
        raise BadInput("only one of --table, --rack can read standard input ('-')")
    rules = with_tournament_rule(get_preset(preset), tournament_rule)
    try:
        table = parse_table(read_argument(table_text))
        if rack_text is None:
            if not table:
                raise BadInput("give the tiles to arrange with --table, or your rack with --rack")
            solution = arrange([tile for meld in table for tile in meld], preset=rules,
                               time_limit=time_limit)
        else:
            rack = parse_rack(read_argument(rack_text))
            solution = best_play(table, rack, preset=rules, opened=opened, goal=goal.lower(),
                                 time_limit=time_limit, any_table=any_table)
    except (NotationError, ImpossibleTilesError) as error:
        raise BadInput(str(error)) from error
    if as_json:
        emit_json(solution.to_json())
    else:
        click.echo(solution.describe())
    sys.exit(EXIT_LEGAL if solution.possible else EXIT_ILLEGAL)


def database_app() -> Flask:
    """The app with its database ready (made or upgraded, as ``serve`` does first), for the
    commands that use it: a backup imported on a new machine needs no step before."""
    from companion.web import create_app
    from companion.web.server import CannotServe, prepare_database

    try:
        app = create_app()
        prepare_database(app)
    except (ValueError, CannotServe) as error:  # ValueError: a setting that cannot work
        raise BadInput(str(error)) from error
    return app


@main.command("export")
@click.option("--group", "group_id", default=None, metavar="ID",
              help="Only this group (its id from the group's link); everything by default.")
@click.argument("file", type=click.Path(dir_okay=False, writable=True, allow_dash=True))
def export_command(group_id: str | None, file: str) -> None:
    """Write every group and session (or one group) as JSON to FILE ('-' for stdout)."""
    from companion.web.groups import service, transfer

    with database_app().app_context():
        group = None
        if group_id is not None:
            group = service.find_group(group_id)
            if group is None:
                raise BadInput(f"there is no group {group_id}")
        data = json.dumps(transfer.export_data(group), ensure_ascii=False, indent=1)
    try:
        with click.open_file(file, "w", encoding="utf-8") as out:
            out.write(data + "\n")
    except OSError as error:
        raise BadInput(f"cannot write {file}: {error.strerror or error}") from error


@main.command("import")
@click.argument("file", type=click.Path(dir_okay=False, allow_dash=True))
def import_command(file: str) -> None:
    """Check a JSON export from FILE and import it whole; refused with the place named."""
    from companion.web.api import JsonTextError, parse_json_text
    from companion.web.extensions import db
    from companion.web.groups import transfer
    from companion.web.transactions import begin_write, end_write

    try:
        with click.open_file(file, "rb") as source:
            payload = parse_json_text(source.read())
    except (OSError, JsonTextError) as error:
        raise BadInput(f"{file}: not a readable JSON file ({error})") from error
    with database_app().app_context():
        begin_write()  # checked and stored under the write lock, as a running server writes
        try:
            groups, sessions = transfer.import_data(payload)
        except transfer.ImportRefused as error:
            db.session.rollback()
            raise BadInput(f"nothing imported: {error}") from error
        finally:
            end_write()
    click.echo(f"Imported {groups} {plural('group', groups)} and "
               f"{sessions} {plural('session', sessions)}.")
