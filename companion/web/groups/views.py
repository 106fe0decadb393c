"""Pages of groups: the league and sessions of a group, a player's page, charts, pictures,
export and import.

A group is reached only through its links. The browser that starts (or imports) a group may
change it: a row of ``score_group_access`` keyed by the hash of the browser's device token
(the same HttpOnly cookie the sessions use), never the edit key itself. The "share to edit"
link (``/groups/<group_id>/join?key=...``) gives another phone the same row. The page link
alone shows the league and the players, without starting sessions, export or the share links.
Older versions kept the raw edit key in a ``group_key_<id>`` cookie: such a cookie that still
opens its group becomes an access row the next time the group's page is opened, and is deleted.
"""

from __future__ import annotations

import json
import re

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
from werkzeug.wrappers import Response as BaseResponse

from companion.core.scoring import ScoringError
from companion.core.stats import Period
from companion.web.api import JsonTextError, parse_json_text
from companion.web.groups import charts, picture, service, transfer
from companion.web.groups.forms import GroupSessionForm, ImportForm, NewGroupForm
from companion.web.languages import DEFAULT_LANGUAGE, current_language
from companion.web.models import Group, GroupAccess, GroupMember, db
from companion.web.scores import service as scores_service
from companion.web.scores.device import device_hash, device_hash_to_grant
from companion.web.scores.words import refusal
from companion.web.transactions import begin_write

bp = Blueprint("groups", __name__, url_prefix="/groups")

KEY_COOKIE_PREFIX = "group_key_"
"""The cookie older versions kept a group's edit key in (read once, to turn into access)."""
PERIOD_TITLES = {Period.MONTH: _l("This month"), Period.YEAR: _l("This year"),
                 Period.ALL: _l("All time")}


# Which browser may change a group -------------------------------------------------------

def old_cookie_key(group: Group) -> str | None:
    """The edit key an older version kept raw in the group's own cookie, if any."""
    return request.cookies.get(KEY_COOKIE_PREFIX + group.public_id)


def can_edit(group: Group) -> bool:
    """This browser has access to the group; an old cookie holding the group's edit key is
    turned into access (and deleted with the answer)."""
    if service.group_access(group, device_hash()):
        return True
    key = old_cookie_key(group)
    if key is None or not service.group_key_opens(group, key):
        return False
    service.grant_group_access(group, device_hash_to_grant())
    g.drop_group_cookie = group.public_id
    return True


def grant(group: Group) -> None:
    service.grant_group_access(group, device_hash_to_grant())


@bp.after_app_request
def drop_old_group_cookie(response: BaseResponse) -> BaseResponse:
    public_id = g.pop("drop_group_cookie", None)
    if public_id is not None:
        response.delete_cookie(KEY_COOKIE_PREFIX + public_id, httponly=True, samesite="Lax",
                               path=url_for("groups.group_page", group_id=public_id))
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
            group, _key = service.create_group(form.name.data,
                                               device_hash=device_hash_to_grant())
        except service.GroupError as error:
            db.session.rollback()
            g.pop("new_device_token", None)
            form.name.errors = [*form.name.errors, group_refusal(error)]
        else:
            flash(gettext("Group “%(name)s” started. Keep its link: it is the only way back.",
                          name=group.name), "success")
            return redirect(url_for(".group_page", group_id=group.public_id))
    status = 422 if request.method == "POST" else 200
    return render_template("groups/start.html", form=form, import_form=ImportForm()), status


@bp.get("/<group_id>/")
def group_page(group_id: str) -> str:
    group = load(group_id)
    period = period_argument()
    league, sessions = service.group_overview(group, period)
    editable = can_edit(group)
    key = service.shareable_group_key(group) if editable else None
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
    grant(group)
    flash(gettext("This phone can now start sessions of “%(name)s”.", name=group.name),
          "success")
    return redirect(url_for(".group_page", group_id=group_id))


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
    """Import a file through the page: checked whole, then stored with fresh public ids and
    fresh edit keys (this browser may change what it imported); the page shows the new links
    and share-to-edit links once. Keeping a file's ids and keys is ``companion import``'s."""
    form = ImportForm()
    if form.validate_on_submit():
        try:
            raw = form.file.data.read()
            payload = parse_json_text(raw)
            begin_write()  # checked and stored under the write lock: two imports queue
            imported = transfer.import_file(payload, keep_ids=False)
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
            return imported_page(imported), 201
    return render_template("groups/start.html", form=NewGroupForm(formdata=None),
                           import_form=form), 422


def imported_page(imported: transfer.Imported) -> str:
    """What was imported, each group and session with its new link and share-to-edit link."""
    device = device_hash_to_grant()
    begin_write()
    for group, _key in imported.groups:
        if not service.group_access(group, device):
            db.session.add(GroupAccess(group_id=group.id, device_hash=device))
    for score_session, _key in imported.sessions:
        scores_service.grant_access(score_session, device)
    db.session.commit()
    groups = [(group.name, url_for(".group_page", group_id=group.public_id, _external=True),
               None if key is None else url_for(".join_group", group_id=group.public_id,
                                                key=key, _external=True))
              for group, key in imported.groups]
    sessions = [(", ".join(s.player_names), s.created_at,
                 url_for("scores.score_sheet", session_id=s.public_id, _external=True),
                 None if key is None else url_for("scores.join_session",
                                                  session_id=s.public_id, key=key,
                                                  _external=True))
                for s, key in imported.sessions]
    summary = ngettext("%(groups)s and %(num)s session, with new links.",
                       "%(groups)s and %(num)s sessions, with new links.", len(sessions),
                       groups=ngettext("Imported %(num)s group", "Imported %(num)s groups",
                                       len(groups)))
    return render_template("groups/imported.html", groups=groups, sessions=sessions,
                           summary=summary)
