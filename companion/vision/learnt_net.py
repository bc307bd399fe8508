"""A small learnt classifier for a reader's second opinion on the squares it is unsure of.

The hand readers decide each square by thresholds and ask the players where they disagree.
A game may keep a model learnt from its randomised renderer's development boards, over
numbers the reader already measures of a square, and let it look again at what the reader
asks (a game's `vision/second_opinion.py`). One network shape serves them all, in numpy
because OpenCV's build here has no `ml` module: standardised features, one hidden layer of
`tanh` units, a softmax over the game's classes, and the mean of a few such networks trained
from their own starts.

The model is data: a JSON file with the features it was trained on (a reader whose features
changed refuses it rather than read nonsense), its classes, the standardisation and the
weights, and the command that made it.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import numpy as np

from companion.paths import models_dir, repo_dir


@dataclass(frozen=True)
class LearntNet:
    features: tuple[str, ...]
    classes: tuple[str, ...]
    mean: np.ndarray
    scale: np.ndarray
    nets: tuple[dict[str, np.ndarray], ...]
    """Each network's `w1`, `b1` (inputs to hidden) and `w2`, `b2` (hidden to classes)."""
    made_by: str = ""

    def probabilities(self, x: np.ndarray) -> np.ndarray:
        """(n, len(classes)) for (n, len(features)) inputs: the networks' mean."""
        z = (np.asarray(x, np.float64).reshape(-1, len(self.features)) - self.mean) / self.scale
        out = np.zeros((len(z), len(self.classes)))
        for net in self.nets:
            out += _forward(net, z)[1]
        return out / max(len(self.nets), 1)

    def to_json(self) -> dict[str, object]:
        return {
            "made_by": self.made_by,
            "features": list(self.features),
            "classes": list(self.classes),
            "mean": self.mean.tolist(),
            "scale": self.scale.tolist(),
            "nets": [{k: v.tolist() for k, v in net.items()} for net in self.nets],
        }

    def save(self, path: Path) -> None:
        path.write_text(json.dumps(self.to_json(), indent=1) + "\n", encoding="utf-8")

    @classmethod
    def from_json(cls, data: dict[str, Any], features: tuple[str, ...]) -> LearntNet:
        """The model in `data`, refused (ValueError) unless it was trained on `features`."""
        if tuple(data["features"]) != features:
            raise ValueError("learnt model: its features are not this reader's (regenerate it)")
        nets = tuple({k: np.asarray(v, np.float64) for k, v in net.items()} for net in data["nets"])
        return cls(
            features=features,
            classes=tuple(data["classes"]),
            mean=np.asarray(data["mean"], np.float64),
            scale=np.asarray(data["scale"], np.float64),
            nets=nets,
            made_by=str(data.get("made_by", "")),
        )

    @classmethod
    def load(cls, path: Path, features: tuple[str, ...]) -> LearntNet:
        return cls.from_json(json.loads(path.read_text(encoding="utf-8")), features)


def model_file(relative: Path) -> Path | None:
    """A learnt model's file under the models folder (`models_dir`, a user's edited copies),
    else the repository's (a trained model is not something a user copies); None when neither
    has it."""
    for base in (models_dir(), repo_dir() / "models"):
        if (base / relative).exists():
            return base / relative
    return None


def _forward(net: dict[str, np.ndarray], z: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    hidden = np.tanh(z @ net["w1"] + net["b1"])
    logits = hidden @ net["w2"] + net["b2"]
    logits = logits - logits.max(axis=1, keepdims=True)
    p = np.exp(logits)
    return hidden, p / p.sum(axis=1, keepdims=True)


def train(
    x: np.ndarray,
    labels: np.ndarray,
    features: tuple[str, ...],
    classes: tuple[str, ...],
    *,
    nets: int,
    hidden: int,
    steps: int,
    rate: float,
    decay: float,
    least_spread: float,
    made_by: str,
    seed: int = 0,
) -> LearntNet:
    """`nets` networks on the rows `x` with class indices `labels`: full-batch Adam on the
    cross-entropy, weight decay `decay` on the weights (not the biases), each feature
    standardised by its mean and its spread (at least `least_spread`, so a feature constant
    in training stays finite)."""
    x = np.asarray(x, np.float64)
    mean = x.mean(axis=0)
    scale = np.maximum(x.std(axis=0), least_spread)
    z = (x - mean) / scale
    onehot = np.eye(len(classes))[np.asarray(labels, int)]
    rng = np.random.default_rng(seed)
    out = []
    for _ in range(nets):
        net = {
            "w1": rng.normal(0, 1 / np.sqrt(z.shape[1]), (z.shape[1], hidden)),
            "b1": np.zeros(hidden),
            "w2": rng.normal(0, 1 / np.sqrt(hidden), (hidden, len(classes))),
            "b2": np.zeros(len(classes)),
        }
        m = {k: np.zeros_like(v) for k, v in net.items()}
        v2 = {k: np.zeros_like(v) for k, v in net.items()}
        for step in range(1, steps + 1):
            h, p = _forward(net, z)
            d = (p - onehot) / len(z)
            dh = (d @ net["w2"].T) * (1 - h * h)
            grads = {"w1": z.T @ dh, "b1": dh.sum(axis=0), "w2": h.T @ d, "b2": d.sum(axis=0)}
            for k in net:
                g = grads[k] + (decay * net[k] if k.startswith("w") else 0.0)
                m[k] = 0.9 * m[k] + 0.1 * g
                v2[k] = 0.999 * v2[k] + 0.001 * g * g
                net[k] = net[k] - rate * (m[k] / (1 - 0.9**step)) / (
                    np.sqrt(v2[k] / (1 - 0.999**step)) + 1e-8
                )
        out.append(net)
    return LearntNet(features, classes, mean, scale, tuple(out), made_by)
