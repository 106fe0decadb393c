"""Pages of the scores feature: sessions, recording games, the score sheet, print and CSV.

Who may write: the browser that created a session keeps its edit key in the Flask session;
the "share to edit" link (``/scores/<session_id>/join?key=...``) hands it to another phone.
The read-only link shows the sheet without any edit buttons.
"""

from __future__ import annotations

from typing import Any

from flask import (
    Blueprint,
    Response,
    abort,
    flash,
    redirect,
    render_template,
    request,
    url_for,
)
from flask import (
    session as browser,
)
from werkzeug.wrappers import Response as BaseResponse

from companion.core.scoring import Ending, ScoringError, TiedLowestRackError, round_of
from companion.web.models import Game, ScoreSession, db
from companion.web.scores import service
from companion.web.scores.forms import ConfirmForm, GameForm, NewSessionForm
from companion.web.scores.service import ENDING_WORDS, GameInput, SessionStateError

bp = Blueprint("scores", __name__, url_prefix="/scores")

ENDING_TITLES = {Ending.WENT_OUT: "Someone went out", Ending.POOL_EXHAUSTED: "The pool ran out",
                 Ending.PAPER: "Copy from paper"}


# The edit key in the browser -------------------------------------------------------------

def browser_key(session_id: int) -> str | None:
    keys = browser.get("edit_keys", {})
    return keys.get(str(session_id)) if isinstance(keys, dict) else None


def remember_key(session_id: int, key: str) -> None:
    keys = dict(browser.get("edit_keys", {}))
    keys[str(session_id)] = key
    browser["edit_keys"] = keys


def can_edit(score_session: ScoreSession) -> bool:
    return service.key_opens(score_session, browser_key(score_session.id))


def load(session_id: int) -> ScoreSession:
    return db.get_or_404(ScoreSession, session_id,
                         description=f"There is no score session {session_id}.")


def load_for_writing(session_id: int) -> ScoreSession:
    score_session = load(session_id)
    if not can_edit(score_session):
        abort(403, description="This phone cannot change this session: open the "
                               "“share to edit” link from the phone that started it.")
    return score_session


# Sessions --------------------------------------------------------------------------------

@bp.get("/")
def session_list() -> str:
    sessions = service.all_sessions()
    return render_template("scores/list.html", sessions=sessions,
                           editable={s.id for s in sessions if can_edit(s)})


@bp.route("/new", methods=["GET", "POST"])
def new_session() -> BaseResponse | tuple[str, int] | str:
    form = NewSessionForm()
    if form.validate_on_submit():
        try:
            score_session, key = service.create_session(
                [field.data or "" for field in form.player_fields()], form.rounds.data,
                form.preset.data, form.overrides())
        except ScoringError as error:
            db.session.rollback()
            target = {"rounds": form.rounds, "preset": form.preset}.get(error.field or "")
            if target is None and error.field and error.field.startswith("player "):
                target = form.player_fields()[int(error.field.split()[1]) - 1]
            if target is None:
                target = getattr(form, error.field or "", None) or form.player_1
            target.errors = [*target.errors, str(error)]
        else:
            remember_key(score_session.id, key)
            flash("Session started. Record the first game when it ends.", "success")
            return redirect(url_for(".score_sheet", session_id=score_session.id))
    status = 422 if request.method == "POST" else 200
    return render_template("scores/new.html", form=form), status


@bp.get("/<int:session_id>/join")
def join_session(session_id: int) -> BaseResponse:
    score_session = load(session_id)
    key = request.args.get("key", "")
    if not service.key_opens(score_session, key):
        abort(403, description="This edit link is not right for this session: ask for it again.")
    remember_key(session_id, key)
    flash("This phone can now record games in this session.", "success")
    return redirect(url_for(".score_sheet", session_id=session_id))


@bp.route("/<int:session_id>/delete", methods=["GET", "POST"])
def delete_session(session_id: int) -> BaseResponse | str:
    score_session = load_for_writing(session_id)
    form = ConfirmForm()
    if form.validate_on_submit():
        names = ", ".join(score_session.player_names)
        service.delete_session(score_session)
        flash(f"Session of {names} deleted.", "success")
        return redirect(url_for(".session_list"))
    return render_template("scores/delete.html", score_session=score_session, form=form)


# The sheet -------------------------------------------------------------------------------

def render_sheet(score_session: ScoreSession, *, editable: bool, template: str) -> str:
    key = browser_key(score_session.id) if editable else None
    share = (url_for(".join_session", session_id=score_session.id, key=key, _external=True)
             if key else None)
    return render_template(template, score_session=score_session, can_edit=editable,
                           sheet=service.sheet_of(score_session), share_link=share,
                           view_link=url_for(".view_sheet", session_id=score_session.id,
                                             _external=True),
                           ending_words=ENDING_WORDS, form=ConfirmForm())


@bp.get("/<int:session_id>")
def score_sheet(session_id: int) -> str:
    score_session = load(session_id)
    return render_sheet(score_session, editable=can_edit(score_session),
                        template="scores/sheet.html")


@bp.get("/<int:session_id>/view")
def view_sheet(session_id: int) -> str:
    """The read-only standings for other phones: no edit buttons, refreshes itself."""
    return render_sheet(load(session_id), editable=False, template="scores/view.html")


@bp.get("/<int:session_id>/sheet.csv")
def sheet_csv(session_id: int) -> Response:
    score_session = load(session_id)
    return Response(service.sheet_csv(score_session), mimetype="text/csv",
                    headers={"Content-Disposition":
                             f"attachment; filename=rummikub-session-{session_id}.csv"})


@bp.get("/<int:session_id>/history")
def history(session_id: int) -> str:
    score_session = load(session_id)
    return render_template("scores/history.html", score_session=score_session,
                           changes=list(reversed(score_session.changes)))


# Games -----------------------------------------------------------------------------------

def game_input(form: GameForm, players: tuple[str, ...]) -> GameInput:
    ending = Ending(form.ending.data)
    winner = request.form.get("tie_break") or form.winner.data or None
    if ending is Ending.PAPER:
        return GameInput(ending, winner, scores={name: line.form.score_value or 0
                                                 for name, line in zip(players, form.lines)})
    racks = {name: line.form.to_rack() for name, line in zip(players, form.lines)}
    return GameInput(ending, winner, racks=racks)


def show_refusal(form: GameForm, players: tuple[str, ...], error: ScoringError) -> None:
    """Put the core's refusal next to the field it is about; the rest at the top."""
    if error.player in players and error.field != "winner":
        line = form.lines[players.index(error.player)]
        target = line.score if form.ending.data == Ending.PAPER.value else line.rack
        target.errors = [*target.errors, str(error)]
    elif isinstance(error, TiedLowestRackError):
        return
    elif error.field == "winner":
        form.winner.errors = [*form.winner.errors, str(error)]
    else:
        form.form_errors.append(str(error))


def game_page(score_session: ScoreSession, form: GameForm, number: int, *, editing: bool,
              tie: TiedLowestRackError | None = None) -> str:
    return render_template("scores/game.html", score_session=score_session, form=form,
                           number=number, round=round_of(number, len(score_session.players)),
                           editing=editing, ending=Ending(form.ending.data),
                           endings=ENDING_TITLES, tie=tie,
                           bonus_jokers=score_session.rules.has_bonus_jokers)


def posted_game_form(score_session: ScoreSession) -> GameForm:
    """The game form over what was posted, with a line for every seat even if one was left out
    (a missing ``lines-0-...`` would otherwise shift every later player's line up a seat)."""
    if request.method != "POST":
        return GameForm()
    formdata = request.form.copy()
    for seat in range(len(score_session.players)):
        formdata.setdefault(f"lines-{seat}-rack", "")
    return GameForm(formdata=formdata)


def save_game(score_session: ScoreSession, form: GameForm, game: Game | None,
              number: int) -> BaseResponse | tuple[str, int] | str:
    players = score_session.player_names
    form.set_players(players)
    if request.method == "POST" and form.validate():
        try:
            entry = game_input(form, players)
            if game is None:
                saved = service.record_game(score_session, entry)
            else:
                saved = service.edit_game(score_session, game, entry)
        except TiedLowestRackError as error:
            db.session.rollback()
            show_refusal(form, players, error)
            return game_page(score_session, form, number, editing=game is not None,
                             tie=error), 422
        except ScoringError as error:
            db.session.rollback()
            show_refusal(form, players, error)
        except SessionStateError as error:
            db.session.rollback()
            flash(str(error), "error")
            return redirect(url_for(".score_sheet", session_id=score_session.id))
        else:
            verb = "saved" if game is not None else "recorded"
            flash(f"Game {saved.number} {verb}: {saved.winner.name} won.", "success")
            return redirect(url_for(".score_sheet", session_id=score_session.id))
    status = 422 if request.method == "POST" else 200
    return game_page(score_session, form, number, editing=game is not None), status


@bp.route("/<int:session_id>/games/new", methods=["GET", "POST"])
def record_game(session_id: int) -> BaseResponse | tuple[str, int] | str:
    score_session = load_for_writing(session_id)
    sheet = service.sheet_of(score_session)
    if sheet.next_game is None:
        flash(f"The session is complete: all {sheet.games_planned} games are recorded.", "error")
        return redirect(url_for(".score_sheet", session_id=session_id))
    form = posted_game_form(score_session)
    if request.method == "GET":
        wanted = request.args.get("ending", Ending.WENT_OUT.value)
        form.ending.data = wanted if wanted in {e.value for e in Ending} else "out"
    return save_game(score_session, form, None, sheet.next_game[0])


@bp.route("/<int:session_id>/games/<int:game_number>/edit", methods=["GET", "POST"])
def edit_game(session_id: int, game_number: int) -> BaseResponse | tuple[str, int] | str:
    score_session = load_for_writing(session_id)
    game = service.find_game(score_session, game_number)
    if game is None:
        abort(404, description=f"This session has no game {game_number}.")
    if request.method == "GET":
        form = GameForm(data=stored_form_data(score_session, game, request.args.get("ending")))
    else:
        form = posted_game_form(score_session)
    return save_game(score_session, form, game, game_number)


def stored_form_data(score_session: ScoreSession, game: Game,
                     ending: str | None) -> dict[str, Any]:
    """The stored game as the form shows it, so an edit starts from what was recorded."""
    result = game.to_result(score_session.player_names)
    lines = []
    for rack, points in zip(result.racks, result.scores, strict=True):
        line: dict[str, Any] = {"score": f"{points:+d}" if points else "0"}
        if rack is not None and rack.tiles is not None:
            line["rack"] = service.rack_json(rack)
        elif rack is not None:
            line |= {"total": rack.points, "jokers": rack.jokers or None}
        lines.append(line)
    chosen = ending if ending in {e.value for e in Ending} else result.ending.value
    return {"ending": chosen, "winner": result.winner, "lines": lines}


@bp.post("/<int:session_id>/games/<int:game_number>/undo")
def undo_game(session_id: int, game_number: int) -> BaseResponse:
    score_session = load_for_writing(session_id)
    if not ConfirmForm().validate_on_submit():
        abort(400, description="The undo button expired: reload the page and try again.")
    game = service.find_game(score_session, game_number)
    if game is None:
        abort(404, description=f"This session has no game {game_number}.")
    try:
        service.delete_last_game(score_session, game)
    except SessionStateError as error:
        flash(str(error), "error")
    else:
        flash(f"Game {game_number} undone.", "success")
    return redirect(url_for(".score_sheet", session_id=session_id))


# Rematch, more rounds, the running-total chart ----------------------------------------------

@bp.post("/<int:session_id>/rematch")
def rematch(session_id: int) -> BaseResponse:
    score_session = load_for_writing(session_id)
    if not ConfirmForm().validate_on_submit():
        abort(400, description="The rematch button expired: reload the page and try again.")
    new_session, key = service.rematch(score_session)
    remember_key(new_session.id, key)
    flash("Rematch: a new session with the same players and rules.", "success")
    return redirect(url_for(".score_sheet", session_id=new_session.id))


@bp.post("/<int:session_id>/add-round")
def add_round(session_id: int) -> BaseResponse:
    score_session = load_for_writing(session_id)
    if not ConfirmForm().validate_on_submit():
        abort(400, description="The button expired: reload the page and try again.")
    try:
        service.add_round(score_session)
    except ScoringError as error:
        db.session.rollback()
        flash(str(error), "error")
    else:
        flash(f"Round {score_session.rounds} added.", "success")
    return redirect(url_for(".score_sheet", session_id=session_id))


@bp.get("/<int:session_id>/chart.svg")
def running_totals_chart(session_id: int) -> Response:
    """Each player's running total across the games, drawn by the server (no script)."""
    # Imported here so that this route, added for groups, stays one self-contained block.
    from companion.core.stats import running_totals
    from companion.web.groups.charts import CHART_HEADERS
    from companion.web.groups.charts import running_totals_chart as draw

    score_session = load(session_id)
    players = score_session.player_names
    svg = draw(players, running_totals(players, score_session.results()))
    return Response(svg, mimetype="image/svg+xml", headers=CHART_HEADERS)
