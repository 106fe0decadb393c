"""The rack-rules benchmark (``benchmarks.rack_rules``) switches off rules that still exist.

It patches the rack step's own names; a rule renamed or dropped without the benchmark told
would make ``mock.patch.object`` refuse it, or (worse) leave a benchmark line that measures
nothing. Each rule is switched off and back on here, and found as it was afterwards.
"""

from __future__ import annotations

import pytest

from benchmarks.rack_rules import RULES, switched_off


@pytest.mark.parametrize("rule", list(RULES))
def test_each_rule_the_benchmark_switches_off_exists_and_comes_back(rule: str) -> None:
    patches = RULES[rule][1]
    before = [getattr(owner, attribute) for owner, attribute, _ in patches]
    with switched_off(rule):
        assert [getattr(owner, attribute) for owner, attribute, _ in patches] == [
            value for _, _, value in patches]
    assert [getattr(owner, attribute) for owner, attribute, _ in patches] == before
