"""Candidate networks measured in place of the shipped ones, from a benchmark's command line."""

from __future__ import annotations

import argparse
from pathlib import Path

# option name → the networks module's attribute naming the shipped file
NETWORKS = {"reader": "READER_FILE", "detector": "DETECTOR_FILE",
            "classic_reader": "CLASSIC_READER_FILE", "classic_detector": "CLASSIC_DETECTOR_FILE"}


def add_candidate_options(parser: argparse.ArgumentParser, *names: str) -> None:
    """``--reader``, ``--detector``, ``--classic-reader``, ``--classic-detector`` (or those
    ``names``): an ONNX file to measure instead of the shipped network."""
    for name in names or NETWORKS:
        network = name.replace("_", " ")
        parser.add_argument(f"--{name.replace('_', '-')}", type=Path,
                            help=f"measure this {network} ONNX file instead of the shipped one")


def use_candidates(args: argparse.Namespace) -> None:
    """Read with the candidate networks ``args`` name (``add_candidate_options``)."""
    from companion.vision import networks

    for name, attribute in NETWORKS.items():
        candidate = getattr(args, name, None)
        if candidate is not None:
            setattr(networks, attribute, candidate)
