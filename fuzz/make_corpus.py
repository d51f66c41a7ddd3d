"""Writes the seed corpus fuzz/corpus/<target>/ for fuzz_inputs.py (run it again after changing the
input layout of a target; it replays every seed and checks that it makes the intended call).

    PYTHONPATH=python python fuzz/make_corpus.py
"""

from __future__ import annotations

import hashlib
import json
import shutil
import sys
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))

import fuzz_inputs as fz  # noqa: E402  (imports tavli, instrumented)

tavli = fz.tavli
Board = tavli.Board
CORPUS = HERE / "corpus"


def dice_byte(d1: int, d2: int) -> int:
    return (d1 - 1) + 6 * (d2 - 1)


def index_byte(seq, value, at_least: int = 0) -> int:
    """A byte b >= at_least with seq[b % len(seq)] == value."""
    i = seq.index(value)
    b = at_least + (i - at_least) % len(seq)
    assert b < 256 and seq[b % len(seq)] == value
    return b


def sample_boards():
    """One middle-game seed board per configuration (every game, the non-default flags)."""
    by_config: dict[str, list[int]] = {}
    for i, b in enumerate(fz.SEED_BOARDS):
        by_config.setdefault(b.id().split(":")[0], []).append(i)
    return [idx[len(idx) // 2] for idx in by_config.values()]


def seeds() -> dict[str, list[tuple[bytes, str | None]]]:
    """{target: [(input bytes, the text it must pass, or None)]}."""
    s: dict[str, list[tuple[bytes, str | None]]] = {name: [] for name, _ in fz.TARGETS}
    picks = sample_boards()

    def text_seed(target, control, text):
        s[target].append((fz.seed(target, *control, text=text), text))

    # Position IDs of every game (with options) and a few broken ones.
    for i in picks:
        text_seed("from_id", [0], fz.SEED_BOARDS[i].id())
    for bad in ["fevga:AQ", "fevga,runner_threshold=11:AQAPAAAAAAAAAAAAAAAADwAAAAAAAAAAAAAAAA",
                "φεύγα:AQAPAAAAAAAAAAAAAAAADwAAAAAAAAAAAAAAAA"]:
        text_seed("from_id", [0], bad)

    # GNU Backgammon IDs and XGIDs of the hitting games.
    gn_variants = ["backgammon", "portes", "tavla", "plakoto", "fevga", "narde", "bg", "x"]
    for i in picks:
        b = fz.SEED_BOARDS[i]
        if b.variant in fz.HITTING and b.variant in gn_variants:  # the variants t_from_gnubg_id picks from
            text_seed("from_gnubg_id", [0, gn_variants.index(b.variant), b.turn, 0], b.gnubg_id())
            text_seed("from_xgid", [0, gn_variants.index(b.variant)], b.xgid())
    text_seed("from_gnubg_id", [0, 0, 0, 0], "4HPwATDgc/ABMA")
    text_seed("from_gnubg_id", [0, 3, 0, 0], "4HPwATDgc/ABMA")  # plakoto: refused
    text_seed("from_gnubg_id", [0, 0, 0, 0], "4HPwATDgc/AB")
    text_seed("from_xgid", [0, 0], "XGID=-b----E-C---eE---c-e----B-:0:0:1:00:0:0:0:0:10")
    text_seed("from_xgid", [0, 0], "XGID=-b----E-C---eE---c-e----B-:1:1:-1:52:3:2:1:7:8")
    text_seed("from_xgid", [0, 0], "XGID=-b----E-C---eE---c-e----B-")

    # Dicts as JSON (every game: pins, first-turn flags, options), and malformed ones.
    for i in picks[::2]:
        text_seed("from_dict", [0], json.dumps(fz.SEED_BOARDS[i].to_dict()))
    text_seed("from_dict", [0], '{"variant": "fevga", "mover": [15], "opponent": []}')
    text_seed("from_dict", [0], '[1, 2, 3]')

    # Array rows.
    for i in picks:
        b = fz.SEED_BOARDS[i]
        vbyte = index_byte(tavli.variants(), b.variant, at_least=100)
        if b.options:
            continue  # from_array seeds carry no options
        s["from_array"].append((fz.seed("from_array", 0, 0, raw=b.to_array().tobytes() + bytes([vbyte, 0])), None))

    # Game records and match records as JSON.
    for b in fz.SEED_GAMES[::20]:
        text_seed("board_record", [0], json.dumps(b.to_record()))
    for m in fz.SEED_MATCHES[:2]:
        rec = m.to_record()
        for g in rec["games"]:
            g["turns"] = g["turns"][:12]  # short: the harness mutates the full ones itself
            g.pop("result", None)
        rec["score"] = [0, 0]
        text = json.dumps(rec)
        if fz.attempt(tavli.Match.from_json, text) is not None:
            text_seed("match", [0], text)
    text_seed("match", [0], json.dumps(tavli.Match("tavla", 1).to_record()))

    # Records whose move text contradicts the steps (mode 2 of board_record, mode 5 of match), and
    # JSON nested too deep (mode 4 of match).
    for i in range(4):
        s["board_record"].append((fz.seed("board_record", 2, 7 * i, 3 + i, 200, 5 * i), None))
        s["match"].append((fz.seed("match", 5, i, 2 * i, 200, 3 * i), None))
        s["match"].append((fz.seed("match", 4, i, i, i), None))

    # Net files: the seed nets whole (mode 1 with a no-op edit would still change a byte: use the
    # raw mode), cut short, and with a header field changed.
    for n, raw in enumerate(fz.SEED_NETS):
        s["net_load"].append((fz.seed("net_load", 0, raw=raw), None))
        s["net_load"].append((fz.seed("net_load", 2, n, 10, 40 + n), None))  # cut at 40 + n bytes
        s["net_load"].append((fz.seed("net_load", 2, n, 200, n, n), None))  # a header field

    # HTTP request bodies: each endpoint's valid seed body as raw JSON, and two mutations of it.
    for k, (path, body) in enumerate(fz.HTTP_SEEDS):
        s["http_body"].append((fz.seed("http_body", 0, k, raw=json.dumps(body).encode()), None))
        s["http_body"].append((fz.seed("http_body", 1, k, 1, 3, 2), None))
        s["http_body"].append((fz.seed("http_body", 2, k, 0, 9, 7), None))

    # Move text, steps and dice in seed positions (one of every game).
    per_game = {fz.SEED_BOARDS[i].variant: i for i in reversed(picks)}
    for i in per_game.values():
        b = fz.SEED_BOARDS[i]
        if b.is_game_over():
            continue
        for d in [(6, 5), (3, 3)] if b.variant in ("plakoto", "narde", "backgammon") else [(6, 5)]:
            plays = b.legal_plays(d)
            p = plays[len(plays) // 2]
            text_seed("parse_play", [i, dice_byte(*d), 0], str(p))
            if d == (6, 5):
                steps = [x for st in p.steps for x in (st[0] + 2, st[1] + 2)]
                s["find_play"].append((fz.seed("find_play", i, dice_byte(*d), 0, len(p.steps), *steps), None))
        if b.variant in ("fevga", "tavla"):
            text_seed("legal_plays", [i, 200], "6-5")
    for text in ["bar/22* 13/11", "24/18(2) 13/7*(2)", "pass", "24/18/13"]:
        text_seed("parse_play", [picks[0], dice_byte(6, 5), 0], text)

    # Board(variant, **options).
    for v in tavli.variants():
        s["board_new"].append((fz.seed("board_new", 0, index_byte(fz.VARIANT_NAMES, v), 0), None))
        for o in tavli.variant_options(v)[:1]:
            for c in o["choices"][-1:]:
                ctrl = [0, index_byte(fz.VARIANT_NAMES, v), 1, 0, index_byte(fz.OPTION_NAMES, o["name"]), 0,
                        index_byte(fz.OPTION_VALUES, str(c))]
                s["board_new"].append((fz.seed("board_new", *ctrl), None))

    # Batch calls: short structured inputs (n rows of seed boards with edits).
    for n in (1, 3):
        for target in ("batch_legal_plays", "encode", "evaluate_batch"):
            s[target].append((fz.seed(target, n, 1, *range(3 * n, 3 * n + 24)), None))
            s[target].append((fz.seed(target, n, 2, *range(7 * n, 7 * n + 24)), None))
    return s


def check(target: str, data: bytes, text: str | None) -> None:
    """Replays a seed: it must go to `target` and, for text seeds, pass exactly `text` first."""
    assert fz.describe(data) == target
    fz.TRACE = []
    try:
        fz.TestOneInput(data)
    finally:
        trace, fz.TRACE = fz.TRACE, None
    if text is not None:
        assert trace, f"{target}: seed made no call"
        first = trace[0][1][0] if trace[0][1] else None
        got = first if isinstance(first, str) else None
        if target in ("from_dict", "board_record"):
            assert json.dumps(first) == json.dumps(json.loads(text)), f"{target}: {first!r} != {text!r}"
        elif target == "match":
            assert first == text, f"{target}: {first!r} != {text!r}"
        elif target in ("parse_play", "legal_plays"):
            calls = [c for c in trace if c[0] in ("parse_play", "legal_plays")]
            assert calls and (text in calls[0][1] or text in calls[-1][1]), f"{target}: {text!r} not passed: {calls[:2]}"
        else:
            assert got == text, f"{target}: {got!r} != {text!r}"


def main() -> None:
    if CORPUS.exists():
        shutil.rmtree(CORPUS)
    total = 0
    for target, items in seeds().items():
        d = CORPUS / target
        d.mkdir(parents=True, exist_ok=True)
        for data, text in items:
            check(target, data, text)
            (d / hashlib.sha1(data).hexdigest()[:16]).write_bytes(data)
            total += 1
    print(f"wrote {total} seeds to {CORPUS}")


if __name__ == "__main__":
    main()
