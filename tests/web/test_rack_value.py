"""POST /api/v1/rack-value: the palette's running value of a rack, counted by the core."""

from __future__ import annotations

from typing import Any

import pytest

from companion.core.racks import rack_value
from companion.core.tiles import parse_rack


def ask(client: Any, payload: Any) -> tuple[int, dict[str, Any]]:
    answer = client.post("/api/v1/rack-value", json=payload)
    return answer.status_code, answer.get_json()


def test_a_rack_is_worth_its_numbers_and_the_penalty_for_each_joker(client: Any) -> None:
    # Seed 000: "the penalty for having a joker on a rack is 30 points" (Pressman).
    status, answer = ask(client, {"rack": "R5 K7, J b13", "preset": "pressman"})
    assert status == 200
    assert answer == {"value": 5 + 7 + 13 + 30, "jokers": 1, "tiles": 4}
    assert answer["value"] == rack_value(parse_rack("R5 K7 J B13"), joker_penalty=30)


def test_a_session_penalty_and_an_empty_rack(client: Any) -> None:
    assert ask(client, {"rack": "J J", "joker_penalty": 25}) == (
        200, {"value": 50, "jokers": 2, "tiles": 2})
    assert ask(client, {"rack": "  "}) == (200, {"value": 0, "jokers": 0, "tiles": 0})


@pytest.mark.parametrize(("payload", "error", "where"), [
    ({"rack": "R5 R14"}, "`R14` at rack, tile 2", {"place": "rack", "tile": 2}),
    ({"rack": "R5 R5 R5"}, "R5", None),
    ({"rack": "D"}, "", None),
    ({"rack": 5}, "`rack` must be a string", {"field": "rack"}),
    ({"rack": "R5", "preset": "chess"}, "", {"field": "preset"}),
    ({"rack": "R5", "joker_penalty": -1}, "joker_penalty", {"field": "joker_penalty"}),
    ({"rack": "R5", "joker_penalty": True}, "joker_penalty", {"field": "joker_penalty"}),
    ([1, 2], "JSON object", None),
])
def test_bad_input_says_what_and_where(client: Any, payload: Any, error: str,
                                       where: Any) -> None:
    status, answer = ask(client, payload)
    assert status == 400
    assert error in answer["error"]
    if where is not None:
        assert answer["where"] == where or set(where.items()) <= set(answer["where"].items())
