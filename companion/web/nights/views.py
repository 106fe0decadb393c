"""Pages of a club night: start one, the host page, table cards, the TV view, the sheet, CSV.

The host's browser keeps the night's edit key in a cookie limited to the night's pages (as a
group's key is kept); the "share to host" link gives it to a second phone.
"""

from __future__ import annotations

from datetime import timedelta

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
from flask_babel import gettext
from werkzeug.wrappers import Response as BaseResponse
from wtforms.fields.choices import SelectChoice

from companion.core.nights import NightError, NightFormat
from companion.web.groups import service as groups
from companion.web.groups.views import can_edit as can_edit_group
from companion.web.models import Group, db
from companion.web.nights import service
from companion.web.nights.forms import ArrivalForm, LeaveForm, NewNightForm, SeatForm
from companion.web.nights.models import Night
from companion.web.scores import service as scores

bp = Blueprint("nights", __name__, url_prefix="/nights")

KEY_COOKIE_PREFIX = "night_key_"
KEY_COOKIE_AGE = timedelta(days=30)


def host_key(night: Night) -> str | None:
    key = request.cookies.get(KEY_COOKIE_PREFIX + night.public_id)
    return key if service.key_opens(night, key) else None


def keep_key(response: BaseResponse, night: Night, key: str) -> BaseResponse:
    response.set_cookie(KEY_COOKIE_PREFIX + night.public_id, key, max_age=KEY_COOKIE_AGE,
                        httponly=True, samesite="Lax", secure=request.is_secure,
                        path=url_for(".host", night_id=night.public_id))
    return response


def load(night_id: str) -> Night:
    night = service.read_night(night_id)
    if night is None:
        abort(404, description=gettext("There is no such night: check the link."))
    return night


def load_for_hosting(night_id: str) -> Night:
    night = service.lock_night(night_id)
    if night is None:
        abort(404, description=gettext("There is no such night: check the link."))
    if host_key(night) is None:
        abort(403, description=gettext("This phone does not host this night: open the "
                                       "“share to host” link from the host's phone."))
    return night


def words(error: Exception) -> str:
    """The refusal in the page's language where a sentence is known, else the core's."""
    sentences = {
        "still_playing": lambda p: gettext(
            "Round %(round)s is still being played at table(s) %(tables)s: seat the next "
            "round once every table has recorded its games.", round=p["round"],
            tables=", ".join(str(t) for t in p["tables"])),
        "leaving_mid_round": lambda p: gettext(
            "%(name)s is still playing at table %(table)s: they can leave once that table "
            "has recorded its games.", name=p["name"], table=p["table"]),
        "name_twice": lambda p: gettext("%(name)s is in the night already: names must "
                                        "differ.", name=p["name"]),
        "night_count": lambda p: gettext("A night has %(least)s to %(most)s players, not "
                                         "%(count)s.", **p),
        "night_over": lambda p: gettext("The night is over: all rounds are played."),
    }
    code = getattr(error, "code", None)
    params = getattr(error, "params", {})
    try:
        return str(sentences[code](params)) if code in sentences else str(error)
    except (KeyError, TypeError):
        return str(error)


def group_argument() -> Group | None:
    """``?group=<id>`` offers the group's members; a group this phone cannot change is 403."""
    group_id = request.args.get("group")
    if not group_id:
        return None
    group = groups.find_group(group_id)
    if group is None:
        abort(404, description=gettext("There is no such group: check the link."))
    if not can_edit_group(group):
        abort(403, description=gettext("This phone cannot change this group: open the “share "
                                       "to edit” link from the phone that started it."))
    return group


@bp.route("/new", methods=["GET", "POST"])
def new_night() -> BaseResponse | tuple[str, int] | str:
    group = group_argument()
    form = NewNightForm()
    form.members.choices = [] if group is None else [SelectChoice(m.name, m.name)
                                                       for m in group.members]
    errors: list[str] = []
    if form.validate_on_submit():
        try:
            night, key = service.create_night(
                form.player_names(), form.format.data, form.rounds.data,
                form.games_per_table.data, advance=int(form.advance.data or 1),
                pairs=bool(form.pairs.data), preset_key=form.preset.data, group=group)
        except (NightError, service.NightStateError) as error:
            db.session.rollback()
            errors.append(words(error))
        else:
            flash(gettext("The night has begun: round 1 is seated."), "success")
            return keep_key(redirect(url_for(".host", night_id=night.public_id)), night, key)
    status = 422 if request.method == "POST" else 200
    return render_template("nights/new.html", form=form, group=group, errors=errors), status


@bp.get("/<night_id>/")
def host(night_id: str) -> str:
    night = load(night_id)
    key = host_key(night)
    body = service.night_json(night, with_keys=key is not None)
    leave = LeaveForm()
    leave.name.choices = [SelectChoice(p["name"], p["name"]) for p in body["players"]
                          if p["left_after"] is None]
    return render_template(
        "nights/host.html", night=night, body=body, can_host=key is not None,
        seat_form=SeatForm(), arrival=ArrivalForm(), leave=leave,
        format_words=format_words(), share_link=None if key is None else url_for(
            ".join_night", night_id=night.public_id, key=key, _external=True))


@bp.get("/<night_id>/join")
def join_night(night_id: str) -> BaseResponse:
    night = load(night_id)
    key = request.args.get("key", "")
    if not service.key_opens(night, key):
        abort(403, description=gettext("This host link is not right for this night: ask for "
                                       "it again."))
    flash(gettext("This phone can now host the night."), "success")
    return keep_key(redirect(url_for(".host", night_id=night_id)), night, key)


@bp.post("/<night_id>/rounds")
def seat_round(night_id: str) -> BaseResponse:
    night = load_for_hosting(night_id)
    if SeatForm().validate_on_submit():
        try:
            number = service.seat_next_round(night).number
        except (NightError, service.NightStateError) as error:
            db.session.rollback()
            flash(words(error), "error")
        else:
            flash(gettext("Round %(number)s is seated: print the table cards.",
                          number=number), "success")
    return redirect(url_for(".host", night_id=night_id))


@bp.post("/<night_id>/players")
def add_player(night_id: str) -> BaseResponse:
    night = load_for_hosting(night_id)
    form = ArrivalForm()
    if form.validate_on_submit():
        try:
            name = service.add_player(night, form.name.data)
        except (NightError, service.NightStateError) as error:
            db.session.rollback()
            flash(words(error) + " " + gettext("(You typed: %(name)s)", name=form.name.data),
                  "error")
        else:
            flash(gettext("%(name)s joins from the next round.", name=name), "success")
    else:
        flash(gettext("Say the name."), "error")
    return redirect(url_for(".host", night_id=night_id))


@bp.post("/<night_id>/players/leave")
def remove_player(night_id: str) -> BaseResponse:
    night = load_for_hosting(night_id)
    name = request.form.get("name", "")
    if SeatForm().validate_on_submit():
        try:
            left = service.remove_player(night, name)
        except (NightError, service.NightStateError) as error:
            db.session.rollback()
            flash(words(error), "error")
        else:
            flash(gettext("%(name)s has left: their results stay in the standings.",
                          name=left), "success")
    return redirect(url_for(".host", night_id=night_id))


def format_words() -> dict[str, str]:
    return {NightFormat.FIXED.value: gettext("Fixed tables"),
            NightFormat.RESEAT.value: gettext("Re-seated by standings (Swiss)"),
            NightFormat.ADVANCE.value: gettext("Winners advance")}


@bp.get("/<night_id>/cards")
def table_cards(night_id: str) -> str:
    """One card a table for the last round seated: the table's players and its edit link as
    a QR code (only for the host: the link lets the table record its games)."""
    night = load(night_id)
    if host_key(night) is None:
        abort(403, description=gettext("Only the host's phone prints the table cards."))
    if not night.rounds_played:
        abort(404, description=gettext("No round is seated yet."))
    last = night.rounds_played[-1]
    cards = []
    for table in last.tables:
        if table.session is None:
            continue
        key = scores.edit_key_of(table.session)
        cards.append({"number": table.number, "players": table.session.player_names,
                      "link": url_for("scores.join_session",
                                      session_id=table.session.public_id, key=key,
                                      _external=True)})
    return render_template("nights/cards.html", night=night, round=last, cards=cards,
                           sat_out=last.sat_out or [], format_words=format_words())


@bp.get("/<night_id>/tv")
def tv(night_id: str) -> str:
    night = load(night_id)
    from companion.web.nights.live import stream_of

    return render_template("nights/tv.html", night=night, body=service.night_json(night),
                           stream=stream_of(night), format_words=format_words(),
                           view_link=url_for(".tv", night_id=night_id, _external=True))


@bp.get("/<night_id>/sheet")
def night_sheet(night_id: str) -> str:
    night = load(night_id)
    return render_template("nights/sheet.html", night=night, body=service.night_json(night),
                           format_words=format_words())


@bp.get("/<night_id>/standings.csv")
def night_csv(night_id: str) -> Response:
    night = load(night_id)
    return Response(service.night_csv(night), mimetype="text/csv",
                    headers={"Content-Disposition":
                             f"attachment; filename=night-{night.public_id}.csv"})
