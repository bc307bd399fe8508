"""The small learnt classifier the readers' second opinions share (`vision/learnt_net.py`)."""

from __future__ import annotations

import numpy as np
import pytest

from companion.vision.learnt_net import LearntNet, train

FEATURES = ("x", "y", "constant")
CLASSES = ("left", "right", "above")


def _points(n: int, seed: int) -> tuple[np.ndarray, np.ndarray]:
    rng = np.random.default_rng(seed)
    xy = rng.uniform(-1, 1, (n, 2))
    labels = np.where(xy[:, 1] > 0.5, 2, np.where(xy[:, 0] < 0, 0, 1))
    return np.column_stack([xy, np.full(n, 3.0)]), labels


def _trained() -> LearntNet:
    x, labels = _points(600, 1)
    return train(
        x,
        labels,
        FEATURES,
        CLASSES,
        nets=2,
        hidden=8,
        steps=400,
        rate=0.05,
        decay=1e-4,
        least_spread=1e-3,
        made_by="the test",
    )


def test_it_learns_classes_it_was_not_told_the_rule_of_and_stays_finite_on_a_constant() -> None:
    model = _trained()
    x, labels = _points(400, 2)  # points it was not trained on
    p = model.probabilities(x)
    assert np.isfinite(p).all() and np.allclose(p.sum(axis=1), 1.0)
    assert (p.argmax(axis=1) == labels).mean() > 0.95
    far = model.probabilities(np.array([[-0.9, -0.9, 3.0], [0.9, -0.9, 3.0], [0.0, 0.95, 3.0]]))
    assert far.argmax(axis=1).tolist() == [0, 1, 2] and (far.max(axis=1) > 0.9).all()


def test_a_saved_model_reads_back_the_same_and_refuses_other_features(tmp_path) -> None:
    model = _trained()
    path = tmp_path / "model.json"
    model.save(path)
    again = LearntNet.load(path, FEATURES)
    x, _ = _points(50, 3)
    assert np.array_equal(again.probabilities(x), model.probabilities(x))
    assert again.classes == CLASSES and again.made_by == "the test"
    with pytest.raises(ValueError, match="features"):
        LearntNet.load(path, ("x", "y"))
