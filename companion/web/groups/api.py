"""JSON API of groups, mounted under /api/v1: the same service calls as the pages.

A group and its players are reached only by their random ids; creating a group answers its
edit key, which a session needs to join the group (``"group"`` in ``POST /sessions``, the key
in ``Authorization: Bearer``). Reading, as for sessions, needs only the id.
"""

from __future__ import annotations

from typing import Any

from flask import Blueprint, jsonify, request, url_for

from companion.core.stats import Period
from companion.web.api import ApiInputError, json_body
from companion.web.groups import service
from companion.web.models import Group, GroupMember, ScoreSession

bp = Blueprint("groups_api", __name__)


def period_argument() -> Period:
    try:
        return Period.parse(request.args.get("period"))
    except ValueError as error:
        raise ApiInputError(str(error), {"field": "period"}) from error


def load_group(group_id: str) -> Group:
    group = service.find_group(group_id)
    if group is None:
        raise ApiInputError(f"there is no group {group_id}", {"field": "id"}, 404)
    return group


def load_member(player_id: str) -> GroupMember:
    member = service.find_member(player_id)
    if member is None:
        raise ApiInputError(f"there is no player {player_id}", {"field": "id"}, 404)
    return member


def bearer_key() -> str | None:
    scheme, _, key = request.headers.get("Authorization", "").partition(" ")
    return key.strip() if scheme.lower() == "bearer" and key.strip() else None


def group_for_new_session(value: object) -> Group | None:
    """The group a new session joins (``"group"`` in ``POST /sessions``), its key checked.

    Called before the session is created, so a wrong group or key stores nothing.
    """
    if value is None:
        return None
    if not isinstance(value, str):
        raise ApiInputError("`group` must be a group's id", {"field": "group"})
    group = load_group(value)
    key = bearer_key()
    if key is None:
        raise ApiInputError("joining a group needs the group's edit key: "
                            "Authorization: Bearer <edit_key>", {"field": "Authorization"}, 401)
    if not service.group_key_opens(group, key):
        raise ApiInputError("that edit key does not open this group",
                            {"field": "Authorization"}, 403)
    return group


def group_links(group: Group, key: str | None = None) -> dict[str, str]:
    found = {"page": url_for("groups.group_page", group_id=group.public_id, _external=True)}
    if key is not None:
        found["share_to_edit"] = url_for("groups.join_group", group_id=group.public_id,
                                         key=key, _external=True)
    return found


def group_json(group: Group, period: Period = Period.ALL) -> dict[str, Any]:
    league, sessions = service.group_overview(group, period)
    members = {m.name: m for m in group.members}
    rows = service.league_json(league)
    return {
        "id": group.public_id, "name": group.name, "period": period.value,
        "players": [{"id": m.public_id, "name": m.name} for m in group.members],
        "league": [{**row, "id": members[str(row["name"])].public_id} for row in rows],
        "sessions": sessions,
    }


@bp.post("/groups")
def create_group() -> tuple[Any, int]:
    payload = json_body(example='{"name": "Thursday club"}')
    try:
        group, key = service.create_group(payload.get("name"))
    except service.GroupError as error:
        raise ApiInputError(str(error), error.where) from error
    return jsonify({**group_json(group), "edit_key": key, "links": group_links(group, key)}), 201


@bp.get("/groups/<group_id>")
def get_group(group_id: str) -> Any:
    group = load_group(group_id)
    return jsonify({**group_json(group, period_argument()), "links": group_links(group)})


@bp.get("/players/<player_id>")
def get_player(player_id: str) -> Any:
    member = load_member(player_id)
    period = period_argument()
    stats = service.member_stats(member, period)
    return jsonify({**service.stats_json(stats), "id": member.public_id,
                    "group": member.group.public_id, "period": period.value})


def join_new_session(score_session: ScoreSession, group: Group | None) -> None:
    if group is not None:
        service.join_group(score_session, group)
