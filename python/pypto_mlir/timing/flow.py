"""The cross-core flow control of a pipe ring, as the public pto-isa library implements `TPUSH` / `TPOP` /
`TFREE` (docs/timing-model.md *Flow control* names the files each rule is read from).  The timing model's replay
(`timeline.replay`) asks these functions; nothing else restates them.

A ring of `slot_num` slots is driven by two counters, the producer's and the consumer's *tile index* (how many
tiles each has pushed / popped on that ring so far), and two kinds of cross-core flag:

* every push ends by signalling *ready*, and every pop starts by waiting for it (one flag per tile);
* the consumer signals *free* only once per `sync_period(slot_num)` tiles, and the producer waits for a free
  flag only at some pushes (`producer_waits`): the first `slot_num` pushes never wait, later ones only every
  `sync_period` tiles.  The flags count: the producer's w-th wait consumes the consumer's w-th free signal.

When the consumer signals free depends on where the ring is (`releases_at_pop`): on a2a3 the ring is in GM and a
tile `tpop` copies the tile out of it, then signals at once (its `tfree` does nothing); on a5 the ring is in the
consumer's own memory (UB for cube -> vector, L1 for vector -> cube), a `tpop` only names the slot, and the
`tfree` signals.  The free signal of a `tpop` is decided by the index of the tile it popped; that of a `tfree` by
the index of the last tile popped before it (pto-isa passes the consumer's counter minus one).
"""

from __future__ import annotations


def sync_period(slot_num: int) -> int:
    """Tiles per free signal: `slot_num` for one or two slots, else half of it (rounded down)."""
    return slot_num if slot_num <= 2 else slot_num // 2


def producer_waits(tile_index: int, slot_num: int) -> bool:
    """Whether the push of the producer's `tile_index`-th tile (from 0) waits for a free signal first."""
    return tile_index >= slot_num and tile_index % sync_period(slot_num) == 0


def consumer_signals_free(tile_index: int, slot_num: int) -> bool:
    """Whether the consumer signals free after releasing with its counter at `tile_index` (see the module doc)."""
    return (tile_index + 1) % sync_period(slot_num) == 0


def wait_number(tile_index: int, slot_num: int) -> int:
    """How many free signals the producer consumed before the push of `tile_index` (a push that waits waits for
    the signal with this number, counted from 0)."""
    return sum(1 for i in range(tile_index) if producer_waits(i, slot_num))


def releases_at_pop(target: str | None) -> bool:
    """True where a tile `tpop` copies the tile out of the ring and frees its slot itself (a2a3, and a module
    without a target, timed as a2a3); False where the ring sits in the consumer's memory and `tfree` frees it
    (a5)."""
    return target != "a5"


def unguarded_reuses(slot_num: int, tiles: int = 64) -> list[int]:
    """The pushes (tile indices below `tiles`) that refill a slot without any wait covering the tile that held it
    before: push n reuses the slot of tile n - slot_num, and the free signals consumed up to push n cover the
    tiles 0 .. k * sync_period - 1 after k signals.  Empty for 1, 2, 3, 4, 6 and 8 slots; an odd depth from 5 on
    leaves some pushes unguarded in pto-isa's rule (5 slots: push 5, which reuses tile 0's slot before the first
    wait at push 6), so a depth choice should not pick such a depth (`depth_is_guarded`)."""
    period = sync_period(slot_num)
    out, consumed = [], 0
    for n in range(tiles):
        if producer_waits(n, slot_num):
            consumed += 1
        if n >= slot_num and consumed * period < n - slot_num + 1:
            out.append(n)
    return out


def depth_is_guarded(slot_num: int) -> bool:
    """Whether every slot reuse of a ring of `slot_num` slots waits for the free of the tile it overwrites."""
    return not unguarded_reuses(slot_num)
