"""The leave-one-board-out scoring: the rule is chosen on the strips it is given alone, the reader is
restored after a fold, and a photo is scored as eval_boards scores it (occluded: its flag)."""

from __future__ import annotations

import numpy as np

import vision.checkers.network as network
from training.lobo_score import (
    CLASSICAL_ONLY,
    Row,
    choose_rule,
    combine,
    inner_groups,
    read_scores,
    reader_with,
)
from training.stacks_data import Strips


def _strips(count: list[int], classic: list[int], conf: list[float], group: list[str]) -> Strips:
    n = len(count)
    return Strips(np.zeros((n, 3, 4, 2), np.float16), np.array(count), np.array(group),
                  np.array(["img"] * n), np.arange(n), np.array(classic), np.array(conf, np.float32))


def _probs(counts: list[int], p: float) -> np.ndarray:
    out = np.full((len(counts), network.N_COUNTS), (1 - p) / (network.N_COUNTS - 1), np.float32)
    out[np.arange(len(counts)), counts] = p
    return out


def test_combine_takes_the_sure_network_where_the_classical_count_is_unsure() -> None:
    probs = _probs([3, 3, 3], 0.9)
    got = combine(np.array([1, 1, 1]), np.array([0.2, 0.9, 0.2]), probs, sure=0.8, unsure=0.5)
    assert got.tolist() == [3, 1, 3]
    assert combine(np.array([1]), np.array([0.2]), _probs([3], 0.7), 0.8, 0.5).tolist() == [1]


def test_the_rule_stays_classical_unless_the_network_helps() -> None:
    part = _strips([2, 2, 0], [2, 2, 0], [0.9, 0.4, 0.4], ["a", "a", "b"])
    assert choose_rule(part, _probs([5, 5, 5], 0.99))[:2] == CLASSICAL_ONLY


def test_the_rule_takes_the_network_where_the_classical_counter_errs_unsure() -> None:
    # family a: the classical counter is wrong and unsure on two strips, the network right and sure
    part = _strips([2, 4, 3, 1, 0, 0, 1, 1], [2, 1, 0, 1, 0, 0, 1, 1], [0.9, 0.2, 0.2, 0.9] + [0.9] * 4,
                   ["a"] * 4 + ["b"] * 4)
    sure, unsure, score = choose_rule(part, _probs([2, 4, 3, 1, 0, 0, 1, 1], 0.95))
    assert sure <= 0.95 and 0.2 < unsure <= 0.9
    assert score == 1.0


def test_a_gain_of_one_strip_is_no_reason_to_trust_the_network() -> None:
    # the network mends one strip of family a and is as sure of a wrong count elsewhere: within one
    # strip of the best, the classical counts alone stay
    part = _strips([2, 4, 1, 1, 0, 0, 1, 1], [2, 1, 1, 1, 0, 0, 1, 1], [0.9, 0.2, 0.9, 0.9] + [0.9] * 4,
                   ["a"] * 4 + ["b"] * 4)
    assert choose_rule(part, _probs([2, 4, 1, 1, 0, 0, 1, 1], 0.95))[:2] == CLASSICAL_ONLY


def test_among_rules_that_count_alike_the_one_taking_fewest_network_counts_wins() -> None:
    # two strips of family a mended by a sure network; in family b a less sure network mends one
    # unsure classical count and breaks another: a looser rule counts as well, trusting it more
    count = [2, 4, 3, 1, 0, 2, 1, 1]
    part = _strips(count, [2, 1, 0, 1, 0, 0, 1, 1], [0.9, 0.2, 0.2, 0.9, 0.9, 0.4, 0.4, 0.9],
                   ["a"] * 4 + ["b"] * 4)
    probs = _probs(count, 0.95)
    probs[5] = _probs([2], 0.65)[0]
    probs[6] = _probs([5], 0.65)[0]
    sure, unsure, score = choose_rule(part, probs)
    assert score == 1.75 / 2
    assert sure > 0.65 or unsure <= 0.4


def test_reader_with_puts_back_the_shipped_network_and_rule() -> None:
    before = network.load_net, network.SURE, network.UNSURE
    with reader_with(None, 0.5, 0.4):
        assert network.load_net() is None
        assert (network.SURE, network.UNSURE) == (0.5, 0.4)
    assert (network.load_net, network.SURE, network.UNSURE) == before


def _reading(counts: list[int], occluded: bool) -> dict[str, object]:
    pts = [{"image_xy": [10.0 * (i % 12), 0.0 if i < 12 else 100.0], "count": c,
            "colour": "white" if c else None} for i, c in enumerate(counts)]
    return {"board_found": True, "occluded": occluded, "points": pts}


def test_an_occluded_photo_counts_its_flag_for_eval_boards_and_its_points_besides() -> None:
    row_a = ["w2"] + [""] * 11
    label = {"image": "x.jpg", "layout": "landscape", "rowA": row_a, "rowB": ["?"] + [""] * 11,
             "occluded": True}
    counts = [2] + [0] * 11 + [5] + [0] * 10 + [1]  # the last point misread; the hidden one not scored
    scored, visible = read_scores(_reading(counts, occluded=True), label)
    assert scored == (0, 0)
    assert visible == (22, 23)
    plain = {k: v for k, v in label.items() if k != "occluded"}
    assert read_scores(_reading(counts, occluded=False), plain) == ((22, 23), (22, 23))


def test_a_row_adds_each_way_of_counting_apart() -> None:
    row = Row("fam")
    row.add("rule", (20, 24), (20, 24))
    row.add("rule", (0, 0), (10, 12))
    assert row.reader["rule"] == [20, 24] and row.visible["rule"] == [30, 36]
    assert row.reader["classic"] == [0, 0]


def test_inner_groups_deal_every_other_family_once_and_never_the_held_one() -> None:
    fams = ["a", "b", "c", "d", "e"]
    groups = inner_groups(fams, "c", 3)
    assert groups == [["a", "e"], ["b"], ["d"]]
    assert inner_groups(fams, "a", 10) == [["b"], ["c"], ["d"], ["e"]]
