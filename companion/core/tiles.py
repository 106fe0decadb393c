"""Tiles and the notation every way into the app uses.

A numbered tile is a colour letter and a number: ``K7`` black 7, ``R7`` red, ``B7`` blue,
``O7`` orange (``Y7`` is read as orange: some editions print yellow). Jokers are ``J``
(regular) and, in the Twist edition only, ``D`` (double), ``M`` (mirror) and ``C``
(colour-change). Letters are case-insensitive.

Tiles are separated by spaces or commas; sets by ``|``, ``;`` or a new line.

>>> Tile.parse("r7")
Tile.parse('R7')
>>> str(Tile.parse("y12"))
'O12'
>>> format_table(parse_table("R5 R6 J | K7, B7, O7"))
'R5 R6 J | K7 B7 O7'
"""

from __future__ import annotations

import re
from collections import Counter
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from enum import Enum
from operator import attrgetter

LOWEST_NUMBER = 1
HIGHEST_NUMBER = 13
COPIES_OF_EACH_TILE = 2  # "2 sets of tiles numbered 1 to 13 in four colors" (seeds 000, 001)
JOKER_RACK_PENALTY = 30  # "the penalty for having a joker on a rack is 30 points" (seed 000)
MOST_TILES_IN_A_BOX = 104 + 8  # "104 Number Tiles" and 8 jokers in the Twist box (seed 003)
LONGEST_NOTATION = MOST_TILES_IN_A_BOX * len("R13, ") * 8
"""The longest text read as tiles: every tile of the biggest box written out (``R13, `` is the
widest a tile gets with its separator), with eight times that for spaces, line breaks and set
separators. Anything longer is refused before it is read: no real table, rack or photo reading
comes near it, and reading a megabyte of text would cost seconds."""


class Colour(Enum):
    BLACK = "K"
    RED = "R"
    BLUE = "B"
    ORANGE = "O"

    # A member is its own only instance: hashing by identity is exact, and far quicker than
    # Enum's hash of the name (every Tile hashes its colour; the solver hashes many tiles).
    __hash__ = object.__hash__

    @property
    def word(self) -> str:
        return self.name.lower()


class JokerKind(Enum):
    REGULAR = "J"
    DOUBLE = "D"
    MIRROR = "M"
    COLOUR_CHANGE = "C"

    __hash__ = object.__hash__  # as Colour's

    @property
    def word(self) -> str:
        return {
            JokerKind.REGULAR: "joker",
            JokerKind.DOUBLE: "double joker",
            JokerKind.MIRROR: "mirror joker",
            JokerKind.COLOUR_CHANGE: "colour-change joker",
        }[self]


_COLOUR_RANK: dict[Colour, int] = {colour: rank for rank, colour in enumerate(Colour)}
_JOKER_RANK: dict[JokerKind, int] = {kind: rank for rank, kind in enumerate(JokerKind)}
"""Where each colour and joker kind sorts (``Tile.sort_key``): the order they are declared."""

COLOUR_LETTERS: dict[str, Colour] = {c.value: c for c in Colour} | {"Y": Colour.ORANGE}
JOKER_LETTERS: dict[str, JokerKind] = {k.value: k for k in JokerKind}

_NUMBERED = re.compile(r"^([A-Z])(\d+)$")
_SET_SEPARATORS = re.compile(r"[|;\n]")
_TILE_SEPARATORS = re.compile(r"[\s,]+")


NOTATION_PROBLEMS: dict[str, str] = {
    "empty_tile": "an empty tile",
    "run_together": "did you mean {spaced}? Separate the tiles with spaces",
    "zero_for_o": "did you mean {meant}? Orange is the letter O, not the digit 0",
    "number_first": "did you mean {meant}? The colour comes first",
    "colour_without_number": "a colour needs a number, as in R7",
    "not_colour_and_number": ("a tile is a colour letter (K, R, B, O) and a number "
                              "{lowest}–{highest}, as in R7"),
    "not_a_tile": ("not a tile: colours are K (black), R (red), B (blue), O (orange); "
                   "jokers J, D, M, C"),
    "joker_with_number": "a joker has no number: did you mean {letter}?",
    "not_a_colour": "`{letter}` is not a colour: use K (black), R (red), B (blue) or O (orange)",
    "number_out_of_range": "numbers run {lowest}–{highest}",
    "text_too_long": ("the text is {length:,} characters long; a whole box of tiles is written "
                      "in far fewer (at most {longest:,} are read)"),
}
"""The English sentence of each notation error code (``NotationError.code``), with its named
parameters: the CLI and the JSON API say these; the pages say the same codes through their
catalogues."""


class NotationError(ValueError):
    """A token that is not a tile, with where it stands ("set 2, tile 3").

    ``code`` (a key of ``NOTATION_PROBLEMS``) and ``params`` say what is wrong without words;
    ``problem`` and ``str(error)`` say it in English.
    """

    def __init__(self, token: str, code: str, params: dict[str, int | str] | None = None, *,
                 set_number: int | None = None, tile_number: int | None = None,
                 place: str | None = None) -> None:
        self.token = token
        self.code = code
        self.params: dict[str, int | str] = dict(params or {})
        self.problem = NOTATION_PROBLEMS[code].format(**self.params)
        self.set_number = set_number
        self.tile_number = tile_number
        self.place = place
        super().__init__(f"`{self.shown_token}`{self.where_words}: {self.problem}")

    @property
    def shown_token(self) -> str:
        """The token as a message quotes it: a long one is cut short."""
        return self.token if len(self.token) <= 20 else self.token[:12] + "…"

    @property
    def where_words(self) -> str:
        parts = [] if self.place is None else [self.place]
        if self.set_number is not None:
            parts.append(f"set {self.set_number}")
        if self.tile_number is not None:
            parts.append(f"tile {self.tile_number}")
        return (" at " + ", ".join(parts)) if parts else ""

    @property
    def where(self) -> dict[str, int | str]:
        """Machine-readable location, for the JSON answers."""
        location: dict[str, int | str] = {"token": self.token[:20]}
        if self.place is not None:
            location["place"] = self.place
        if self.set_number is not None:
            location["set"] = self.set_number
        if self.tile_number is not None:
            location["tile"] = self.tile_number
        return location


@dataclass(frozen=True, slots=True)
class Tile:
    """One physical tile: a numbered tile (colour and number) or a joker of some kind."""

    colour: Colour | None = None
    number: int | None = None
    joker: JokerKind | None = None

    def __post_init__(self) -> None:
        if self.joker is None:
            if self.colour is None or self.number is None:
                raise ValueError("a numbered tile needs a colour and a number")
            if not LOWEST_NUMBER <= self.number <= HIGHEST_NUMBER:
                raise ValueError(f"numbers run {LOWEST_NUMBER}–{HIGHEST_NUMBER}, not {self.number}")
        elif self.colour is not None or self.number is not None:
            raise ValueError("a joker has no colour or number of its own")

    @classmethod
    def numbered(cls, colour: Colour, number: int) -> Tile:
        return cls(colour=colour, number=number)

    @classmethod
    def of_joker(cls, kind: JokerKind = JokerKind.REGULAR) -> Tile:
        return cls(joker=kind)

    @classmethod
    def parse(cls, token: str, *, set_number: int | None = None,
              tile_number: int | None = None, place: str | None = None) -> Tile:
        """Read one token such as ``R7``, ``y12`` or ``J``; a NotationError says what is wrong
        and, for the usual slips (``J1``, ``R5R6R7``, ``09``), what was probably meant."""
        text = token.strip().upper()

        def fail(code: str, **params: int | str) -> NotationError:
            return NotationError(token.strip(), code, params, set_number=set_number,
                                 tile_number=tile_number, place=place)

        if not text:
            raise fail("empty_tile")
        if text in JOKER_LETTERS:
            return cls.of_joker(JOKER_LETTERS[text])
        match = _NUMBERED.match(text)
        if match is None:
            hint = _did_you_mean(text)
            if hint:
                code, params = hint
                raise fail(code, **params)
            if text[0] in COLOUR_LETTERS and len(text) == 1:
                raise fail("colour_without_number")
            if text[0] in COLOUR_LETTERS or text[0].isdigit():
                raise fail("not_colour_and_number", lowest=LOWEST_NUMBER, highest=HIGHEST_NUMBER)
            raise fail("not_a_tile")
        letter, digits = match.groups()
        if letter in JOKER_LETTERS:
            raise fail("joker_with_number", letter=letter)
        if letter not in COLOUR_LETTERS:
            raise fail("not_a_colour", letter=letter)
        digits = digits.lstrip("0") or "0"
        if len(digits) > len(str(HIGHEST_NUMBER)):  # read no huge number: int() would refuse it
            raise fail("number_out_of_range", lowest=LOWEST_NUMBER, highest=HIGHEST_NUMBER)
        number = int(digits)
        if not LOWEST_NUMBER <= number <= HIGHEST_NUMBER:
            raise fail("number_out_of_range", lowest=LOWEST_NUMBER, highest=HIGHEST_NUMBER)
        return cls.numbered(COLOUR_LETTERS[letter], number)

    def __repr__(self) -> str:
        return f"Tile.parse('{self}')"

    @property
    def is_joker(self) -> bool:
        return self.joker is not None

    def rack_value(self, *, joker_penalty: int = JOKER_RACK_PENALTY) -> int:
        """What the tile costs when it is left on a rack: face value, any joker the session's
        joker penalty (30 unless the session changed it: "the penalty for having a joker on a
        rack is 30 points", seed 000)."""
        return joker_penalty if self.number is None else self.number

    @property
    def words(self) -> str:
        """The tile as a player says it: "red 7", "joker"."""
        if self.joker is not None:
            return self.joker.word
        assert self.colour is not None
        return f"{self.colour.word} {self.number}"

    def sort_key(self) -> tuple[int, int, int]:
        if self.joker is not None:
            return (1, _JOKER_RANK[self.joker], 0)
        assert self.colour is not None and self.number is not None
        return (0, _COLOUR_RANK[self.colour], self.number)

    def __str__(self) -> str:
        if self.joker is not None:
            return self.joker.value
        assert self.colour is not None
        return f"{self.colour.value}{self.number}"


_RUN_TOGETHER = re.compile(r"^(?:[KRBOY](?:1[0-3]|[1-9])|[JDMC]){2,}$")
_ZERO_FOR_O = re.compile(r"^0(1[0-3]|[1-9])$")
_NUMBER_FIRST = re.compile(r"^(1[0-3]|[1-9])([KRBOY])$")


def _did_you_mean(text: str) -> tuple[str, dict[str, int | str]] | None:
    """The code of a slip people make typing tiles and what was probably meant (``text`` is
    upper case)."""
    if _RUN_TOGETHER.match(text):
        return "run_together", {
            "spaced": " ".join(re.findall(r"[KRBOY](?:1[0-3]|[1-9])|[JDMC]", text))}
    zero = _ZERO_FOR_O.match(text)
    if zero:
        return "zero_for_o", {"meant": f"O{zero.group(1)}"}
    number_first = _NUMBER_FIRST.match(text)
    if number_first:
        number, letter = number_first.groups()
        return "number_first", {"meant": f"{COLOUR_LETTERS[letter].value}{number}"}
    return None


Meld = tuple[Tile, ...]
Table = tuple[Meld, ...]


def refuse_long_text(text: str) -> None:
    """Refuse, before reading it, text longer than any real table (``LONGEST_NOTATION``)."""
    if len(text) > LONGEST_NOTATION:
        raise NotationError(text.strip()[:12].strip(), "text_too_long",
                            {"length": len(text), "longest": LONGEST_NOTATION})


class TileSet(tuple[Tile, ...]):
    """One set (or a rack) as a value: a tuple of tiles that parses and prints back.

    >>> TileSet.parse("r5 r6 j")
    TileSet.parse('R5 R6 J')
    >>> str(TileSet.parse("K7, B7, O7"))
    'K7 B7 O7'
    """

    __slots__ = ()

    @classmethod
    def parse(cls, text: str) -> TileSet:
        return parse_tiles(text)

    def __str__(self) -> str:
        return format_tiles(self)

    def __repr__(self) -> str:
        return f"TileSet.parse('{self}')"


class Tabletop(tuple[TileSet, ...]):
    """The sets on the table as a value: parses and prints back.

    >>> Tabletop.parse("R5 R6 J | K7 B7 O7")
    Tabletop.parse('R5 R6 J | K7 B7 O7')
    """

    __slots__ = ()

    @classmethod
    def parse(cls, text: str) -> Tabletop:
        return parse_table(text)

    def __str__(self) -> str:
        return format_table(self)

    def __repr__(self) -> str:
        return f"Tabletop.parse('{self}')"


def parse_tiles(text: str, *, set_number: int | None = None) -> TileSet:
    """Read a run of tiles separated by spaces or commas (one set)."""
    refuse_long_text(text)
    tokens = [t for t in _TILE_SEPARATORS.split(text.strip()) if t]
    return TileSet(Tile.parse(token, set_number=set_number, tile_number=i)
                 for i, token in enumerate(tokens, start=1))


def parse_rack(text: str) -> TileSet:
    """Read a rack: tiles in any order; set separators are tolerated and ignored. A rack has no
    sets, so a bad tile is located as "rack, tile 2" counting every tile of the rack."""
    refuse_long_text(text)
    tokens = [t for t in _TILE_SEPARATORS.split(_SET_SEPARATORS.sub(" ", text).strip()) if t]
    return TileSet(Tile.parse(token, tile_number=i, place="rack")
                 for i, token in enumerate(tokens, start=1))


def parse_table(text: str) -> Tabletop:
    """Read sets separated by ``|``, ``;`` or new lines. Blank sets are skipped.

    Set numbers in error messages count the non-blank sets, as a player counts them.
    """
    refuse_long_text(text)
    chunks = [chunk for chunk in _SET_SEPARATORS.split(text) if chunk.strip()]
    return Tabletop(parse_tiles(chunk, set_number=i) for i, chunk in enumerate(chunks, start=1))


def format_tiles(tiles: Iterable[Tile]) -> str:
    return " ".join(str(tile) for tile in tiles)


def format_table(table: Sequence[Sequence[Tile]]) -> str:
    return " | ".join(format_tiles(meld) for meld in table)


IMPOSSIBLE_TILES: dict[str, str] = {
    "too_many_copies": ("{tile} ({words}) appears {count} times: the game has only {allowed} of "
                        "each tile"),
    "joker_not_in_edition": ("{tile} ({words}): this edition has no {joker}s (bonus jokers come "
                             "only with Twist)"),
    "too_many_jokers": "{tile} appears {count} times: the game has only {allowed} {joker}s",
}
"""The English sentence of each ``ImpossibleTilesError.code``."""


class ImpossibleTilesError(ValueError):
    """More copies of a tile than the box holds: an input error, never a verdict.

    ``code`` (a key of ``IMPOSSIBLE_TILES``) with the tile, count and allowed number says it
    without words; ``str(error)`` says it in English."""

    def __init__(self, tile: Tile, count: int, allowed: int, code: str) -> None:
        self.tile = tile
        self.count = count
        self.allowed = allowed
        self.code = code
        super().__init__(IMPOSSIBLE_TILES[code].format(
            tile=tile, words=tile.words, count=count, allowed=allowed,
            joker=tile.joker.word if tile.joker is not None else ""))

    @property
    def where(self) -> dict[str, int | str]:
        return {"tile": str(self.tile), "count": self.count, "allowed": self.allowed}


_fields = attrgetter("colour", "number", "joker")
"""A tile's fields in the order ``Tile`` takes them."""


def check_inventory(tiles: Iterable[Tile], jokers_in_box: dict[JokerKind, int]) -> None:
    """Refuse a collection of tiles that no real box could hold, naming the tile.

    ``jokers_in_box`` is the edition's joker count by kind (kinds it lacks are absent or 0).
    """
    counts = Counter(map(_fields, tiles))  # quicker than hashing each Tile
    refused = [Tile(*fields) for fields, count in counts.items()
               if count > (COPIES_OF_EACH_TILE if fields[2] is None
                           else jokers_in_box.get(fields[2], 0))]
    if not refused:
        return
    tile = min(refused, key=Tile.sort_key)  # the first a player reading in order meets
    count = counts[_fields(tile)]
    if tile.joker is None:
        raise ImpossibleTilesError(tile, count, COPIES_OF_EACH_TILE, "too_many_copies")
    allowed = jokers_in_box.get(tile.joker, 0)
    if allowed == 0:
        raise ImpossibleTilesError(tile, count, 0, "joker_not_in_edition")
    raise ImpossibleTilesError(tile, count, allowed, "too_many_jokers")


def all_numbered_tiles() -> tuple[Tile, ...]:
    return tuple(Tile.numbered(colour, number) for colour in Colour
                 for number in range(LOWEST_NUMBER, HIGHEST_NUMBER + 1))
