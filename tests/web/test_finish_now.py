"""Ending an evening early (issue 30): "finish now" makes the standings as they stand final, the
sheet says so, the group's league counts the session; "continue the session" undoes it."""

from __future__ import annotations

from typing import Any

from flask.testing import FlaskClient

from tests.web.groups_helpers import bearer, new_group


def paper(scores: dict[str, int]) -> dict[str, Any]:
    return {"ending": "paper", "scores": scores}


def group_session(client: FlaskClient, rounds: int = 2) -> tuple[str, dict[str, str], str]:
    group_id, group_key = new_group(client)
    answer = client.post("/api/v1/sessions", headers=bearer(group_key),
                         json={"players": ["Ann", "Bob"], "rounds": rounds, "group": group_id})
    assert answer.status_code == 201, answer.json
    return answer.json["id"], bearer(answer.json["edit_key"]), group_id


def test_a_session_finished_after_three_of_four_games_counts_in_the_league(
        client: FlaskClient) -> None:
    session_id, key, group_id = group_session(client)
    for scores in ({"Ann": 10, "Bob": -10}, {"Ann": -4, "Bob": 4}, {"Ann": 7, "Bob": -7}):
        assert client.post(f"/api/v1/sessions/{session_id}/games", json=paper(scores),
                           headers=key).status_code == 201
    league = client.get(f"/api/v1/groups/{group_id}").json
    assert [row["sessions_won"] for row in league["league"]] == [0, 0]  # still in progress

    finished = client.post(f"/api/v1/sessions/{session_id}/finish", headers=key)
    assert finished.status_code == 200, finished.json
    assert finished.json["complete"] is True and finished.json["finished_early"] is True
    assert finished.json["games_played"] == 3 and finished.json["next_game"] is None
    league = client.get(f"/api/v1/groups/{group_id}").json
    won = {row["name"]: row["sessions_won"] for row in league["league"]}
    assert won == {"Ann": 1, "Bob": 0}
    assert league["sessions"][0]["winners"] == ["Ann"]

    refused = client.post(f"/api/v1/sessions/{session_id}/games",
                          json=paper({"Ann": 1, "Bob": -1}), headers=key)
    assert refused.status_code == 409 and "finished early" in refused.json["error"]

    sheet = client.get(f"/scores/{session_id}").get_data(as_text=True)
    assert "Finished early, after game 3 of 4" in sheet
    assert "Record game" not in sheet


def test_continuing_undoes_finish_now_and_the_league_forgets_the_win(
        client: FlaskClient) -> None:
    session_id, key, group_id = group_session(client)
    client.post(f"/api/v1/sessions/{session_id}/games", json=paper({"Ann": 5, "Bob": -5}),
                headers=key)
    assert client.post(f"/api/v1/sessions/{session_id}/finish", headers=key).status_code == 200
    again = client.delete(f"/api/v1/sessions/{session_id}/finish", headers=key)
    assert again.status_code == 200
    assert again.json["complete"] is False and again.json["next_game"] == {"number": 2,
                                                                          "round": 1}
    league = client.get(f"/api/v1/groups/{group_id}").json
    assert [row["sessions_won"] for row in league["league"]] == [0, 0]
    assert client.post(f"/api/v1/sessions/{session_id}/games",
                       json=paper({"Ann": 1, "Bob": -1}), headers=key).status_code == 201
    twice = client.delete(f"/api/v1/sessions/{session_id}/finish", headers=key)
    assert twice.status_code == 409 and "not finished early" in twice.json["error"]


def test_finish_now_needs_a_game_and_the_edit_key(client: FlaskClient) -> None:
    session_id, key, _group_id = group_session(client)
    empty = client.post(f"/api/v1/sessions/{session_id}/finish", headers=key)
    assert empty.status_code == 409 and "nothing to finish" in empty.json["error"]
    assert client.post(f"/api/v1/sessions/{session_id}/finish").status_code == 401
    assert client.post("/api/v1/sessions/nope/finish", headers=key).status_code == 404


def test_the_sheet_buttons_finish_and_continue(client: FlaskClient) -> None:
    session_id, key, _group_id = group_session(client, rounds=1)
    client.post(f"/api/v1/sessions/{session_id}/games", json=paper({"Ann": 5, "Bob": -5}),
                headers=key)
    # this browser gets the right to edit through the share link
    joined = client.get(f"/scores/{session_id}/join?key={key['Authorization'][7:]}")
    assert joined.status_code == 302
    page = client.get(f"/scores/{session_id}").get_data(as_text=True)
    assert "Finish now" in page
    finished = client.post(f"/scores/{session_id}/finish", follow_redirects=True)
    text = finished.get_data(as_text=True)
    assert "these are the final standings" in text and "Continue the session" in text
    assert "Record game" not in text
    resumed = client.post(f"/scores/{session_id}/continue", follow_redirects=True)
    assert "Record game 2" in resumed.get_data(as_text=True)
