"""Pages of the scores feature: sessions, recording games, the score sheet, print and CSV.

A session's pages live under its public id (``/scores/<public id>``), a random token. Who may
write: a browser that created a session, or opened its "share to edit" link, has a row in
``score_access`` under the hash of its device token; the token is one long-lived HttpOnly,
SameSite=Lax cookie, so it stays the same size whatever the number of sessions. The share
link (``/scores/<public id>/join?key=...``) sets that right and redirects at once to the sheet,
so the key does not stay in the address bar or the browser's history. The read-only link
shows the sheet without any edit buttons. ``/scores/`` lists only this browser's sessions.
"""

from __future__ import annotations

from typing import Any

from flask import (
    Blueprint,
    Response,
    abort,
    flash,
    g,
    redirect,
    render_template,
    request,
    url_for,
)
from flask import session as browser
from flask_babel import gettext
from flask_wtf.csrf import generate_csrf
from markupsafe import Markup
from werkzeug.wrappers import Response as BaseResponse

from companion.core.scoring import (
    MAX_PLAYERS,
    Ending,
    ScoringError,
    TiedLowestRackError,
    round_of,
)
from companion.web.languages import current_language
from companion.web.models import Game, ScoreSession, db
from companion.web.photos.keeping import samples_on
from companion.web.scores import service
from companion.web.scores.device import device_hash, device_hash_to_grant, set_device_cookie
from companion.web.scores.forms import ConfirmForm, GameForm, NewSessionForm
from companion.web.scores.service import (
    GameInput,
    Idempotency,
    IdempotencyKeyReused,
    SessionStateError,
    WriteAnswer,
)
from companion.web.scores.sheets import SheetView, host_cache_key, sheet_view
from companion.web.scores.words import (
    csv_word,
    describe_change,
    ending_titles,
    ending_words,
    recorded_line,
    refusal,
)
from companion.web.transactions import end_write

bp = Blueprint("scores", __name__, url_prefix="/scores")

bp.after_app_request(set_device_cookie)
bp.teardown_app_request(end_write)


# This browser --------------------------------------------------------------------------------

@bp.before_request
def adopt_old_edit_keys() -> None:
    """A browser from before device cookies keeps its edit rights, and its Flask session
    cookie loses the readable keys."""
    if "edit_keys" in browser:
        service.adopt_old_edit_keys(browser.pop("edit_keys"), device_hash_to_grant())


def can_edit(score_session: ScoreSession | SheetView) -> bool:
    return service.has_access(score_session, device_hash())


def check_editable(score_session: ScoreSession) -> None:
    """A 403 naming the link that would open the session, unless this phone may change it."""
    if not can_edit(score_session):
        g.error_back = sheet_url(score_session)  # the Forbidden page links back to the sheet
        abort(403, description=gettext("This phone cannot change this session: open the "
                                       "“share to edit” link from a phone that can."))


def load(session_id: str, *, history: bool = False) -> ScoreSession:
    score_session = service.read_session(session_id, history=history)
    if score_session is None:
        abort(404, description=gettext("There is no such score session (check the link)."))
    return score_session


def load_for_writing(session_id: str) -> ScoreSession:
    """The session, locked for this request's write, once this browser may change it."""
    score_session = service.lock_session(session_id)
    if score_session is None:
        abort(404, description=gettext("There is no such score session (check the link)."))
    check_editable(score_session)
    return score_session


def sheet_url(score_session: ScoreSession) -> str:
    return url_for(".score_sheet", session_id=score_session.public_id)


# Sessions ------------------------------------------------------------------------------------

@bp.get("/")
def session_list() -> str:
    return render_template("scores/list.html",
                           sessions=service.sessions_of_device(device_hash()))


@bp.route("/new", methods=["GET", "POST"])
def new_session() -> BaseResponse | tuple[str, int] | str:
    form = NewSessionForm()
    if form.validate_on_submit():
        try:
            score_session, _key = service.create_session(
                [field.data or "" for field in form.player_fields()], form.rounds.data,
                form.preset.data, form.overrides(), device_hash=device_hash_to_grant())
        except ScoringError as error:
            db.session.rollback()
            g.pop("new_device_token", None)
            target = {"rounds": form.rounds, "preset": form.preset}.get(error.field or "")
            if target is None and error.field and error.field.startswith("player "):
                target = form.player_fields()[int(error.field.split()[1]) - 1]
            if target is None:
                target = getattr(form, error.field or "", None) or form.player_1
            target.errors = [*target.errors, refusal(error)]
        else:
            flash(gettext("Session started. Record the first game when it ends."), "success")
            return redirect(sheet_url(score_session))
    status = 422 if request.method == "POST" else 200
    return render_template("scores/new.html", form=form), status


@bp.get("/<session_id>/join")
def join_session(session_id: str) -> BaseResponse:
    """The share-to-edit link: the key gives this browser the right, then the key leaves the
    address at once (a redirect), so it is not kept in history or sent on as a referrer."""
    score_session = service.lock_session(session_id)
    if score_session is None:
        abort(404, description=gettext("There is no such score session (check the link)."))
    if not service.key_opens(score_session, request.args.get("key", "")):
        abort(403, description=gettext("This edit link is not right for this session: ask for "
                                       "it again."))
    service.grant_access(score_session, device_hash_to_grant())
    db.session.commit()
    flash(gettext("This phone can now record games in this session."), "success")
    return redirect(sheet_url(score_session))


@bp.route("/<session_id>/delete", methods=["GET", "POST"])
def delete_session(session_id: str) -> BaseResponse | str:
    form = ConfirmForm()
    if request.method == "POST" and form.validate_on_submit():
        score_session = load_for_writing(session_id)
        names = ", ".join(score_session.player_names)
        service.delete_session(score_session)
        flash(gettext("Session of %(names)s deleted.", names=names), "success")
        return redirect(url_for(".session_list"))
    score_session = load(session_id)
    check_editable(score_session)
    return render_template("scores/delete.html", score_session=score_session, form=form)


# The sheet -----------------------------------------------------------------------------------

def render_sheet(view: SheetView, *, editable: bool, template: str) -> str:
    """The sheet page: the table (the costly part) is rendered once per session version and
    kind of viewer. For an editor the page around it is rendered every time (its buttons carry
    the browser's CSRF token); for a reader with no message waiting the whole page is the same
    for everyone at this version, so it is rendered once."""
    host = host_cache_key(request.host_url)
    if "_flashes" in browser or (editable and request.query_string) or host is None:
        return _render_sheet(view, editable=editable, template=template)
    if not editable:
        page_key = ("page", template, host, current_language())
        page = view.rendered.get(page_key)
        if page is None:
            page = view.rendered[page_key] = _render_sheet(view, editable=False,
                                                           template=template)
        return str(page)
    return _editor_page(view, template)


CSRF_PLACEHOLDER = "csrf-token-of-this-browser-0f6c2b9e"


def _editor_page(view: SheetView, template: str) -> str:
    """An editor's page differs from another editor's only by its CSRF token: it is rendered
    once per version (and address, language) with a placeholder, which each request fills."""
    token = generate_csrf()  # this browser's, made first so its session keeps the secret
    page_key = ("editor-page", template, request.host_url, current_language())
    page = view.rendered.get(page_key)
    if page is None:
        g.csrf_token = CSRF_PLACEHOLDER
        try:
            page = view.rendered[page_key] = _render_sheet(view, editable=True,
                                                           template=template)
        finally:
            g.csrf_token = token
    return str(page).replace(CSRF_PLACEHOLDER, token)


def _render_sheet(view: SheetView, *, editable: bool, template: str) -> str:
    table_key = ("table", editable, current_language())
    table = view.rendered.get(table_key)
    if table is None:
        table = Markup(render_template("scores/_sheet_table.html", score_session=view,
                                       sheet=view.sheet, can_edit=editable,
                                       ending_words=ending_words()))
        view.rendered[table_key] = table
    key = service.shareable_key(view) if editable else None
    share = (url_for(".join_session", session_id=view.public_id, key=key,
                     _external=True) if key else None)
    return render_template(template, score_session=view, can_edit=editable, sheet=view.sheet,
                           sheet_table=table, share_link=share,
                           view_link=url_for(".view_sheet", session_id=view.public_id,
                                             _external=True),
                           redo=view.redo if editable else None,
                           form=ConfirmForm() if editable else None)


def load_view(session_id: str) -> SheetView:
    view = sheet_view(session_id)
    if view is None:
        abort(404, description=gettext("There is no such score session (check the link)."))
    return view


@bp.get("/<session_id>")
def score_sheet(session_id: str) -> str:
    view = load_view(session_id)
    return render_sheet(view, editable=can_edit(view), template="scores/sheet.html")


@bp.get("/<session_id>/view")
def view_sheet(session_id: str) -> str:
    """The read-only standings for other phones: no edit buttons, refreshes itself."""
    return render_sheet(load_view(session_id), editable=False, template="scores/view.html")


@bp.get("/<session_id>/sheet.csv")
def sheet_csv(session_id: str) -> Response:
    score_session = load(session_id)
    words = ending_words()
    english = current_language() == "en"  # English keeps the ending's code (out, exhausted)
    csv_text = service.sheet_csv(score_session, word=csv_word,
                                 ending=lambda ending: ending.value if english else words[ending])
    return Response(csv_text, mimetype="text/csv",
                    headers={"Content-Disposition":
                             f"attachment; filename=rummikub-session-{session_id}.csv"})


@bp.get("/<session_id>/history")
def history(session_id: str) -> str:
    score_session = load(session_id, history=True)
    changes = [(change, history_line(score_session, change))
               for change in reversed(score_session.changes)]
    return render_template("scores/history.html", score_session=score_session, changes=changes)


def history_line(score_session: ScoreSession, change: Any) -> str:
    """The change in the page's language, from the games it stored (its English summary when
    the page is English or the stored games cannot be read back)."""
    if current_language() == "en":
        return str(change.summary)
    try:
        before, after = (None if stored is None else service.result_from_json(score_session,
                                                                              stored)
                         for stored in (change.before, change.after))
    except (KeyError, TypeError, ValueError):
        return str(change.summary)
    if before is None and after is None:
        return str(change.summary)
    return describe_change(change.game_number, change.action, before, after)


# Games ---------------------------------------------------------------------------------------

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
        target.errors = [*target.errors, refusal(error)]
    elif isinstance(error, TiedLowestRackError):
        return
    elif error.field == "winner":
        form.winner.errors = [*form.winner.errors, refusal(error)]
    else:
        form.form_errors.append(refusal(error))


def shown_ending(form: GameForm) -> Ending:
    """The ending the form is for; a tampered value shows the first tab (and its error)."""
    endings = {ending.value: ending for ending in Ending}
    return endings.get(form.ending.data or "", Ending.WENT_OUT)


def game_page(score_session: ScoreSession, form: GameForm, number: int, *, editing: bool,
              tie: TiedLowestRackError | None = None) -> str:
    return render_template("scores/game.html", score_session=score_session, form=form,
                           number=number, round=round_of(number, len(score_session.players)),
                           editing=editing, ending=shown_ending(form),
                           endings=ending_titles(), tie=tie,
                           tie_text=None if tie is None else refusal(tie),
                           bonus_jokers=score_session.rules.has_bonus_jokers,
                           samples_on=samples_on(),
                           sample_key=service.shareable_key(score_session))


def posted_game_form() -> GameForm:
    """The game form over what was posted, with a line for every seat even if one was left out
    (a missing ``lines-0-...`` would otherwise shift every later player's line up a seat);
    ``set_players`` then keeps one line per player of the session."""
    formdata = request.form.copy()
    for seat in range(MAX_PLAYERS):
        formdata.setdefault(f"lines-{seat}-rack", "")
    return GameForm(formdata=formdata)


def form_idempotency(form: GameForm) -> Idempotency | None:
    """The form's one-per-render key: posting the same form twice records one game."""
    key = (form.idempotency_key.data or "").strip()
    if not service.valid_idempotency_key(key):
        return None
    posted = sorted((name, value) for name, value in request.form.items(multi=True)
                    if name != "csrf_token")
    return Idempotency.of(key, request.path, posted)


def written(score_session: ScoreSession, outcome: WriteAnswer, verb: str) -> BaseResponse:
    body = outcome.body
    if outcome.replayed:
        message = (gettext("Game %(number)s was already saved from this form (%(winner)s "
                           "won): it is stored once.", **body) if verb == "saved" else
                   gettext("Game %(number)s was already recorded from this form (%(winner)s "
                           "won): it is stored once.", **body))
    else:
        message = (gettext("Game %(number)s saved: %(winner)s won.", **body) if verb == "saved"
                   else gettext("Game %(number)s recorded: %(winner)s won.", **body))
    flash(message, "success")
    return redirect(sheet_url(score_session))


def save_game(session_id: str, form: GameForm, game_number: int | None
              ) -> BaseResponse | tuple[str, int] | str:
    """Validate and store a posted game (a new one when ``game_number`` is None)."""
    score_session = load_for_writing(session_id)
    players = score_session.player_names
    form.set_players(players)
    game = None if game_number is None else service.stored_game(score_session, game_number)
    if game_number is not None and game is None:
        return edited_game_gone(score_session, form, game_number)
    number = game_number or service.games_stored(score_session)[1] + 1
    if form.validate():
        try:
            entry = game_input(form, players)
            key = form_idempotency(form)
            if game is None:
                outcome = service.record_game(score_session, entry,
                                              expected_number=form.expected_number(),
                                              idempotency=key)
            else:
                outcome = service.edit_game(score_session, game, entry, idempotency=key)
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
            if error.field != "number" or error.recorded is None:
                flash(refusal(error), "error")
                return redirect(sheet_url(score_session))
            # Another phone recorded this game first: the typing stays, the form now records
            # the next game, and the page says what the other phone recorded.
            next_number = service.games_stored(score_session)[1] + 1
            form.number.data = str(next_number)
            form.form_errors.append(gettext("%(refusal)s Recorded there: %(game)s",
                                            refusal=refusal(error),
                                            game=recorded_line(error.recorded)))
            return game_page(score_session, form, next_number, editing=False), 409
        except IdempotencyKeyReused as error:
            db.session.rollback()
            flash(str(error) if current_language() == "en" else gettext(
                "this form was already used for a different game: reload the page"), "error")
            return redirect(sheet_url(score_session))
        else:
            return written(score_session, outcome, "saved" if game is not None else "recorded")
    return game_page(score_session, form, number, editing=game is not None), 422


def edited_game_gone(score_session: ScoreSession, form: GameForm, game_number: int
                     ) -> tuple[str, int]:
    """An edit posted for a game that is not stored (another phone undid it while this one
    typed; games are numbered without gaps, so it is at or past the next game): nothing is
    saved, the typing stays, and the form now records the session's next game; a 404 when
    the session has no game left to record."""
    next_game = service.sheet_of(score_session).next_game
    if next_game is None:
        abort(404, description=gettext("This session has no game %(number)s.",
                                       number=game_number))
    form.number.data = str(next_game[0])
    form.form_errors.append(gettext(
        "Game %(number)s is no longer on the sheet (undone on another phone while you were "
        "editing it): nothing was saved. What you typed is below: record it as game %(next)s, "
        "or cancel.",
        number=game_number, next=next_game[0]))
    return game_page(score_session, form, next_game[0], editing=False), 409


@bp.route("/<session_id>/games/new", methods=["GET", "POST"])
def record_game(session_id: str) -> BaseResponse | tuple[str, int] | str:
    if request.method == "POST":
        return save_game(session_id, posted_game_form(), None)
    score_session = load(session_id)
    check_editable(score_session)
    sheet = service.sheet_of(score_session)
    if sheet.next_game is None:
        flash(gettext("The session is complete: all %(planned)s games are recorded.",
                      planned=sheet.games_planned), "error")
        return redirect(sheet_url(score_session))
    form = GameForm()
    wanted = request.args.get("ending", Ending.WENT_OUT.value)
    form.ending.data = wanted if wanted in {e.value for e in Ending} else "out"
    form.number.data = str(sheet.next_game[0])
    form.set_players(score_session.player_names)
    return game_page(score_session, form, sheet.next_game[0], editing=False)


@bp.route("/<session_id>/games/<int:game_number>/edit", methods=["GET", "POST"])
def edit_game(session_id: str, game_number: int) -> BaseResponse | tuple[str, int] | str:
    if request.method == "POST":
        return save_game(session_id, posted_game_form(), game_number)
    score_session = load(session_id)
    check_editable(score_session)
    game = service.stored_game(score_session, game_number)
    if game is None:
        abort(404, description=gettext("This session has no game %(number)s.",
                                       number=game_number))
    form = GameForm(data=stored_form_data(score_session, game, request.args.get("ending")))
    form.set_players(score_session.player_names)
    return game_page(score_session, form, game_number, editing=True)


def stored_form_data(score_session: ScoreSession, game: Game,
                     ending: str | None) -> dict[str, Any]:
    """The stored game as the form shows it, so an edit starts from what was recorded."""
    result = game.to_result(score_session.players)
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


@bp.post("/<session_id>/games/<int:game_number>/undo")
def undo_game(session_id: str, game_number: int) -> BaseResponse:
    if not ConfirmForm().validate_on_submit():
        abort(400, description=gettext("The undo button expired: reload the page and try again."))
    score_session = load_for_writing(session_id)
    try:
        service.undo_last_game(score_session, game_number)
    except LookupError:
        abort(404, description=gettext("This session has no game %(number)s.",
                                       number=game_number))
    except SessionStateError as error:
        db.session.rollback()
        flash(refusal(error), "error")
    else:
        flash(gettext("Game %(number)s undone. Tap “Redo” to put it back.", number=game_number),
              "success")
    return redirect(sheet_url(score_session))


@bp.post("/<session_id>/redo")
def redo_game(session_id: str) -> BaseResponse:
    if not ConfirmForm().validate_on_submit():
        abort(400, description=gettext("The redo button expired: reload the page and try again."))
    score_session = load_for_writing(session_id)
    try:
        outcome = service.redo_game(score_session)
    except SessionStateError as error:
        db.session.rollback()
        flash(refusal(error), "error")
    else:
        flash(gettext("Game %(number)s put back.", number=outcome.body["number"]), "success")
    return redirect(sheet_url(score_session))


# Rematch, more rounds, the running-total chart ----------------------------------------------

@bp.post("/<session_id>/rematch")
def rematch(session_id: str) -> BaseResponse:
    if not ConfirmForm().validate_on_submit():
        abort(400, description=gettext("The rematch button expired: reload the page and try "
                                       "again."))
    score_session = load_for_writing(session_id)
    new_session, _key = service.rematch(score_session, device_hash=device_hash_to_grant())
    flash(gettext("Rematch: a new session with the same players and rules."), "success")
    return redirect(sheet_url(new_session))


@bp.post("/<session_id>/add-round")
def add_round(session_id: str) -> BaseResponse:
    if not ConfirmForm().validate_on_submit():
        abort(400, description=gettext("The button expired: reload the page and try again."))
    score_session = load_for_writing(session_id)
    # the round this page was showing as the next one (absent: an older page, one round more)
    number = request.form.get("number", "")
    try:
        service.add_round(score_session,
                          expected_number=int(number) if number.isdecimal() else None)
    except (ScoringError, SessionStateError) as error:
        db.session.rollback()
        flash(refusal(error), "error")
    else:
        flash(gettext("Round %(number)s added.", number=score_session.rounds), "success")
    return redirect(sheet_url(score_session))


@bp.get("/<session_id>/chart.svg")
def running_totals_chart(session_id: str) -> Response:
    """Each player's running total across the games, drawn by the server (no script)."""
    # Imported here so that this route, added for groups, stays one self-contained block.
    from companion.core.stats import running_totals
    from companion.web.groups.charts import CHART_HEADERS
    from companion.web.groups.charts import running_totals_chart as draw

    score_session = load(session_id)
    players = score_session.player_names
    svg = draw(players, running_totals(players, score_session.results()),
               narrow=request.args.get("size") == "phone")
    return Response(svg, mimetype="image/svg+xml", headers=CHART_HEADERS)


@bp.post("/<session_id>/finish")
def finish_now(session_id: str) -> BaseResponse:
    """"Finish now": the session ends with the standings as they stand (the sheet says so)."""
    if not ConfirmForm().validate_on_submit():
        abort(400, description=gettext("The button expired: reload the page and try again."))
    score_session = load_for_writing(session_id)
    try:
        service.finish_now(score_session)
    except SessionStateError as error:
        db.session.rollback()
        flash(refusal(error), "error")
    else:
        flash(gettext("The session is finished: these are the final standings. “Continue the "
                      "session” undoes it."), "success")
    return redirect(sheet_url(score_session))


@bp.post("/<session_id>/continue")
def continue_session(session_id: str) -> BaseResponse:
    """Undo "finish now": the session is in progress again."""
    if not ConfirmForm().validate_on_submit():
        abort(400, description=gettext("The button expired: reload the page and try again."))
    score_session = load_for_writing(session_id)
    try:
        service.continue_session(score_session)
    except SessionStateError as error:
        db.session.rollback()
        flash(refusal(error), "error")
    else:
        flash(gettext("The session continues: record the next game."), "success")
    return redirect(sheet_url(score_session))
