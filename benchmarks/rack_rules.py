"""What each rule of the rack step is worth: every rule switched off in turn, every rack set read.

``python -m benchmarks.rack_rules [RULE ...] [--sets SET ...]``: the rack sets (``SETS``: the
24 real racks and 189 real table photos, the 72 real racks with a shadow cast, their 696
phone changes, the composed racks of both designs square-on and seen strongly, the rendered
rack kinds, the classic spreads) read once as shipped, then once per rule in ``RULES``
switched off (a threshold set past its range, or a step replaced by "never"), and each set's
line printed where it differs from the shipped reading. Issue 29 asks for a rack step that
keeps "what the stress sets prove" and drops what they do not: a rule whose lines never
change is proved by none of them.

The table reader's own work (``find_and_read``, the detector's look at the evened band, the
reader's crops) is remembered by its input, so every reading after the first costs only the
rack step: a rule switched off that changes nothing reads in seconds. What it remembers is
held for the run (about 2 GB for every set). Written up in docs/vision.md ("What each rack
rule is worth").
"""

from __future__ import annotations

import argparse
import hashlib
from collections.abc import Callable, Iterator
from contextlib import ExitStack, contextmanager
from typing import Any
from unittest import mock

import cv2
import numpy as np

from companion.vision import networks, rack_rows
from companion.vision import rack as rack_step
from companion.vision.errors import PhotoError
from companion.vision.found import ReadFound

Patch = tuple[Any, str, Any]  # module (or class), attribute, the value it takes while off


def _upright_only(read: ReadFound) -> rack_rows.RackRows:
    """``find_rack`` without the rack looked for turned round."""
    found = rack_rows._rack_in(rack_rows.Tiles.of(read))
    if isinstance(found, PhotoError):
        raise found
    return found


class _NothingLeftOff(rack_step._Around):
    def left_off(self, centre: np.ndarray, tall: float) -> bool:
        return False


def _never(*_: object) -> bool:
    return False


RULES: dict[str, tuple[str, list[Patch]]] = {
    "FOOT_HEIGHT": ("a short outline shows no foot to fit a row's line",
                    [(rack_rows, "FOOT_HEIGHT", 0.0)]),
    "LINE_TILES": ("a piece of a row of four has a line of its own",
                   [(rack_rows, "LINE_TILES", 10**6)]),
    "JOIN_FEET": ("pieces of a row joined across a wide gap", [(rack_rows, "JOIN_FEET", -1.0)]),
    "STRAY_BAND": ("standing tiles off the rows put in the row they stand by",
                   [(rack_rows, "STRAY_BAND", -1.0)]),
    "OFF_RACK_SHARE": ("most large tiles off the row: a table photo refused",
                       [(rack_rows, "OFF_RACK_SHARE", 10**6)]),
    "LONE_TIER_APART": ("a tier of one only just above the rack",
                        [(rack_rows, "LONE_TIER_APART", 1e9)]),
    "RACK_LENGTH": ("the rack and its tiers within one rack's length",
                    [(rack_rows, "RACK_LENGTH", 1e9)]),
    "TIERS=3": ("up to six rows stacked (a spread), not three", [(rack_rows, "TIERS", 3)]),
    "ROW_HEIGHTS": ("a row's neighbours alike tall", [(rack_rows, "ROW_HEIGHTS", (0.0, 1e9))]),
    "ABOVE/BELOW_HEIGHTS": ("a tier's tiles alike tall as the row it stands by",
                            [(rack_rows, "ABOVE_HEIGHTS", (0.0, 1e9)),
                             (rack_rows, "BELOW_HEIGHTS", (0.0, 1e9))]),
    "TIER_PARALLEL": ("tiers' lines parallel", [(rack_rows, "TIER_PARALLEL", 1e9)]),
    "SQUARISH": ("a squarish outline stands as the rack's tiles do",
                 [(rack_rows, "SQUARISH", 1e9)]),
    "turned rack": ("the rack looked for turned round too",
                    [(rack_step, "find_rack", _upright_only)]),
    "turned to the rack": ("boxes across the rack's up read again turned to it",
                           [(rack_step, "_turned_to_the_rack", lambda _i, _s, read: read)]),
    "6 or 9 turned round": ("a 6 or 9 turned round from the rack held unsure",
                            [(rack_step, "_six_or_nine_turned_round", lambda *_: set())]),
    "figure": ("a classic 6 or 9 read by its figure", [(rack_step, "read_by_figure",
                                                         lambda *_: {})]),
    "tile in a gap": ("the reader shown a row's gaps and ends", [(rack_step, "_tile_in_a_gap",
                                                                  _never)]),
    "tiles in the shade": ("the detector shown the evened band",
                           [(rack_step, "_tiles_in_the_shade", lambda *_: None)]),
    "bar": ("a bar seen under the lowest row", [(rack_step, "bar_under", lambda *_: True)]),
    "left off": ("no large or near tile left off a sure rack",
                 [(rack_step, "_Around", _NothingLeftOff)]),
    "SURE_TIERS": ("a sure rack has one or two tiers", [(rack_step, "SURE_TIERS", 10**6)]),
    "SURE_AT_LEAST": ("a sure rack holds two tiles or more", [(rack_step, "SURE_AT_LEAST", 1)]),
    "POOR_READING": ("no sure rack with a tile read poorly", [(rack_step, "POOR_READING", 0.0)]),
}


def _measured_sets() -> dict[str, Callable[[], dict[str, dict[str, Any]]]]:
    from benchmarks import rack_composites, rack_stress, spread_composites, vision

    def real() -> dict[str, dict[str, Any]]:
        found = vision.real_racks()
        return {"real racks": {key: value for key, value in found.items()
                               if key not in ("no rack found", "table photos taken")},
                "real racks shadowed": vision.real_racks_shadowed()}

    def strong() -> dict[str, dict[str, Any]]:
        return {f"{view}, {design.split(' (')[0]}": summary
                for view in rack_composites.STRONG_VIEWS
                for design, summary in rack_composites.measure(24, 2900, view).items()}

    return {
        "real": real,
        "stress": lambda: {"real racks changed": rack_stress.stress()["all"]},
        "composed": lambda: {f"composed {design.split(' (')[0]}": summary for design, summary
                             in rack_composites.measure(48, 2900).items()},
        "strong": strong,
        "kinds": lambda: {"rendered kinds": vision.rack_kinds(8)["all kinds"]},
        "shadow renders": lambda: {"rendered racks shadowed": vision.shadow_racks(30)["all shadows"]},
        "spread": lambda: {f"spread {layout}": summary for layout, summary
                           in spread_composites.measure(12).items()},
    }


SETS = ("real", "stress", "composed", "strong", "kinds", "shadow renders", "spread")


@contextmanager
def remembering_the_networks() -> Iterator[None]:
    """The table reader's work, the detector's and the reader's, each done once per input."""
    memory: dict[str, Any] = {}

    def key(name: str, *arrays: np.ndarray) -> str:
        digest = hashlib.blake2b(name.encode(), digest_size=16)
        digest.update(f"{networks._reader.get()} {networks._detector.get()}".encode())
        for array in arrays:
            array = np.ascontiguousarray(array)
            digest.update(f"{array.shape} {array.dtype}".encode())
            digest.update(array.tobytes())
        return digest.hexdigest()

    def remembered(name: str, work: Callable[..., Any],
                   inputs: Callable[..., tuple[np.ndarray, ...]]) -> Callable[..., Any]:
        def once(*arguments: Any, **options: Any) -> Any:
            known = key(name, *inputs(*arguments))
            if known not in memory:
                memory[known] = work(*arguments, **options)
            return memory[known]
        return once

    with ExitStack() as stack:
        stack.enter_context(mock.patch.object(rack_step, "find_and_read", remembered(
            "find", rack_step.find_and_read,
            lambda photo: (photo.image, np.float64(photo.factor)))))
        stack.enter_context(mock.patch.object(rack_step, "detect_at", remembered(
            "detect", rack_step.detect_at, lambda image, size: (image, np.int64(size)))))
        stack.enter_context(mock.patch.object(rack_step, "read_crops", remembered(
            "crops", rack_step.read_crops, lambda crops: (crops,))))
        yield


@contextmanager
def switched_off(rule: str) -> Iterator[None]:
    """The rack step with ``rule`` (a key of RULES) switched off."""
    with ExitStack() as stack:
        for owner, attribute, value in RULES[rule][1]:
            stack.enter_context(mock.patch.object(owner, attribute, value))
        yield


def measure(sets: tuple[str, ...] = SETS) -> dict[str, dict[str, Any]]:
    measured = _measured_sets()
    results: dict[str, dict[str, Any]] = {}
    for name in sets:
        results |= measured[name]()
    return results


def _line(summary: dict[str, Any]) -> str:
    return ", ".join(f"{key} {value}" for key, value in summary.items())


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("rules", nargs="*", help=f"of: {', '.join(RULES)} (default: all)")
    parser.add_argument("--sets", nargs="*", choices=SETS, default=list(SETS))
    arguments = parser.parse_args()
    unknown = [rule for rule in arguments.rules if rule not in RULES]
    if unknown:
        parser.error(f"no such rule: {', '.join(unknown)}")
    cv2.setNumThreads(1)
    with remembering_the_networks():
        shipped = measure(tuple(arguments.sets))
        print("== as shipped", flush=True)
        for name, summary in shipped.items():
            print(f"  {name}: {_line(summary)}", flush=True)
        for rule in arguments.rules or RULES:
            with switched_off(rule):
                results = measure(tuple(arguments.sets))
            changed = {name: summary for name, summary in results.items()
                       if summary != shipped[name]}
            print(f"== {rule} off ({RULES[rule][0]}): "
                  f"{'changes nothing' if not changed else ''}", flush=True)
            for name, summary in changed.items():
                print(f"  {name}: {_line(summary)}", flush=True)


if __name__ == "__main__":
    main()
