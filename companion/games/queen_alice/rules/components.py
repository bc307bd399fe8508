"""Queen Alice's components beyond the chessboard, read from `models/queen-alice/*.toml`.

The rulebook shows the cards, the Action boards, Alice's Paths, the Cat tracks, the Wishes
and the Courtier board only in pictures, so all of them are data a user edits to match their
box; the engine reads them through `Components` and holds no value of its own. Every reward
anywhere is one `Reward`, a small vocabulary (docs/queen-alice.md lists its keys), so one
resolver in `rewards.py` pays all of them.
"""

from __future__ import annotations

from dataclasses import dataclass, fields
from functools import lru_cache
from pathlib import Path
from typing import Any

from companion.errors import UserError
from companion.games.queen_alice.rules.board import COLOURS, KINDS
from companion.paths import models_dir, read_model_toml

ACTIONS: tuple[str, ...] = ("hearts", "spades", "clubs", "diamonds")
LEVELS: tuple[str, ...] = ("bronze", "silver", "gold")
STORED: tuple[str, ...] = ("cake", "tea", "toast")
"""The three resources a cube can hold."""


@dataclass(frozen=True)
class Reward:
    """Anything a space, card, token or track gives. `pawprint`, `alice` and `crown` are of
    the context's colour (the action's, the track's) unless `colour` names one."""

    time: int = 0
    ip: int = 0
    cake: int = 0
    tea: int = 0
    toast: int = 0
    resource: int = 0  # of the player's choice
    black: int = 0  # Black cubes unlocked
    pawprint: int = 0
    alice: int = 0
    crown: int = 0
    mini: int = 0  # Mini-actions of the player's choice
    cull: int = 0  # Invitations
    card: str = ""  # acquire a card of this level from the market (paying its block)
    book: str = ""  # a Book of this colour
    flower: str = ""  # a Live Flower of this colour
    colour: str = ""

    def needs_colour(self) -> bool:
        """True when it gives something of a colour without naming one."""
        return bool(self.pawprint or self.alice or self.crown) and not self.colour


_INT_KEYS = {f.name for f in fields(Reward) if f.type == "int"}
_STR_KEYS = {f.name for f in fields(Reward) if f.type == "str"}
NOTHING = Reward()


def reward(value: Any, where: str) -> Reward:
    """A Reward from a TOML inline table; a wrong key or value is one UserError."""
    if value is None:
        return NOTHING
    if not isinstance(value, dict):
        raise UserError(f"{where}: a reward must be a table like {{ ip = 2 }}")
    for key, v in value.items():
        if key in _INT_KEYS:
            if not isinstance(v, int) or isinstance(v, bool) or v < 0:
                raise UserError(f"{where}: {key} must be a whole number >= 0")
        elif key in _STR_KEYS:
            if not isinstance(v, str):
                raise UserError(f"{where}: {key} must be a name")
        else:
            known = ", ".join(sorted(_INT_KEYS | _STR_KEYS))
            raise UserError(f"{where}: unknown reward {key!r} (known: {known})")
    if value.get("card", "") not in ("", *LEVELS):
        raise UserError(f"{where}: card must be one of {', '.join(LEVELS)}")
    if value.get("colour", "") not in ("", *COLOURS):
        raise UserError(f"{where}: colour must be red or white")
    return Reward(**value)


@dataclass(frozen=True)
class Card:
    id: str
    level: str  # basic, bronze, silver, gold
    colour: str  # red, white or wild
    kind: str
    play: Reward
    discard: Reward
    invite: int
    discount: int = 0  # resources off this turn's action (the rulebook: once per turn)
    discount_action: str = ""  # the action it is for; "" any


@dataclass(frozen=True)
class HeartToken:
    cost: int
    reward: Reward


@dataclass(frozen=True)
class MessengerSpace:
    next: tuple[int, ...]
    reward: Reward
    banner: str
    seal_large: Reward | None
    seal_small: Reward | None
    central: bool
    bifurcation: bool


@dataclass(frozen=True)
class TreeSpace:
    height: int
    reward: Reward
    covered: Reward
    book: bool


@dataclass(frozen=True)
class Arrow:
    start: int
    end: int
    yellow: int  # Cakes (red Twin) or Toasts (white Twin)
    pay: tuple[str, ...]  # a black arrow's resources: cake, tea, toast or any

    @property
    def black(self) -> bool:
        return not self.yellow


@dataclass(frozen=True)
class Bookmark:
    id: str
    cost: tuple[tuple[str, int], ...]
    kind: str  # instant, permanent, endgame
    reward: Reward
    ip: int
    copies: int


@dataclass(frozen=True)
class AliceSpace:
    ip: int
    wish: bool


@dataclass(frozen=True)
class FlowerBenefit:
    """A Live Flower's permanent benefit: `reward` each time `when` happens, or a larger
    hand (flowers.toml lists the `WHENS`)."""

    when: str = ""
    reward: Reward = Reward()
    hand_size: int = 0
    discount: int = 0  # resources let off `action` every time it is performed
    action: str = ""  # the action discounted; "" any


WHENS: tuple[str, ...] = (*("hearts", "spades", "clubs", "diamonds"), "capture", "rescue", "rest")


@dataclass(frozen=True)
class TrainSide:
    """One side of a Train card: only what it shows is gained (the rulebook)."""

    reward: Reward = Reward()
    twin: int = -1  # the tree space the side's colour's Twin moves to; -1 none
    messenger: int = -1  # the Messenger space the side's colour's Messenger moves to
    bookmark: str = ""  # a Bookmark gained free


@dataclass(frozen=True)
class TrainCard:
    id: str
    red: TrainSide
    white: TrainSide

    def side(self, colour: str) -> TrainSide:
        return self.red if colour == "red" else self.white


@dataclass(frozen=True)
class WishTile:
    id: str
    icon: str
    counts: str
    standard: int
    platinum: int


WISH_COUNTS: tuple[str, ...] = (
    "bushes",
    "messengers",
    "books",
    "diamonds",
    "flowers",
    "crowns",
    "guests",
    "pawprints",
)


@dataclass(frozen=True)
class Components:
    cards: dict[str, Card]
    basic: tuple[str, ...]
    decks: dict[str, tuple[str, ...]]  # level -> card ids
    hand_size: int
    time_max: int
    time_per_resource: int
    repeat_time: int
    decline_time: int
    coloured_cubes: int
    black_cubes: int
    block_costs: tuple[Reward, ...]
    hearts: dict[str, tuple[HeartToken, ...]]
    hearts_supply: int
    diamonds_supply: int
    diamonds: dict[str, tuple[Reward, ...]]
    heart_milestones: dict[int, Reward]
    garden: dict[str, tuple[tuple[Reward, ...], ...]]
    garden_covered: dict[str, tuple[tuple[int, int], ...]]
    gardener_tea: int
    gardener_ring: bool  # the Gardener's spaces close in a ring (left of the first: the last)
    messengers: tuple[MessengerSpace, ...]
    messenger_cost: tuple[int, ...]
    messenger_time: tuple[int, ...]
    tree: tuple[TreeSpace, ...]
    arrows: tuple[Arrow, ...]
    book_colours: tuple[str, ...]
    bookmarks: tuple[Bookmark, ...]
    wall: dict[str, tuple[tuple[Reward, ...], ...]]
    wall_row_cost: tuple[int, ...]
    wall_column_tea: tuple[int, ...]
    wall_covered: dict[str, tuple[tuple[int, int], ...]]
    same_level_ip: int
    row_complete_ip: int
    crowns: dict[int, int]
    absence_ip: int
    after_throne_ip: int
    crown_multiplier: int
    alice: dict[str, tuple[AliceSpace, ...]]
    alice_covered: dict[str, tuple[int, ...]]
    cats: dict[str, tuple[Reward, ...]]
    cat_x1: int
    cat_x2: int
    wishes: dict[str, WishTile]
    readings: dict[str, str]
    flowers: dict[str, FlowerBenefit]  # per Live Flower colour, in flowers.toml order
    flower_supply: int
    flower_stacking: str  # per_colour or per_flower
    train: dict[str, TrainCard]
    train_dealt: int

    def tokens(self, kind: str, colour: str, players: int) -> int:
        """Heart or Diamond tokens of `colour` a player has: the Courtier board's column, or
        with `small_supplies = "skip"` the box's supply shared out (milestones beyond it are
        never reached)."""
        listed = len(self.hearts[colour] if kind == "hearts" else self.diamonds[colour])
        if self.readings["small_supplies"] == "unlimited":
            return listed
        supply = self.hearts_supply if kind == "hearts" else self.diamonds_supply
        return min(listed, supply // (2 * players))

    def wish_spaces(self) -> tuple[tuple[str, int], ...]:
        """Every Wish space as (colour, index), red first: where the four Wishes go."""
        return tuple((c, i) for c in COLOURS for i, s in enumerate(self.alice[c]) if s.wish)


def _whole(value: Any, where: str, low: int = 0) -> int:
    if not isinstance(value, int) or isinstance(value, bool) or value < low:
        raise UserError(f"{where} must be a whole number >= {low}, got {value!r}")
    return value


def _cards(data: dict[str, Any], where: str) -> tuple[dict[str, Card], dict[str, tuple[str, ...]]]:
    cards: dict[str, Card] = {}
    decks: dict[str, tuple[str, ...]] = {}
    for level in ("basic", *LEVELS):
        ids = []
        for i, item in enumerate(data.get(level, [])):
            at = f"{where} [[{level}]] {i}"
            cid = item.get("id")
            if not isinstance(cid, str) or not cid or cid in cards:
                raise UserError(f"{at}: every card needs its own id, got {cid!r}")
            piece = str(item.get("piece", "")).split()
            if len(piece) != 2 or piece[0] not in (*COLOURS, "wild") or piece[1] not in KINDS:
                raise UserError(f"{at}: piece must be 'red|white|wild KIND', got {piece!r}")
            cards[cid] = Card(
                cid,
                level,
                piece[0],
                piece[1],
                reward(item.get("play"), f"{at} play"),
                reward(item.get("discard"), f"{at} discard"),
                _whole(item.get("invite", 0), f"{at} invite"),
                *_discount(item.get("discount"), f"{at} discount"),
            )
            if level == "basic" and (cards[cid].play != NOTHING or cards[cid].discount):
                raise UserError(f"{at}: Basic cards have no play bonus (the rulebook)")
            if piece[0] == "wild" and cards[cid].discard.needs_colour():
                raise UserError(
                    f"{at}: a wild card's pawprint, alice or crown discard reward "
                    'must name its colour (colour = "red" or "white")'
                )
            ids.append(cid)
        if not ids:
            raise UserError(f"{where}: no [[{level}]] cards")
        decks[level] = tuple(ids)
    return cards, decks


def _discount(value: Any, where: str) -> tuple[int, str]:
    """A card's `discount = { units = N, action = "hearts" }` (action left out: any)."""
    if value is None:
        return 0, ""
    if not isinstance(value, dict) or set(value) - {"units", "action"}:
        raise UserError(f'{where}: a discount is a table like {{ units = 1, action = "hearts" }}')
    action = value.get("action", "")
    if action not in ("", *ACTIONS):
        raise UserError(f"{where}: action must be one of {', '.join(ACTIONS)}")
    return _whole(value.get("units"), f"{where} units", 1), action


def _per_colour(table: Any, where: str) -> dict[str, Any]:
    if not isinstance(table, dict) or not all(c in table for c in COLOURS):
        raise UserError(f"{where} must give red and white")
    return table


def _reward_rows(table: Any, at: str, name: str) -> dict[str, tuple[tuple[Reward, ...], ...]]:
    """Each colour's rows of rewards, read one way for the garden's zones and the wall's rows
    (an error names the file, the track and the colour)."""
    return {
        c: tuple(
            tuple(reward(r, f"{at} {name} {c}") for r in row)
            for row in _per_colour(table, f"{at} [{name}]")[c]
        )
        for c in COLOURS
    }


def _cells(value: Any, where: str) -> dict[str, tuple[tuple[int, int], ...]]:
    table = _per_colour(value or {"red": [], "white": []}, where)
    return {c: tuple((int(a), int(b)) for a, b in table[c]) for c in COLOURS}


def components_from_toml(
    files: dict[str, dict[str, Any]], where: str, readings: dict[str, str]
) -> Components:
    cards_t, court, paths, acts, wish_t, flowers_t, train_t = (
        files[k] for k in ("cards", "courtier", "paths", "actions", "wishes", "flowers", "train")
    )
    cards, decks = _cards(cards_t, f"{where}/cards.toml")
    at = f"{where}/courtier.toml"
    hearts = {
        c: tuple(
            HeartToken(
                _whole(h["cost"], f"{at} hearts {c}"), reward(h.get("reward"), f"{at} hearts {c}")
            )
            for h in _per_colour(court.get("hearts"), f"{at} [hearts]")[c]
        )
        for c in COLOURS
    }
    diamonds = {
        c: tuple(
            reward(r, f"{at} diamonds {c}")
            for r in _per_colour(court.get("diamonds"), f"{at} [diamonds]")[c]
        )
        for c in COLOURS
    }
    milestones = {
        int(k): reward(v, f"{at} milestones")
        for k, v in court.get("milestones", {}).get("hearts", {}).items()
    }
    time_t, cubes = court.get("time", {}), court.get("cubes", {})
    at = f"{where}/actions.toml"
    garden_t = acts.get("garden", {})
    garden = _reward_rows(garden_t, at, "garden")
    msg = acts.get("messengers", {})
    spaces = []
    for i, s in enumerate(msg.get("spaces", [])):
        seal = s.get("seal")
        spaces.append(
            MessengerSpace(
                tuple(s.get("next", [])),
                reward(s.get("reward"), f"{at} messengers {i}"),
                s.get("banner", ""),
                None if seal is None else reward(seal.get("large"), f"{at} seal {i}"),
                None if seal is None else reward(seal.get("small"), f"{at} seal {i}"),
                bool(s.get("central", False)),
                bool(s.get("bifurcation", False)),
            )
        )
    for i, s in enumerate(spaces):
        if any(not 0 <= n < len(spaces) or n <= i for n in s.next):
            raise UserError(f"{at}: messengers space {i}: next must name later spaces")
        if s.banner not in ("", *LEVELS):
            raise UserError(f"{at}: messengers space {i}: banner must be a card level")
    tree_t = acts.get("tree", {})
    tree = tuple(
        TreeSpace(
            _whole(s.get("height"), f"{at} tree {i} height", 1),
            reward(s.get("reward"), f"{at} tree {i}"),
            reward(s.get("covered"), f"{at} tree {i}"),
            bool(s.get("book")),
        )
        for i, s in enumerate(tree_t.get("spaces", []))
    )
    arrows = tuple(
        Arrow(a["from"], a["to"], a.get("yellow", 0), tuple(a.get("pay", ())))
        for a in tree_t.get("arrows", [])
    )
    for a in arrows:
        if not (0 <= a.start < a.end < len(tree)) or bool(a.yellow) == bool(a.pay):
            raise UserError(
                f"{at}: tree arrow {a.start}->{a.end} must go up and be either "
                "yellow = n or pay = [...]"
            )
        if not set(a.pay) <= {*STORED, "any"}:
            raise UserError(
                f"{at}: tree arrow {a.start}->{a.end}: pay names cake, tea, toast or any"
            )
    books = tuple(tree_t.get("book_colours", ()))
    bookmarks = tuple(
        Bookmark(
            b["id"],
            tuple(sorted(b.get("cost", {}).items())),
            b["kind"],
            reward(b.get("reward"), f"{at} bookmark {b['id']}"),
            _whole(b.get("ip", 0), f"{at} bookmark ip"),
            _whole(b.get("copies", 1), f"{at} bookmark copies", 1),
        )
        for b in acts.get("bookmarks", [])
    )
    for b in bookmarks:
        if b.reward.needs_colour():
            raise UserError(
                f"{at}: bookmark {b.id}: a pawprint, alice or crown reward must "
                'name its colour (colour = "red" or "white")'
            )
        if b.kind not in ("instant", "permanent", "endgame"):
            raise UserError(f"{at}: bookmark {b.id}: kind must be instant, permanent or endgame")
        if not {k for k, _ in b.cost} <= set(books):
            raise UserError(f"{at}: bookmark {b.id}: cost names a Book colour not in book_colours")
    wall_t = acts.get("wall", {})
    wall = _reward_rows(wall_t, at, "wall")
    at = f"{where}/paths.toml"
    crowns_t = paths.get("crowns", {})
    alice = {
        c: tuple(
            AliceSpace(_whole(s.get("ip", 0), f"{at} alice {c}"), bool(s.get("wish")))
            for s in _per_colour(paths.get("alice"), f"{at} [alice]")[c]
        )
        for c in COLOURS
    }
    cats_t = paths.get("cats", {})
    wishes = {}
    for w in wish_t.get("wishes", []):
        tile = WishTile(
            w["id"],
            w["icon"],
            w["counts"],
            _whole(w["standard"], "standard"),
            _whole(w["platinum"], "platinum"),
        )
        if tile.icon not in ACTIONS or tile.counts not in WISH_COUNTS:
            raise UserError(
                f"{where}/wishes.toml: {tile.id}: icon must be one of "
                f"{', '.join(ACTIONS)}, counts one of {', '.join(WISH_COUNTS)}"
            )
        wishes[tile.id] = tile
    found = Components(
        cards=cards,
        basic=decks.pop("basic"),
        decks=decks,
        hand_size=_whole(cards_t.get("hand_size"), "cards.toml hand_size", 1),
        time_max=_whole(time_t.get("max"), "courtier.toml [time] max", 1),
        time_per_resource=_whole(time_t.get("per_resource"), "[time] per_resource", 1),
        repeat_time=_whole(time_t.get("repeat"), "[time] repeat"),
        decline_time=_whole(time_t.get("decline"), "[time] decline"),
        coloured_cubes=_whole(cubes.get("coloured"), "[cubes] coloured"),
        black_cubes=_whole(cubes.get("black"), "[cubes] black"),
        block_costs=tuple(
            reward(r, "courtier.toml [market]")
            for r in court.get("market", {}).get("block_costs", [])
        ),
        hearts=hearts,
        diamonds=diamonds,
        hearts_supply=_whole(court["hearts"].get("supply"), "[hearts] supply"),
        diamonds_supply=_whole(court["diamonds"].get("supply"), "[diamonds] supply"),
        heart_milestones=milestones,
        garden=garden,
        garden_covered=_cells(garden_t.get("three_player_covered"), "garden"),
        gardener_tea=_whole(garden_t.get("gardener_move_tea", 1), "gardener_move_tea"),
        gardener_ring=bool(garden_t.get("gardener_ring", True)),
        messengers=tuple(spaces),
        messenger_cost=tuple(msg.get("cost", (1, 2, 2))),
        messenger_time=tuple(msg.get("time", (0, 0, 1))),
        tree=tree,
        arrows=arrows,
        book_colours=books,
        bookmarks=bookmarks,
        wall=wall,
        wall_row_cost=tuple(wall_t.get("row_cost", ())),
        wall_column_tea=tuple(wall_t.get("column_tea", ())),
        wall_covered=_cells(wall_t.get("three_player_covered"), "wall"),
        same_level_ip=_whole(wall_t.get("same_level_ip"), "same_level_ip"),
        row_complete_ip=_whole(wall_t.get("row_complete_ip"), "row_complete_ip"),
        crowns={
            int(k): _whole(v, "crowns display") for k, v in crowns_t.get("display", {}).items()
        },
        absence_ip=_whole(crowns_t.get("absence_ip"), "absence_ip"),
        after_throne_ip=_whole(crowns_t.get("after_throne_ip"), "after_throne_ip"),
        crown_multiplier=_whole(crowns_t.get("crown_multiplier"), "crown_multiplier"),
        alice=alice,
        alice_covered={
            c: tuple(v)
            for c, v in _per_colour(
                paths["alice"].get("three_player_covered"), "alice covered"
            ).items()
            if c in COLOURS
        },
        cats={
            c: tuple(reward(r, f"{at} cats {c}") for r in _per_colour(cats_t, "[cats]")[c])
            for c in COLOURS
        },
        cat_x1=_whole(cats_t.get("x1"), "cats x1", 1),
        cat_x2=_whole(cats_t.get("x2"), "x2", 1),
        wishes=wishes,
        readings=readings,
        **_flowers(flowers_t, f"{where}/flowers.toml"),
        train=_train(train_t, f"{where}/train.toml"),
        train_dealt=_whole(train_t.get("dealt"), f"{where}/train.toml dealt", 1),
    )
    _check(found, where)
    return found


def _flowers(table: dict[str, Any], where: str) -> dict[str, Any]:
    benefits: dict[str, FlowerBenefit] = {}
    for name, item in (table.get("benefits") or {}).items():
        at = f"{where} [benefits] {name}"
        if isinstance(item, dict) and "discount" in item:
            spec = {"units": item["discount"], "action": item.get("action", "")}
            units, action = _discount(spec, at)
            if set(item) - {"discount", "action"}:
                raise UserError(f"{at}: a discount is a benefit of its own (no when or reward)")
            benefits[name] = FlowerBenefit(discount=units, action=action)
            continue
        if not isinstance(item, dict) or set(item) - {"when", "reward", "hand_size"}:
            raise UserError(
                f"{at}: a benefit is {{ when = ..., reward = {{...}} }}, {{ hand_size = N }} "
                'or { discount = N, action = "hearts" }'
            )
        if "hand_size" in item:
            if set(item) != {"hand_size"}:
                raise UserError(f"{at}: hand_size is a benefit of its own (no when or reward)")
            benefits[name] = FlowerBenefit(
                hand_size=_whole(item["hand_size"], f"{at} hand_size", 1)
            )
            continue
        when = item.get("when")
        if when not in WHENS:
            raise UserError(f"{at}: when must be one of {', '.join(WHENS)}")
        got = reward(item.get("reward"), at)
        if when == "rest" and got.needs_colour():
            raise UserError(
                f'{at}: a pawprint, alice or crown at Rest must name its colour (colour = "red")'
            )
        benefits[name] = FlowerBenefit(when, got)
    if not benefits:
        raise UserError(f"{where}: [benefits] lists no Live Flower")
    stacking = table.get("stacking")
    if stacking not in ("per_colour", "per_flower"):
        raise UserError(f"{where}: stacking must be per_colour or per_flower")
    return {
        "flowers": benefits,
        "flower_supply": _whole(table.get("supply"), f"{where} supply"),
        "flower_stacking": stacking,
    }


def _train(table: dict[str, Any], where: str) -> dict[str, TrainCard]:
    cards: dict[str, TrainCard] = {}
    for i, item in enumerate(table.get("cards", [])):
        cid = item.get("id")
        if not isinstance(cid, str) or not cid or cid in cards:
            raise UserError(f"{where} [[cards]] {i}: every Train card needs its own id")
        sides = []
        for colour in COLOURS:
            at = f"{where} {cid} {colour}"
            side = item.get(colour)
            if not isinstance(side, dict) or set(side) - {
                "reward",
                "twin",
                "messenger",
                "bookmark",
            }:
                raise UserError(f"{at}: a side is a table of reward, twin, messenger, bookmark")
            sides.append(
                TrainSide(
                    reward(side.get("reward"), at),
                    _whole(side.get("twin", -1), f"{at} twin", -1),
                    _whole(side.get("messenger", -1), f"{at} messenger", -1),
                    str(side.get("bookmark", "")),
                )
            )
        cards[cid] = TrainCard(cid, *sides)
    return cards


def _rewards(c: Components) -> list[tuple[str, Reward]]:
    """Every reward of the box with where it is (for checks that span the files)."""
    found: list[tuple[str, Reward]] = []
    for card in c.cards.values():
        found += [(f"cards.toml {card.id}", card.play), (f"cards.toml {card.id}", card.discard)]
    for colour in COLOURS:
        found += [(f"courtier.toml hearts {colour}", h.reward) for h in c.hearts[colour]]
        found += [(f"courtier.toml diamonds {colour}", r) for r in c.diamonds[colour]]
        found += [(f"actions.toml garden {colour}", r) for z in c.garden[colour] for r in z]
        found += [(f"actions.toml wall {colour}", r) for row in c.wall[colour] for r in row]
        found += [(f"paths.toml cats {colour}", r) for r in c.cats[colour]]
    found += [("actions.toml messengers", s.reward) for s in c.messengers]
    found += [("actions.toml tree", r) for s in c.tree for r in (s.reward, s.covered)]
    found += [(f"actions.toml bookmark {b.id}", b.reward) for b in c.bookmarks]
    found += [(f"flowers.toml {n}", b.reward) for n, b in c.flowers.items()]
    found += [(f"train.toml {t.id}", t.side(k).reward) for t in c.train.values() for k in COLOURS]
    return found


def _check(c: Components, where: str) -> None:
    """What the rulebook fixes, checked so an edited file cannot break the engine quietly."""
    for colour in COLOURS:
        if sum(s.wish for s in c.alice[colour]) != 2:
            raise UserError(f"{where}/paths.toml: each Alice's Path has 2 Wish spaces")
        if c.alice[colour][-1].wish or c.alice[colour][0].wish:
            raise UserError(f"{where}/paths.toml: the start and the Throne are not Wish spaces")
        if len(c.garden[colour]) < 1 or any(not z for z in c.garden[colour]):
            raise UserError(f"{where}/actions.toml: [garden] {colour} needs zones with spaces")
        rows = c.wall[colour]
        if len(rows) != len(c.wall_row_cost) or any(len(r) != len(c.wall_column_tea) for r in rows):
            raise UserError(
                f"{where}/actions.toml: [wall] {colour} must be row_cost rows of column_tea columns"
            )
    if {w.icon for w in c.wishes.values()} != set(ACTIONS):
        raise UserError(f"{where}/wishes.toml: every icon needs at least one Wish")
    if not c.cat_x1 <= c.cat_x2 <= len(c.cats["red"]):
        raise UserError(f"{where}/paths.toml: [cats] needs x1 <= x2 <= the track's length")
    if len(c.block_costs) != 3:
        raise UserError(f"{where}/courtier.toml: [market] block_costs lists 3 blocks")
    if set(c.crowns) != {2, 3, 4}:
        raise UserError(f"{where}/paths.toml: [crowns] display gives 2, 3 and 4 players")
    for at, got in _rewards(c):
        if got.flower and got.flower not in c.flowers:
            raise UserError(f"{where}/{at}: no Live Flower {got.flower!r} in flowers.toml")
        if got.book and got.book not in c.book_colours:
            raise UserError(f"{where}/{at}: no Book colour {got.book!r} in actions.toml")
    _check_train(c, where)
    if len(c.messenger_cost) != 3 or len(c.messenger_time) != 3:
        raise UserError(f"{where}/actions.toml: [messengers] cost and time list 3 numbers")


def _check_train(c: Components, where: str) -> None:
    if len(c.train) < 4 * c.train_dealt:
        raise UserError(f"{where}/train.toml: 4 players need {4 * c.train_dealt} Train cards")
    first_arrows = {a.end for a in c.arrows if a.start == 0}
    marks = {b.id for b in c.bookmarks}
    for card in c.train.values():
        for colour in COLOURS:
            side, at = card.side(colour), f"{where}/train.toml: {card.id} {colour}"
            if side.twin != -1 and side.twin not in first_arrows:
                raise UserError(f"{at}: twin must be a tree space one arrow up from the start")
            if side.messenger != -1 and side.messenger not in c.messengers[0].next:
                raise UserError(f"{at}: messenger must be a space one step from the start")
            if side.bookmark and side.bookmark not in marks:
                raise UserError(f"{at}: no Bookmark {side.bookmark!r} in actions.toml")


READINGS: dict[str, tuple[str, ...]] = {
    "component_counts": ("per_player_setup", "components"),
    "blank_diamond_milestones": ("as_hearts", "none"),
    "small_supplies": ("unlimited", "skip"),
}


@lru_cache(maxsize=4)
def load_components(folder: Path | None = None) -> Components:
    """Every component file of `models/queen-alice/` (or `folder`)."""
    base = folder or models_dir() / "queen-alice"
    files = {
        name: read_model_toml(base / f"{name}.toml")
        for name in (
            "cards",
            "courtier",
            "paths",
            "actions",
            "wishes",
            "flowers",
            "train",
            "scoring",
        )
    }
    readings = files["scoring"].get("readings", {})
    for key, allowed in READINGS.items():
        if readings.get(key) not in allowed:
            raise UserError(
                f"{base}/scoring.toml: [readings] {key} must be one of {', '.join(allowed)}"
            )
    return components_from_toml(files, str(base), {k: readings[k] for k in READINGS})
