"""Colour science for the picture tests: WCAG contrast, CIELAB distance, and the Machado et al.
(2009) simulation of protanopia, deuteranopia and tritanopia (severity 1)."""

from __future__ import annotations

import math

RGB = tuple[int, int, int]
CVD = {
    "protanopia": (
        (0.152286, 1.052583, -0.204868),
        (0.114503, 0.786281, 0.099216),
        (-0.003882, -0.048116, 1.051998),
    ),
    "deuteranopia": (
        (0.367322, 0.860646, -0.227968),
        (0.280085, 0.672501, 0.047413),
        (-0.011820, 0.042940, 0.968881),
    ),
    "tritanopia": (
        (1.255528, -0.076749, -0.178779),
        (-0.078411, 0.930809, 0.147602),
        (0.004733, 0.691367, 0.303900),
    ),
    "normal vision": ((1.0, 0.0, 0.0), (0.0, 1.0, 0.0), (0.0, 0.0, 1.0)),
}
DISCORD_DARK: RGB = (49, 51, 56)
DISCORD_LIGHT: RGB = (255, 255, 255)


def linear(c: int) -> float:
    v = c / 255
    return v / 12.92 if v <= 0.04045 else ((v + 0.055) / 1.055) ** 2.4


def luminance(rgb: RGB) -> float:
    r, g, b = (linear(c) for c in rgb)
    return 0.2126 * r + 0.7152 * g + 0.0722 * b


def contrast(a: RGB, b: RGB) -> float:
    """WCAG 2 contrast ratio (1 to 21)."""
    hi, lo = sorted((luminance(a), luminance(b)), reverse=True)
    return (hi + 0.05) / (lo + 0.05)


def simulate(rgb: RGB, kind: str) -> tuple[float, float, float]:
    """Linear RGB as seen with ``kind`` of colour vision."""
    m = CVD[kind]
    lin = [linear(c) for c in rgb]
    return (
        min(1.0, max(0.0, sum(m[0][j] * lin[j] for j in range(3)))),
        min(1.0, max(0.0, sum(m[1][j] * lin[j] for j in range(3)))),
        min(1.0, max(0.0, sum(m[2][j] * lin[j] for j in range(3)))),
    )


def lab(lin: tuple[float, float, float]) -> tuple[float, float, float]:
    r, g, b = lin
    x = (0.4124 * r + 0.3576 * g + 0.1805 * b) / 0.95047
    y = 0.2126 * r + 0.7152 * g + 0.0722 * b
    z = (0.0193 * r + 0.1192 * g + 0.9505 * b) / 1.08883

    def f(t: float) -> float:
        return t ** (1 / 3) if t > 0.008856 else 7.787 * t + 16 / 116

    return 116 * f(y) - 16, 500 * (f(x) - f(y)), 200 * (f(y) - f(z))


def seen_distance(a: RGB, b: RGB, kind: str) -> float:
    """CIE76 ΔE between two colours as seen with ``kind`` of colour vision."""
    return math.dist(lab(simulate(a, kind)), lab(simulate(b, kind)))
