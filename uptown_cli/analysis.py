"""Review of one game, move by move: groups before and after, captures, and (when the racks
are known) how each move compares with the greedy bot's choice; then a summary per player."""

from dataclasses import asdict, dataclass
from typing import Optional

from .bots import greedy_choices
from .geometry import tile_name


@dataclass(frozen=True)
class MoveReview:
    """One move of a game as the review sees it."""

    number: int
    player: str
    color: str
    move: str
    groups_before: int
    groups_after: int
    captured: Optional[str]
    """The captured tile as ``colour tile`` (``blue 7``), or None."""
    greedy_color: Optional[str]
    greedy: Optional[str]
    """Greedy's choice (the move played when it is one of greedy's equal best), or None when
    the racks are unknown."""
    matched: Optional[bool]
    """Whether the move played was one of greedy's equal best."""
    lost: Optional[int]
    """The player's groups after the move played less those after greedy's choice."""


@dataclass(frozen=True)
class PlayerReview:
    """One player's game in figures."""

    name: str
    colors: tuple
    moves: int
    matched: Optional[int]
    """Moves that were one of greedy's best (None when the racks are unknown)."""
    lost_moves: Optional[int]
    """Moves that left more groups than greedy's choice would have."""
    captures_made: int
    captures_suffered: int
    most_groups: int
    final_groups: int


@dataclass(frozen=True)
class Review:
    moves: list
    players: list
    racks_known: bool

    def to_json(self):
        return {
            "racks_known": self.racks_known,
            "moves": [asdict(m) for m in self.moves],
            "players": [asdict(p) for p in self.players],
        }


def rewind(game):
    """Take every move of ``game`` back; returns them (as Turns) in the order played."""
    turns = []
    while game.ply:
        turns.append(game.pop())
    turns.reverse()
    return turns


def review(game, variant="standard"):
    """Review every move of ``game`` (which is rewound and played forward again, ending as it
    was given); greedy scores moves under ``variant``."""
    turns = rewind(game)
    known = game.knows_racks
    players = game.players
    most = {p: game.player_groups(p) for p in players}
    captures = {p: [0, 0] for p in players}  # made, suffered
    rows = []
    for turn in turns:
        player = turn.player
        before = game.player_groups(player)
        greedy_color = greedy = matched = lost = None
        if known:
            best = greedy_choices(game, variant)
            matched = (turn.color, turn.move) in best
            greedy_color, move = (turn.color, turn.move) if matched else best[0]
            greedy_groups = _groups_after(game, player, move, greedy_color)
            greedy = str(move)
        game.play(turn.move, turn.color)
        after = game.player_groups(player)
        if known:
            lost = after - greedy_groups
        captured = None
        if turn.captured is not None:
            victim, tile = turn.captured
            captured = f"{victim} {tile_name(tile)}"
            captures[player][0] += 1
            captures[game.owner(victim)][1] += 1
        for p in players:
            most[p] = max(most[p], game.player_groups(p))
        rows.append(
            MoveReview(turn.number, player.name, turn.color, str(turn.move), before, after, captured,
                       greedy_color, greedy, matched, lost)
        )
    summaries = []
    for p in players:
        own = [r for r in rows if r.player == p.name]
        summaries.append(
            PlayerReview(
                name=p.name,
                colors=p.colors,
                moves=len(own),
                matched=sum(r.matched for r in own) if known else None,
                lost_moves=sum(r.lost > 0 for r in own) if known else None,
                captures_made=captures[p][0],
                captures_suffered=captures[p][1],
                most_groups=most[p],
                final_groups=game.player_groups(p),
            )
        )
    return Review(rows, summaries, known)


def _groups_after(game, player, move, color):
    """The groups ``player`` would have after ``move``."""
    if move.is_pass:
        return game.player_groups(player)
    game.play(move, color)
    groups = game.player_groups(player)
    game.pop()
    return groups
