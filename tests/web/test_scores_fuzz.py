"""Every scores JSON endpoint and form driven with generated input (hypothesis, through the
test client): never a 5xx, every API refusal is ``{"error", "where"}``, and after any sequence
of accepted writes every game, round and session still balances."""

from __future__ import annotations

from typing import Any

from flask import Flask
from flask.testing import FlaskClient
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

NAMES = ["Ann", "Bob", "Cy"]
TILE_TEXT = st.text(alphabet="RBKOYJDMC0123456789 ,|-x", max_size=14)
JUNK = st.one_of(st.none(), st.booleans(), st.integers(-2**70, 2**70), st.floats(),
                 st.text(max_size=12), st.lists(st.integers(), max_size=2),
                 st.dictionaries(st.text(max_size=4), st.integers(), max_size=2))
NAME = st.one_of(st.sampled_from(NAMES), st.text(max_size=6))
RACK = st.one_of(TILE_TEXT, st.integers(-5, 900), st.none(),
                 st.fixed_dictionaries({"points": st.integers(-3, 900),
                                        "jokers": st.integers(-1, 4)}), JUNK)
SCORE = st.one_of(st.integers(-60, 60), st.integers(-2**64, 2**64), JUNK)


@st.composite
def plausible_game(draw: st.DrawFn) -> dict[str, Any]:
    """A game the rules accept more often than not, so that writes are stored and the
    balance after a sequence is worth checking."""
    winner = draw(st.sampled_from(NAMES))
    others = [name for name in NAMES if name != winner]
    if draw(st.booleans()):
        losses = draw(st.lists(st.integers(1, 60), min_size=2, max_size=2))
        scores = {name: -loss for name, loss in zip(others, losses, strict=True)}
        return {"ending": "paper", "scores": {**scores, winner: sum(losses)}}
    racks = {name: draw(st.one_of(st.integers(1, 80), st.sampled_from(
        ["K5 J", "R1 R2", "B13", "O7 O8 O9"]))) for name in others}
    return {"ending": draw(st.sampled_from(["out", "exhausted"])), "winner": winner,
            "racks": racks}


def as_form(game: dict[str, Any]) -> dict[str, str]:
    fields = {"ending": game["ending"], "winner": game.get("winner", "")}
    for seat, name in enumerate(NAMES):
        if game["ending"] == "paper":
            fields[f"lines-{seat}-score"] = str(game["scores"][name])
        elif isinstance(game["racks"].get(name), int):
            fields[f"lines-{seat}-total"] = str(game["racks"][name])
        else:
            fields[f"lines-{seat}-rack"] = game["racks"].get(name) or ""
    return fields


GAME_BODY = st.one_of(
    plausible_game(), plausible_game(),
    st.fixed_dictionaries({"ending": st.sampled_from(["out", "exhausted"]), "winner": NAME,
                           "racks": st.dictionaries(NAME, RACK, max_size=4)}),
    st.fixed_dictionaries({"ending": st.just("paper"),
                           "scores": st.dictionaries(NAME, SCORE, max_size=4)}),
    st.dictionaries(st.sampled_from(["ending", "winner", "racks", "scores", "number"]), JUNK,
                    max_size=4),
    JUNK)
FORM_TEXT = st.one_of(TILE_TEXT, st.sampled_from(["", "+5", "−5", "-12", "0", "+1e3",
                                                  "100000000000000000000", "٣", "9" * 30]),
                      st.text(max_size=8))
GAME_FORM = plausible_game().map(as_form) | st.fixed_dictionaries(
    {"ending": st.one_of(st.sampled_from(["out", "exhausted", "paper"]), st.text(max_size=6)),
     "winner": NAME},
    optional={f"lines-{seat}-{part}": FORM_TEXT
              for seat in range(4) for part in ("rack", "total", "jokers", "score")}
    | {"tie_break": NAME, "number": FORM_TEXT, "idempotency_key": st.text(max_size=8)})

OPERATION = st.one_of(
    st.tuples(st.just("api record"), GAME_BODY, st.one_of(st.none(), st.text(
        st.characters(blacklist_categories=["Cc", "Cs"]), max_size=6))),
    st.tuples(st.just("api edit"), st.integers(-1, 7), GAME_BODY),
    st.tuples(st.just("api undo"), st.integers(-1, 7), st.none()),
    st.tuples(st.just("api redo"), st.none(), st.none()),
    st.tuples(st.just("api raw"), st.binary(max_size=40), st.none()),
    st.tuples(st.just("api new session"), JUNK | st.fixed_dictionaries(
        {"players": st.lists(st.text(max_size=5), max_size=5), "rounds": JUNK,
         "preset": JUNK}), st.none()),
    st.tuples(st.just("form record"), GAME_FORM, st.none()),
    st.tuples(st.just("form edit"), st.integers(0, 7), GAME_FORM),
    st.tuples(st.just("form undo"), st.integers(-1, 7), st.none()),
    st.tuples(st.just("form redo"), st.none(), st.none()),
    st.tuples(st.just("form new session"), st.fixed_dictionaries(
        {}, optional={"player_1": NAME, "player_2": NAME, "player_3": NAME,
                      "player_4": NAME, "rounds": FORM_TEXT, "preset": st.text(max_size=8),
                      "joker_penalty": FORM_TEXT, "exhausted_pool": st.text(max_size=6)}),
        st.none()),
    st.tuples(st.just("api read"), st.sampled_from(
        ["", "/history", "/games/1", "/games/0", "/games/99999999999999999999", "/games/x",
         "/../nope"]), st.sampled_from(["GET", "POST", "PUT", "DELETE", "PATCH"])),
    st.tuples(st.just("read"), st.sampled_from(
        ["", "/view", "/history", "/sheet.csv", "/games/new", "/games/1/edit"]), st.none()),
)


def do(client: FlaskClient, session_id: str, key: dict[str, str], operation: tuple[Any, ...]
       ) -> tuple[str, Any]:
    kind, first, second = operation
    api = f"/api/v1/sessions/{session_id}"
    page = f"/scores/{session_id}"
    if kind == "api record":
        headers = key if second is None else {**key, "Idempotency-Key": second}
        return api, client.post(f"{api}/games", json=first, headers=headers)
    if kind == "api edit":
        return api, client.put(f"{api}/games/{first}", json=second, headers=key)
    if kind == "api undo":
        return api, client.delete(f"{api}/games/{first}", headers=key)
    if kind == "api redo":
        return api, client.post(f"{api}/redo", headers=key)
    if kind == "api raw":
        return api, client.post(f"{api}/games", data=first, headers={
            **key, "Content-Type": "application/json"})
    if kind == "api new session":
        return api, client.post("/api/v1/sessions", json=first)
    if kind == "api read":
        return api, client.open(f"{api}{first}", method=second, headers=key)
    if kind == "form record":
        return page, client.post(f"{page}/games/new", data=first)
    if kind == "form edit":
        return page, client.post(f"{page}/games/{first}/edit", data=second)
    if kind == "form undo":
        return page, client.post(f"{page}/games/{first}/undo")
    if kind == "form redo":
        return page, client.post(f"{page}/redo")
    if kind == "form new session":
        return page, client.post("/scores/new", data=first)
    return page, client.get(f"{page}{first}")


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow,
                                                                 HealthCheck.function_scoped_fixture])
@given(operations=st.lists(OPERATION, min_size=1, max_size=12))
def test_generated_input_never_breaks_the_score_keeper_or_its_balance(
        app: Flask, operations: list[tuple[Any, ...]]) -> None:
    client = app.test_client()
    created = client.post("/scores/new", data={"player_1": "Ann", "player_2": "Bob",
                                               "player_3": "Cy", "rounds": 2,
                                               "preset": "pressman"})
    session_id = created.location.rsplit("/", 1)[1]
    page = client.get(f"/scores/{session_id}").text
    share = page.split('id="share-link" readonly value="', 1)[1].split('"', 1)[0]
    key = {"Authorization": "Bearer " + share.rsplit("key=", 1)[1]}
    deleted = False
    for operation in operations:
        prefix, answer = do(client, session_id, key, operation)
        assert answer.status_code < 500, (operation, answer.text[:500])
        deleted |= operation[0] == "api read" and operation[1:] == ("", "DELETE") and (
            answer.status_code == 200)
        if prefix.startswith("/api/") and answer.status_code >= 400:
            assert answer.is_json, (operation, answer.text[:200])
            assert {"error", "where"} <= set(answer.json), (operation, answer.json)
            assert isinstance(answer.json["error"], str) and answer.json["error"]
    read = client.get(f"/api/v1/sessions/{session_id}")
    if deleted:  # a generated DELETE of the whole session: it stays gone
        assert read.status_code == 404
        return
    sheet = read.json
    assert all(game["balanced"] for game in sheet["games"]), sheet["games"]
    assert all(total["balanced"] for total in sheet["round_totals"])
    assert sheet["balanced"] is True
    assert [game["number"] for game in sheet["games"]] == list(
        range(1, len(sheet["games"]) + 1))
    for game in sheet["games"]:
        assert sum(game["scores"].values()) == 0 and set(game["scores"]) == set(NAMES)
