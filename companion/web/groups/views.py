"""Pages of groups: the league and sessions of a group, a player's page, charts, pictures,
export and import.

A group is reached only through its links. The browser that starts a group keeps its edit
key in a long-lived HttpOnly, SameSite=Lax cookie of its own; the "share to edit" link
(``/groups/<group_id>/join?key=...``) hands it to another phone. The page link alone shows
the league and the players, without starting sessions, export or the share links.
"""

from __future__ import annotations

import json
import re
from datetime import timedelta

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
from flask_babel import gettext, ngettext
from flask_babel import lazy_gettext as _l
from sqlalchemy import select
from werkzeug.wrappers import Response as BaseResponse

from companion.core.scoring import ScoringError
from companion.core.stats import Period
from companion.web.api import JsonTextError, parse_json_text
from companion.web.groups import charts, picture, service, transfer
from companion.web.groups.forms import GroupSessionForm, ImportForm, NewGroupForm
from companion.web.languages import DEFAULT_LANGUAGE, current_language
from companion.web.models import Group, GroupMember, db
from companion.web.scores import service as scores_service
from companion.web.scores.views import device_hash_to_grant
from companion.web.scores.words import refusal
from companion.web.transactions import begin_write

bp = Blueprint("groups", __name__, url_prefix="/groups")

KEY_COOKIE_PREFIX = "group_key_"
KEY_COOKIE_AGE = timedelta(days=400)  # the longest a browser keeps a cookie
PERIOD_TITLES = {Period.MONTH: _l("This month"), Period.YEAR: _l("This year"),
                 Period.ALL: _l("All time")}


# The edit key in the browser -------------------------------------------------------------

def browser_key(group: Group) -> str | None:
    return request.cookies.get(KEY_COOKIE_PREFIX + group.public_id)


def can_edit(group: Group) -> bool:
    return service.group_key_opens(group, browser_key(group))


def keep_key(response: BaseResponse, group: Group, key: str) -> BaseResponse:
    response.set_cookie(KEY_COOKIE_PREFIX + group.public_id, key, max_age=KEY_COOKIE_AGE,
                        httponly=True, samesite="Lax", secure=request.is_secure,
                        path=url_for(".group_page", group_id=group.public_id))
    return response


def load(group_id: str) -> Group:
    group = service.find_group(group_id)
    if group is None:
        abort(404, description=gettext("There is no such group: check the link."))
    return group


def load_for_writing(group_id: str) -> Group:
    group = load(group_id)
    if not can_edit(group):
        abort(403, description=gettext("This phone cannot change this group: open the “share "
                                       "to edit” link from the phone that started it."))
    return group


def load_member(group: Group, player_id: str) -> GroupMember:
    member = service.find_member(player_id)
    if member is None or member.group_id != group.id:
        abort(404, description=gettext("This group has no such player."))
    return member


def period_argument() -> Period:
    try:
        return Period.parse(request.args.get("period"))
    except ValueError as error:
        abort(400, description=f"{error}.")


def group_refusal(error: service.GroupError) -> str:
    """A group's name refused, in the page's language (the service's message is the API's)."""
    if current_language() == DEFAULT_LANGUAGE or error.field != "name":
        return str(error)
    return gettext("Give the group a name of at most %(most)s characters, without control "
                   "characters.", most=service.MAX_GROUP_NAME)


WHERE_IN_FILE = re.compile(r"(?:(group|session) (\d+)(?: \((.*)\))?)?(?:, )?(?:game (\d+))?")


def import_refusal(error: transfer.ImportRefused) -> str:
    """Where in the file and, for the refusals a person meets (already imported, not an
    export), what, in the page's language; a fault in the file's JSON keeps its English
    words (it names the file's keys)."""
    if current_language() == DEFAULT_LANGUAGE:
        return error.message if error.where == "the file" else str(error)
    message = {"group_here": gettext("this group is already here"),
               "session_here": gettext("this session is already here"),
               "not_an_export": gettext("this is not a file exported from Companion"),
               }.get(error.code or "", error.message)
    if error.where == "the file":
        return message
    place = WHERE_IN_FILE.fullmatch(error.where)
    if place is None or not error.where:
        return str(error)
    kind, number, name, game = place.groups()
    parts = []
    if kind == "group":
        parts.append(gettext("group %(number)s", number=number))
    elif kind == "session":
        parts.append(gettext("session %(number)s", number=number))
    if name:
        parts[-1] += f" ({name})"
    if game:
        parts.append(gettext("game %(number)s", number=game))
    return f"{', '.join(parts)}: {message}"


# Groups ----------------------------------------------------------------------------------

@bp.route("/", methods=["GET", "POST"])
def start_group() -> BaseResponse | tuple[str, int] | str:
    form = NewGroupForm()
    if form.validate_on_submit():
        try:
            group, key = service.create_group(form.name.data)
        except service.GroupError as error:
            db.session.rollback()
            form.name.errors = [*form.name.errors, group_refusal(error)]
        else:
            flash(gettext("Group “%(name)s” started. Keep its link: it is the only way back.",
                          name=group.name), "success")
            return keep_key(redirect(url_for(".group_page", group_id=group.public_id)),
                            group, key)
    status = 422 if request.method == "POST" else 200
    wanted = (request.args.get("imported") or "").split(",")[:50]
    imported = db.session.scalars(select(Group).where(Group.public_id.in_(wanted))
                                  .order_by(Group.id)).all() if any(wanted) else []
    return render_template("groups/start.html", form=form, import_form=ImportForm(),
                           imported=imported), status


@bp.get("/<group_id>/")
def group_page(group_id: str) -> str:
    group = load(group_id)
    period = period_argument()
    league, sessions = service.group_overview(group, period)
    editable = can_edit(group)
    key = browser_key(group) if editable else None
    return render_template(
        "groups/group.html", group=group, league=league, sessions=sessions,
        period=period, periods=PERIOD_TITLES, can_edit=editable,
        members={m.name: m for m in group.members}, import_form=ImportForm(),
        view_link=url_for(".group_page", group_id=group.public_id, _external=True),
        share_link=None if key is None else url_for(".join_group", group_id=group.public_id,
                                                    key=key, _external=True))


@bp.get("/<group_id>/join")
def join_group(group_id: str) -> BaseResponse:
    group = load(group_id)
    key = request.args.get("key", "")
    if not service.group_key_opens(group, key):
        abort(403, description=gettext("This edit link is not right for this group: ask for it "
                                       "again."))
    flash(gettext("This phone can now start sessions of “%(name)s”.", name=group.name),
          "success")
    return keep_key(redirect(url_for(".group_page", group_id=group_id)), group, key)


@bp.route("/<group_id>/sessions/new", methods=["GET", "POST"])
def new_session(group_id: str) -> BaseResponse | tuple[str, int] | str:
    group = load_for_writing(group_id)
    form = GroupSessionForm()
    if form.validate_on_submit():
        try:
            score_session, _key = scores_service.create_session(
                form.names(), form.rounds.data, form.preset.data, {},
                device_hash=device_hash_to_grant())
        except ScoringError as error:
            db.session.rollback()
            g.pop("new_device_token", None)
            form.form_errors.append(refusal(error))
        else:
            service.join_group(score_session, group)
            flash(gettext("Session started. Record the first game when it ends."), "success")
            return redirect(url_for("scores.score_sheet",
                                    session_id=service.session_link_id(score_session)))
    status = 422 if request.method == "POST" else 200
    return render_template("groups/new_session.html", group=group, form=form), status


# Players ---------------------------------------------------------------------------------

@bp.get("/<group_id>/players/<player_id>")
def player_page(group_id: str, player_id: str) -> str:
    group = load(group_id)
    member = load_member(group, player_id)
    period = period_argument()
    return render_template("groups/player.html", group=group, member=member, period=period,
                           periods=PERIOD_TITLES, stats=service.member_stats(member, period))


@bp.get("/<group_id>/players/<player_id>/chart.svg")
def player_chart(group_id: str, player_id: str) -> Response:
    member = load_member(load(group_id), player_id)
    points = service.member_session_totals(member, period_argument())
    return svg_response(charts.session_totals_chart(member.name, points,
                                                    narrow=request.args.get("size") == "phone"))


def svg_response(svg: bytes) -> Response:
    return Response(svg, mimetype="image/svg+xml", headers=charts.CHART_HEADERS)


# Pictures, export, import ----------------------------------------------------------------

@bp.get("/<group_id>/standings.png")
def standings_picture(group_id: str) -> Response:
    group = load(group_id)
    period = period_argument()
    league, sessions = service.group_overview(group, period)
    rows = [[str(row.place), row.name, str(row.sessions_won), str(row.games_won),
             f"{row.total_score:+d}" if row.total_score else "0"] for row in league]
    played = sum(1 for summary in sessions if summary["games_played"])
    subtitle = ngettext("%(period)s · %(num)s session", "%(period)s · %(num)s sessions", played,
                        period=PERIOD_TITLES[period])
    png = picture.standings_png(group.name, subtitle,
                                ["", gettext("Player"), gettext("Sessions won"),
                                 gettext("Games won"), gettext("Score")], rows)
    return Response(png, mimetype="image/png", headers={
        "Content-Disposition": f'inline; filename="standings-{period.value}.png"'})


@bp.get("/<group_id>/export.json")
def export_group(group_id: str) -> Response:
    group = load_for_writing(group_id)
    data = json.dumps(transfer.export_data(group), ensure_ascii=False, indent=1)
    return Response(data, mimetype="application/json", headers={
        "Content-Disposition": f'attachment; filename="companion-group-{group.public_id}.json"'})


@bp.post("/import")
def import_file() -> BaseResponse | tuple[str, int]:
    form = ImportForm()
    if form.validate_on_submit():
        try:
            raw = form.file.data.read()
            payload = parse_json_text(raw)
            begin_write()  # checked and stored under the write lock: two imports queue
            groups, sessions = transfer.import_data(payload)
        except JsonTextError as error:
            db.session.rollback()
            if raw.lstrip()[:1] in (b"{", b"["):  # JSON, broken: where it breaks helps
                form.file.errors = [gettext("This file is not JSON: %(error)s", error=error)]
            else:  # a text file, a photo: the parser's words ("Expecting value") help nobody
                form.file.errors = [gettext("This is not a file exported from Companion: "
                                            "choose the .json file that “Export” saved.")]
        except transfer.ImportRefused as error:
            db.session.rollback()
            refusal = import_refusal(error)  # a sentence of its own: "Nothing was imported. This…"
            form.file.errors = [gettext("Nothing was imported. %(error)s",
                                        error=refusal[:1].upper() + refusal[1:])]
        else:
            imported = ngettext("Imported %(num)s group", "Imported %(num)s groups", groups)
            flash(ngettext("%(groups)s and %(num)s session. Open a group through its link "
                           "(share-to-edit links keep working).",
                           "%(groups)s and %(num)s sessions. Open a group through its link "
                           "(share-to-edit links keep working).", sessions, groups=imported),
                  "success")
            # The groups just stored have the highest ids (the import held the write lock):
            # the start page links to them, so a fresh server is not left without a way in.
            newest = db.session.scalars(select(Group.public_id).order_by(Group.id.desc())
                                        .limit(groups)).all()
            return redirect(url_for(".start_group", imported=",".join(reversed(newest))
                                    if newest else None))
    return render_template("groups/start.html", form=NewGroupForm(formdata=None),
                           import_form=form), 422

